//===- DataLoaderTest.cpp - Dataset transforms and the DataLoader ----------===//
#include "modelrt/data/DataLoader.h"

#include <gtest/gtest.h>
#include <thread>
#include <chrono>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

using namespace modelrt;

/// random_hflip(p) and random_crop(pad) as the compiler writes them.
static ModelrtAugment flipAug(double p) { return {MODELRT_AUG_HFLIP, {p}}; }
static ModelrtAugment cropAug(double pad) { return {MODELRT_AUG_CROP, {pad}}; }

/// N samples of shape [1, 2, 3]; sample i holds i*100 + element index.
static Dataset imageData(int64_t n) {
  Tensor x(DType::F32, {n, 1, 2, 3});
  Tensor y(DType::I64, {n});
  for (int64_t i = 0; i < n; ++i) {
    for (int e = 0; e < 6; ++e)
      x.as<float>()[i * 6 + e] = static_cast<float>(i * 100 + e);
    y.as<int64_t>()[i] = i % 3;
  }
  return *makeDataset("img", x, y);
}

TEST(Dataset, ValidateShapesLabelsAndFiniteness) {
  Dataset d = imageData(4);
  EXPECT_TRUE(validateDataset(d, {1, 2, 3}, 3).isOk());
  // The compiler's rule: the model's shape is the data's with leading 1s
  // (an IDX image's channel); the same count in another layout is refused.
  for (std::vector<int64_t> other : {std::vector<int64_t>{6}, {3, 2}, {1, 3, 2}, {5}})
    EXPECT_EQ(validateDataset(d, other, 3).message(),
              "img: samples have shape [1, 2, 3] but the model declares " + shapeToString(other));
  Dataset flat = imageData(4);
  flat.inputs.reshape({4, 2, 3});
  EXPECT_TRUE(validateDataset(flat, {1, 1, 2, 3}, 3).isOk()); // leading 1s added
  EXPECT_EQ(flat.sampleShape(), (std::vector<int64_t>{1, 1, 2, 3}));
  EXPECT_EQ(validateDataset(d, {1, 2, 3}, 2).message(), "img: sample 2: label 2 is outside [0, 2)");
  d.inputs.as<float>()[13] = NAN;
  EXPECT_EQ(validateDataset(d, {1, 2, 3}, 3).message(), "img: sample 2, element 1: input is NaN");
  d.inputs.as<float>()[13] = INFINITY;
  EXPECT_EQ(validateDataset(d, {1, 2, 3}, 3).message(),
            "img: sample 2, element 1: input is infinite");
  EXPECT_FALSE(makeDataset("m", Tensor(DType::F32, {3, 2}), Tensor(DType::I64, {2})).isOk());
}

TEST(Dataset, NormalizeGlobalAndPerChannel) {
  Tensor x(DType::U8, {1, 2, 1, 2});
  uint8_t vals[] = {0, 255, 51, 102};
  std::copy(vals, vals + 4, x.as<uint8_t>());
  Dataset d = *makeDataset("n", x, Tensor(DType::I64, {1}));
  Dataset g = d;
  ASSERT_TRUE(normalizeDataset(g, 1 / 255.0, {0.5}, {0.25}).isOk());
  EXPECT_FLOAT_EQ(g.inputs.as<float>()[0], -2.0f); // (0 - .5)/.25
  EXPECT_FLOAT_EQ(g.inputs.as<float>()[1], 2.0f);  // (1 - .5)/.25
  ASSERT_TRUE(normalizeDataset(d, 1 / 255.0, {0.0, 0.2}, {1.0, 0.5}).isOk());
  EXPECT_FLOAT_EQ(d.inputs.as<float>()[1], 1.0f);
  EXPECT_NEAR(d.inputs.as<float>()[2], 0.0f, 1e-6); // (0.2 - 0.2)/0.5
  EXPECT_NEAR(d.inputs.as<float>()[3], 0.4f, 1e-6); // (0.4 - 0.2)/0.5
  EXPECT_FALSE(normalizeDataset(d, 1, {0, 0, 0}, {1, 1, 1}).isOk());
  EXPECT_FALSE(normalizeDataset(d, 1, {0}, {0}).isOk());
}

TEST(Dataset, SplitIsDeterministicAndDisjoint) {
  Dataset d = imageData(10);
  auto a = splitDataset(d, 0.3, 7), b = splitDataset(d, 0.3, 7), c = splitDataset(d, 0.3, 8);
  ASSERT_TRUE(a.isOk());
  EXPECT_EQ(a->first.size(), 7);
  EXPECT_EQ(a->second.size(), 3);
  std::set<float> seen;
  for (const Dataset *part : {&a->first, &a->second})
    for (int64_t i = 0; i < part->size(); ++i)
      seen.insert(part->inputs.as<float>()[i * 6]);
  EXPECT_EQ(seen.size(), 10u);
  EXPECT_EQ(std::vector<float>(a->second.inputs.as<float>(), a->second.inputs.as<float>() + 18),
            std::vector<float>(b->second.inputs.as<float>(), b->second.inputs.as<float>() + 18));
  bool differs = false;
  for (int i = 0; i < 18; ++i)
    differs |= a->second.inputs.as<float>()[i] != c->second.inputs.as<float>()[i];
  EXPECT_TRUE(differs);
  EXPECT_FALSE(splitDataset(d, 1.0, 1).isOk());
  EXPECT_FALSE(splitDataset(d, 0.01, 1).isOk());
}

/// Sample ids (first element / 100) of every batch of one epoch.
static std::vector<int64_t> epochIds(DataLoader &l, int64_t *batches = nullptr) {
  std::vector<int64_t> ids;
  Batch b;
  int64_t n = 0;
  while (l.next(b)) {
    ++n;
    for (int64_t k = 0; k < b.size; ++k)
      ids.push_back(static_cast<int64_t>(b.inputs.as<float>()[k * 6]) / 100);
  }
  if (batches)
    *batches = n;
  return ids;
}

TEST(DataLoader, EverySampleOncePerEpochFreshOrder) {
  Dataset d = imageData(23);
  LoaderConfig cfg;
  cfg.batchSize = 5;
  cfg.seed = 3;
  DataLoader l(d, cfg);
  ASSERT_TRUE(l.validate().isOk());
  std::vector<std::vector<int64_t>> orders;
  for (int e = 0; e < 4; ++e) {
    int64_t nb;
    std::vector<int64_t> ids = epochIds(l, &nb);
    EXPECT_EQ(nb, 5);
    std::vector<int64_t> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t i = 0; i < 23; ++i)
      ASSERT_EQ(sorted[i], i);
    orders.push_back(ids);
  }
  EXPECT_NE(orders[0], orders[1]);
  EXPECT_NE(orders[1], orders[2]);
  EXPECT_EQ(l.position().epoch, 4);
}

TEST(DataLoader, DropLastAndLabels) {
  Dataset d = imageData(23);
  LoaderConfig cfg;
  cfg.batchSize = 5;
  cfg.dropLast = true;
  cfg.shuffle = false;
  cfg.oneHotClasses = 3;
  DataLoader l(d, cfg);
  Batch b;
  int64_t n = 0;
  while (l.next(b)) {
    ++n;
    EXPECT_EQ(b.size, 5);
    EXPECT_EQ(b.labels.shape(), (std::vector<int64_t>{5, 3}));
    for (int64_t k = 0; k < 5; ++k) {
      int64_t id = static_cast<int64_t>(b.inputs.as<float>()[k * 6]) / 100;
      for (int c = 0; c < 3; ++c)
        EXPECT_EQ(b.labels.as<float>()[k * 3 + c], c == id % 3 ? 1.0f : 0.0f);
    }
  }
  EXPECT_EQ(n, 4);
  cfg.batchSize = 30;
  DataLoader empty(d, cfg);
  EXPECT_EQ(empty.validate().message(), "img: 23 samples make no full batch of 30 (drop_last)");
}

// Every prefetch depth (the worker refills once the queue has drained to
// half) gives the batches of the loader without a worker, augmentation
// included, for a consumer faster or slower than the worker, across epochs
// and after a mid-epoch restore.
TEST(DataLoader, SameBatchesWithAnyPrefetchDepth) {
  Dataset d = imageData(41);
  LoaderConfig cfg;
  cfg.batchSize = 3;
  cfg.seed = 9;
  cfg.augment = {flipAug(0.5), cropAug(1)};
  cfg.prefetch = 0;
  DataLoader ref(d, cfg);
  std::vector<Batch> want;
  Batch b;
  for (int e = 0; e < 2; ++e)
    while (ref.next(b))
      want.push_back(b);
  for (int64_t depth : {1, 2, 3, 8}) {
    for (bool slow : {false, true}) {
      cfg.prefetch = depth;
      DataLoader l(d, cfg);
      size_t i = 0;
      for (int e = 0; e < 2; ++e)
        while (l.next(b)) {
          if (slow)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
          ASSERT_LT(i, want.size());
          ASSERT_EQ(0, std::memcmp(want[i].inputs.data(), b.inputs.data(), b.inputs.numBytes()))
              << "depth " << depth << " batch " << i;
          ++i;
        }
      EXPECT_EQ(i, want.size()) << "depth " << depth;
    }
    // Restored in the middle of epoch 1 with a full queue behind it.
    cfg.prefetch = depth;
    DataLoader a(d, cfg);
    epochIds(a);
    for (int k = 0; k < 4; ++k)
      a.next(b);
    DataLoader r(d, cfg);
    ASSERT_TRUE(r.restore(a.position()).isOk());
    size_t i = want.size() / 2 + 4;
    while (r.next(b))
      ASSERT_EQ(0, std::memcmp(want[i++].inputs.data(), b.inputs.data(), b.inputs.numBytes()));
    EXPECT_EQ(i, want.size());
  }
  EXPECT_EQ(prefetchDepthFor(200 << 10), 8);  // the MLP's batch: 200 KB
  EXPECT_EQ(prefetchDepthFor(2 << 20), 4);    // 2 MiB
  EXPECT_EQ(prefetchDepthFor(38 << 20), 2);   // 64 x 3 x 224 x 224 floats
}

TEST(DataLoader, SaveAndRestoreMidEpochExactly) {
  Dataset d = imageData(20);
  LoaderConfig cfg;
  cfg.batchSize = 3;
  cfg.seed = 5;
  cfg.augment = {cropAug(1)};
  DataLoader a(d, cfg);
  epochIds(a); // finish epoch 0
  Batch b;
  a.next(b);
  a.next(b);
  LoaderPosition saved = a.position();
  EXPECT_EQ(saved.epoch, 1);
  EXPECT_EQ(saved.batchIndex, 2);
  std::vector<Batch> rest;
  while (a.next(b))
    rest.push_back(b);
  std::vector<int64_t> nextEpoch = epochIds(a);

  DataLoader r(d, cfg);
  ASSERT_TRUE(r.restore(saved).isOk());
  for (const Batch &want : rest) {
    ASSERT_TRUE(r.next(b));
    ASSERT_EQ(0, std::memcmp(want.inputs.data(), b.inputs.data(), b.inputs.numBytes()));
  }
  EXPECT_FALSE(r.next(b));
  EXPECT_EQ(epochIds(r), nextEpoch);
}

TEST(DataLoader, RestoreRefusesAPositionOutsideTheData) {
  Dataset d = imageData(20);
  LoaderConfig cfg;
  cfg.batchSize = 3; // 7 batches
  DataLoader l(d, cfg);
  LoaderPosition p = l.position();
  p.batchIndex = -1;
  EXPECT_EQ(l.restore(p).message(), "img: cannot restore the loader to batch -1: outside [0, 7)");
  p.batchIndex = 7;
  EXPECT_EQ(l.restore(p).message(), "img: cannot restore the loader to batch 7: outside [0, 7)");
  p.batchIndex = 6, p.epoch = -5;
  EXPECT_EQ(l.restore(p).message(), "img: cannot restore the loader to epoch -5");
  p.epoch = 0, p.rngState = {};
  EXPECT_EQ(l.restore(p).message(), "img: cannot restore the loader: its RNG state is all zero");
  EXPECT_EQ(l.position().batchIndex, 0); // unchanged by the refusals
  p.rngState = {1, 2, 3, 4};
  ASSERT_TRUE(l.restore(p).isOk());
  Batch b;
  ASSERT_TRUE(l.next(b)); // the last batch: 20 - 6 * 3 samples
  EXPECT_EQ(b.size, 2);
  EXPECT_FALSE(l.next(b));
}

TEST(DataLoader, FlipAndCropAugmentation) {
  // One 1x2x3 sample; p = 1 flips every time; no crop.
  Dataset d = imageData(1);
  LoaderConfig cfg;
  cfg.batchSize = 1;
  cfg.augment = {flipAug(1.0)};
  DataLoader l(d, cfg);
  Batch b;
  ASSERT_TRUE(l.next(b));
  const float *x = b.inputs.as<float>();
  EXPECT_EQ(std::vector<float>(x, x + 6), (std::vector<float>{2, 1, 0, 5, 4, 3}));
  // Crop with padding 1: the output is the input shifted by (dy, dx) in
  // [-1, 1]^2 with zeros entering; check it is one of the 9 shifts.
  cfg.augment = {cropAug(1)};
  std::set<std::vector<float>> shifts;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      std::vector<float> s(6);
      for (int y = 0; y < 2; ++y)
        for (int xx = 0; xx < 3; ++xx) {
          int sy = y + dy, sx = xx + dx;
          s[y * 3 + xx] = (sy >= 0 && sy < 2 && sx >= 0 && sx < 3) ? float(sy * 3 + sx) : 0.0f;
        }
      shifts.insert(s);
    }
  cfg.seed = 0;
  std::set<std::vector<float>> produced;
  for (int seed = 0; seed < 40; ++seed) {
    cfg.seed = seed;
    DataLoader c(d, cfg);
    ASSERT_TRUE(c.next(b));
    std::vector<float> got(b.inputs.as<float>(), b.inputs.as<float>() + 6);
    EXPECT_TRUE(shifts.count(got));
    produced.insert(got);
  }
  EXPECT_GT(produced.size(), 4u);
  Tensor flat(DType::F32, {2, 4});
  Dataset f = *makeDataset("flat", flat, Tensor(DType::I64, {2}));
  DataLoader bad(f, cfg);
  EXPECT_EQ(bad.validate().message(),
            "flat: augmentation needs image samples [H, W] or [C, H, W], got [4]");
}

TEST(DataLoader, FlipAfterCropMatchesAReferenceLoop) {
  // Crop (padding 1) then flip (p = 1) on a 2-channel 3x4 sample:
  // every output must be some shift (dy, dx) of the zero-padded input,
  // mirrored left-right, computed here pixel by pixel.
  Tensor x(DType::F32, {1, 2, 3, 4}), y(DType::I64, {1});
  for (int i = 0; i < 24; ++i)
    x.as<float>()[i] = float(i + 1);
  auto d = makeDataset("img", std::move(x), std::move(y));
  ASSERT_TRUE(d.isOk());
  std::set<std::vector<float>> expected, produced;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      std::vector<float> s(24);
      for (int c = 0; c < 2; ++c)
        for (int r = 0; r < 3; ++r)
          for (int q = 0; q < 4; ++q) {
            int sy = r + dy, sx = (3 - q) + dx; // output column q reads mirrored column
            s[(c * 3 + r) * 4 + q] =
                (sy >= 0 && sy < 3 && sx >= 0 && sx < 4) ? float(c * 12 + sy * 4 + sx + 1) : 0.0f;
          }
      expected.insert(s);
    }
  LoaderConfig cfg;
  cfg.batchSize = 1, cfg.augment = {cropAug(1), flipAug(1.0)};
  Batch b;
  for (int seed = 0; seed < 60; ++seed) {
    cfg.seed = seed;
    DataLoader l(*d, cfg);
    ASSERT_TRUE(l.next(b));
    std::vector<float> got(b.inputs.as<float>(), b.inputs.as<float>() + 24);
    EXPECT_TRUE(expected.count(got)) << "seed " << seed;
    produced.insert(got);
  }
  EXPECT_EQ(produced.size(), 9u); // all nine shifts occur over 60 seeds
}

/// N RGB samples [3, 6, 5] of distinct values, labels i % 3.
static Dataset rgbData(int64_t n) {
  Tensor x(DType::F32, {n, 3, 6, 5});
  Tensor y(DType::I64, {n});
  for (int64_t i = 0; i < n * 90; ++i)
    x.as<float>()[i] = float((i * 37) % 101) / 100.0f;
  for (int64_t i = 0; i < n; ++i)
    y.as<int64_t>()[i] = i % 3;
  return *makeDataset("rgb", x, y);
}

/// Every augmentation, as the compiler writes them for u8 pixels / 255.
static std::vector<ModelrtAugment> everyAugmentation() {
  return {{MODELRT_AUG_RESIZED_CROP, {0.3, 1.0, 3.0 / 4, 4.0 / 3}},
          {MODELRT_AUG_ROTATION, {20, 0.0}},
          flipAug(0.5),
          cropAug(1),
          {MODELRT_AUG_COLOR_JITTER, {0.4, 0.4, 0.4, 1.0}},
          {MODELRT_AUG_ERASING, {0.5, 0.02, 0.33, 0.3, 3.3, 0.0}}};
}

/// The inputs of every batch of two epochs, concatenated.
static std::vector<float> twoEpochs(const Dataset &d, LoaderConfig cfg) {
  DataLoader l(d, cfg);
  EXPECT_TRUE(l.validate().isOk());
  std::vector<float> all;
  Batch b;
  for (int e = 0; e < 2; ++e)
    while (l.next(b))
      all.insert(all.end(), b.inputs.as<float>(), b.inputs.as<float>() + b.inputs.numElements());
  return all;
}

// Each sample's augmentation depends on (seed, epoch, sample index) only:
// the batches are the same with 1, 2 or 3 threads augmenting a batch, with
// or without the prefetch thread, and the samples the same for another
// batch size; another seed changes them.
TEST(DataLoader, AugmentationIndependentOfThreadsAndBatching) {
  Dataset d = rgbData(23);
  LoaderConfig cfg;
  cfg.batchSize = 8, cfg.seed = 4, cfg.augment = everyAugmentation(), cfg.prefetch = 0;
  std::vector<float> want = twoEpochs(d, cfg);
  LoaderConfig none = cfg;
  none.augment.clear();
  std::vector<float> plain = twoEpochs(d, none);
  ASSERT_EQ(want.size(), plain.size());
  EXPECT_NE(want, plain);
  for (int64_t workers : {1, 2, 3})
    for (int64_t prefetch : {0, 2}) {
      LoaderConfig c = cfg;
      c.workers = workers, c.prefetch = prefetch;
      EXPECT_EQ(twoEpochs(d, c), want) << workers << " workers, prefetch " << prefetch;
    }
  LoaderConfig c = cfg;
  c.batchSize = 5;
  EXPECT_EQ(twoEpochs(d, c), want);
  c.seed = 5;
  EXPECT_NE(twoEpochs(d, c), twoEpochs(d, cfg));
}

TEST(DataLoader, AugmentationsApplyInTheirOrder) {
  // Flip then shift: out(y, x) = in(y + dy, w - 1 - (x + dx)), the mirror
  // image of crop-then-flip's shifts (FlipAfterCropMatchesAReferenceLoop).
  Tensor x(DType::F32, {1, 1, 3, 4}), y(DType::I64, {1});
  for (int i = 0; i < 12; ++i)
    x.as<float>()[i] = float(i + 1);
  Dataset d = *makeDataset("img", std::move(x), std::move(y));
  std::set<std::vector<float>> expected, produced;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      std::vector<float> s(12);
      for (int r = 0; r < 3; ++r)
        for (int q = 0; q < 4; ++q) {
          int sy = r + dy, fx = q + dx;
          s[r * 4 + q] = sy >= 0 && sy < 3 && fx >= 0 && fx < 4 ? float(sy * 4 + (3 - fx) + 1) : 0;
        }
      expected.insert(s);
    }
  LoaderConfig cfg;
  cfg.batchSize = 1, cfg.augment = {flipAug(1.0), cropAug(1)};
  Batch b;
  for (int seed = 0; seed < 60; ++seed) {
    cfg.seed = seed;
    DataLoader l(d, cfg);
    ASSERT_TRUE(l.next(b));
    std::vector<float> got(b.inputs.as<float>(), b.inputs.as<float>() + 12);
    EXPECT_TRUE(expected.count(got)) << "seed " << seed;
    produced.insert(got);
  }
  EXPECT_EQ(produced.size(), 9u);
}

/// A token stream of \p n ids, id i = i % 50, as windows of \p window.
static Dataset streamData(int64_t n, int64_t window, DType type = DType::I64) {
  Tensor ids(DType::I64, {n});
  for (int64_t i = 0; i < n; ++i)
    ids.as<int64_t>()[i] = i % 50;
  return *makeStreamDataset("stream", ids, window, type);
}

/// One epoch of a stream loader: each window's first token index (its
/// start; ids repeat every 50 tokens, so read from the order).
static std::vector<int64_t> streamEpoch(DataLoader &l) {
  std::vector<int64_t> starts;
  Batch b;
  int64_t at = 0;
  while (l.next(b)) {
    for (int64_t k = 0; k < b.size; ++k)
      starts.push_back(l.order()[at + k]);
    at += b.size;
  }
  return starts;
}

TEST(Dataset, StreamWindowsAreViewsOfTheStream) {
  Dataset d = streamData(100, 16);
  EXPECT_EQ(d.size(), 6);          // (100 - 1) / 16 windows per epoch
  EXPECT_EQ(d.windowStarts(), 84); // starts 0 .. 83
  EXPECT_EQ(d.sampleShape(), (std::vector<int64_t>{16}));
  EXPECT_EQ(d.labelElements(), 16);
  EXPECT_EQ(d.inputs.numElements(), 100); // never copied into windows
  DataRules rules;
  rules.sampleShape = {16};
  rules.numClasses = 50;
  rules.idLimit = 50;
  EXPECT_TRUE(validateDataset(d, rules).isOk());
  rules.idLimit = 40;
  EXPECT_EQ(validateDataset(d, rules).message(),
            "stream: token 40: id 40 is outside the model's embedding table [0, 40)");
  rules.idLimit = 0, rules.numClasses = 45;
  EXPECT_EQ(validateDataset(d, rules).message(),
            "stream: token 45: id 45 is outside the model's 45 classes [0, 45)");
  EXPECT_EQ(makeStreamDataset("s", Tensor(DType::I64, {16}), 16, DType::I64).status().message(),
            "s: holds 16 tokens, fewer than the window length + 1 = 17");
  EXPECT_EQ(makeStreamDataset("s", Tensor(DType::F32, {40}), 16, DType::I64).status().message(),
            "s: the model takes integer ids (i64) but the file holds f32 values; store the ids "
            "as integers");
}

TEST(Dataset, StreamSplitHoldsOutTheLastTokens) {
  Dataset d = streamData(100, 4);
  auto parts = splitDataset(d, 0.1, 1);
  ASSERT_TRUE(parts.isOk()) << parts.status().message();
  EXPECT_EQ(parts->first.inputs.numElements(), 90);
  EXPECT_EQ(parts->second.inputs.numElements(), 10);
  EXPECT_EQ(parts->second.inputs.as<int64_t>()[0], 90 % 50);
  EXPECT_EQ(parts->second.window, 4);
  EXPECT_FALSE(splitDataset(d, 0.03, 1).isOk()); // 3 held-out tokens: no window
}

TEST(DataLoader, StreamBatchesAreWindowsAndTheirNextTokens) {
  for (DType type : {DType::I64, DType::I32}) {
    Dataset d = streamData(100, 8, type);
    LoaderConfig cfg;
    cfg.batchSize = 4;
    cfg.seed = 9;
    cfg.prefetch = 0;
    DataLoader l(d, cfg);
    ASSERT_TRUE(l.validate().isOk());
    Batch b;
    ASSERT_TRUE(l.next(b));
    EXPECT_EQ(b.inputs.dtype(), type);
    EXPECT_EQ(b.inputs.shape(), (std::vector<int64_t>{4, 8}));
    EXPECT_EQ(b.labels.dtype(), DType::I64);
    EXPECT_EQ(b.labels.shape(), (std::vector<int64_t>{4, 8}));
    for (int64_t k = 0; k < 4; ++k) {
      int64_t s = l.order()[k];
      EXPECT_LT(s, d.windowStarts());
      for (int64_t i = 0; i < 8; ++i) {
        EXPECT_EQ(int64_t(b.inputs.getAsDouble(k * 8 + i)), (s + i) % 50);
        EXPECT_EQ(b.labels.as<int64_t>()[k * 8 + i], (s + i + 1) % 50);
      }
    }
  }
}

TEST(DataLoader, StreamEpochsDrawFreshStartsAndEvaluationTilesTheStream) {
  Dataset d = streamData(1000, 10);
  LoaderConfig cfg;
  cfg.batchSize = 7;
  cfg.seed = 3;
  DataLoader l(d, cfg);
  std::vector<int64_t> first = streamEpoch(l), second = streamEpoch(l);
  EXPECT_EQ(int64_t(first.size()), d.size());
  EXPECT_NE(first, second);
  DataLoader again(d, cfg); // the same seed draws the same starts
  EXPECT_EQ(streamEpoch(again), first);
  cfg.shuffle = false;
  DataLoader eval(d, cfg);
  Batch b;
  ASSERT_TRUE(eval.next(b));
  for (int64_t k = 0; k < 7; ++k)
    EXPECT_EQ(eval.order()[k], k * 10);
}

TEST(DataLoader, StreamRestoreMidEpochExactly) {
  Dataset d = streamData(500, 6);
  LoaderConfig cfg;
  cfg.batchSize = 5;
  cfg.seed = 11;
  DataLoader a(d, cfg);
  streamEpoch(a);
  Batch b;
  a.next(b);
  LoaderPosition saved = a.position();
  std::vector<Batch> rest;
  while (a.next(b))
    rest.push_back(b);
  DataLoader r(d, cfg);
  ASSERT_TRUE(r.restore(saved).isOk());
  for (const Batch &want : rest) {
    ASSERT_TRUE(r.next(b));
    ASSERT_EQ(0, std::memcmp(want.inputs.data(), b.inputs.data(), b.inputs.numBytes()));
    ASSERT_EQ(0, std::memcmp(want.labels.data(), b.labels.data(), b.labels.numBytes()));
  }
  EXPECT_FALSE(r.next(b));
}
