//===- DataLoader.cpp - Shuffled batches with augmentation and prefetch ----===//
//
// DataLoader.h's loader; a token stream's windows are cut from the stream
// as each batch is assembled (modelsupport/Text.h), and samples of mapped
// files are read (converted, normalised) from the mapping the same way.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/DataLoader.h"

#include "modelrt/data/Shard.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace modelrt {

DataLoader::DataLoader(const Dataset &data, LoaderConfig config)
    : data(data), cfg(config) {
  pos.rngState = Rng(mixSeed(cfg.seed, 0x10ade7)).state();
  if (auto s = checkAugmentations(cfg.augment, data.sampleShape(), data.name); s.isOk())
    image = *s;
}

DataLoader::~DataLoader() { stopWorker(); }

Status DataLoader::validate() const {
  if (cfg.batchSize <= 0)
    return errorf("%s: batch size must be positive, got %lld", data.name.c_str(),
                  (long long)cfg.batchSize);
  if (data.size() == 0)
    return errorf("%s: the data set has no samples", data.name.c_str());
  if (batchesPerEpoch() == 0)
    return errorf("%s: %lld samples make no full batch of %lld (drop_last)", data.name.c_str(),
                  (long long)data.size(), (long long)cfg.batchSize);
  auto image = checkAugmentations(cfg.augment, data.sampleShape(), data.name);
  if (!image.isOk())
    return image.status();
  size_t k = cfg.transform.scale.size();
  if (k != cfg.transform.shift.size() || k == 0 ||
      (k > 1 && !cfg.augment.empty() && int64_t(k) != image->c))
    return errorf("%s: the augmentation's transform has %zu scales and %zu shifts for %lld "
                  "channels", data.name.c_str(), k, cfg.transform.shift.size(),
                  (long long)image->c);
  if (!cfg.augment.empty() && data.inputType() != DType::F32)
    return errorf("%s: the samples are integer ids (%s), which are never augmented",
                  data.name.c_str(), dtypeName(data.inputType()));
  if (cfg.workers < 1)
    return errorf("%s: the loader needs at least one worker, got %lld", data.name.c_str(),
                  (long long)cfg.workers);
  if (cfg.oneHotClasses > 0 && (data.labelType() != DType::I64 || !data.labelShape().empty()))
    return errorf("%s: one-hot labels need integer class labels", data.name.c_str());
  return Status::ok();
}

int64_t DataLoader::batchesPerEpoch() const {
  int64_t n = data.size(), b = std::max<int64_t>(cfg.batchSize, 1);
  return cfg.dropLast ? n / b : (n + b - 1) / b;
}

/// A stream's window starts of one epoch: drawn uniformly from every start
/// (training), or the non-overlapping ones (evaluation).
static void drawWindowStarts(const Dataset &data, bool shuffle, Rng &rng,
                             std::vector<int64_t> &starts) {
  uint64_t choices = uint64_t(data.windowStarts());
  for (size_t i = 0; i < starts.size(); ++i)
    starts[i] = shuffle ? int64_t(rng.below(choices)) : int64_t(i) * data.window;
}

void DataLoader::beginEpoch() {
  stopWorker();
  perm.resize(data.size());
  std::iota(perm.begin(), perm.end(), 0);
  Rng rng;
  rng.setState(pos.rngState);
  if (data.window > 0)
    drawWindowStarts(data, cfg.shuffle, rng, perm);
  else if (cfg.shuffle)
    for (int64_t i = data.size() - 1; i > 0; --i)
      std::swap(perm[i], perm[rng.below(i + 1)]);
  nextEpochState = rng.state();
  inEpoch = true;
  queue.clear();
  stopping = false;
  if (cfg.prefetch > 0)
    worker = std::thread(&DataLoader::workerLoop, this, pos.batchIndex, batchesPerEpoch());
}

void DataLoader::workerLoop(int64_t from, int64_t to) {
  for (int64_t b = from; b < to; ++b) {
    Batch batch = makeBatch(b);
    std::unique_lock<std::mutex> lock(mu);
    if (!stopping && (int64_t)queue.size() >= cfg.prefetch) {
      workerWaiting = true;
      cv.wait(lock, [&] { return stopping || !workerWaiting; });
    }
    if (stopping)
      return;
    bool wasEmpty = queue.empty();
    queue.push_back(std::move(batch));
    if (wasEmpty) // only then can the consumer be waiting
      cv.notify_all();
  }
}

void DataLoader::stopWorker() {
  if (!worker.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mu);
    stopping = true;
    cv.notify_all();
  }
  worker.join();
  queue.clear();
  workerWaiting = false;
}

int64_t prefetchDepthFor(int64_t batchBytes) {
  int64_t fit = (int64_t(8) << 20) / std::max<int64_t>(batchBytes, 1);
  return std::clamp<int64_t>(fit, 2, 8);
}

bool DataLoader::next(Batch &batch) {
  if (!inEpoch)
    beginEpoch();
  if (pos.batchIndex >= batchesPerEpoch()) {
    stopWorker();
    inEpoch = false;
    pos.epoch += 1;
    pos.batchIndex = 0;
    pos.rngState = nextEpochState;
    return false;
  }
  if (cfg.prefetch > 0) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return !queue.empty(); });
    batch = std::move(queue.front());
    queue.pop_front();
    // Wake the sleeping worker only once the queue has drained to half.
    if (workerWaiting && (int64_t)queue.size() <= cfg.prefetch / 2) {
      workerWaiting = false;
      cv.notify_all();
    }
  } else {
    batch = makeBatch(pos.batchIndex);
  }
  pos.batchIndex += 1;
  return true;
}

Status DataLoader::restore(const LoaderPosition &position) {
  if (position.epoch < 0)
    return errorf("%s: cannot restore the loader to epoch %lld", data.name.c_str(),
                  (long long)position.epoch);
  if (position.batchIndex < 0 || position.batchIndex >= batchesPerEpoch())
    return errorf("%s: cannot restore the loader to batch %lld: outside [0, %lld)",
                  data.name.c_str(), (long long)position.batchIndex,
                  (long long)batchesPerEpoch());
  if (position.rngState == std::array<uint64_t, 4>{})
    return errorf("%s: cannot restore the loader: its RNG state is all zero", data.name.c_str());
  stopWorker();
  inEpoch = false;
  pos = position;
  return Status::ok();
}

Batch DataLoader::makeBatch(int64_t batchIndex) const {
  int64_t start = batchIndex * cfg.batchSize;
  int64_t global = std::min(cfg.batchSize, data.size() - start);
  ShardSlice slice = shardSlice(global, cfg.shardRank, cfg.shardCount);
  start += slice.offset;
  int64_t b = slice.count;
  Batch out;
  out.size = b, out.globalSize = global;
  std::vector<int64_t> ishape = {b}, lshape = {b};
  for (int64_t d : data.sampleShape())
    ishape.push_back(d);
  for (int64_t d : data.labelShape())
    lshape.push_back(d);
  out.inputs = Tensor(data.inputType(), ishape);
  bool oneHot = cfg.oneHotClasses > 0;
  if (oneHot)
    lshape = {b, cfg.oneHotClasses};
  out.labels = Tensor(oneHot ? DType::F32 : data.labelType(), lshape);
  int64_t parts = cfg.augment.empty() ? 1 : std::clamp<int64_t>(cfg.workers, 1,
                                                                 std::max<int64_t>(b, 1));
  if (parts == 1) {
    fillSamples(out, start, 0, b);
    return out;
  }
  // Contiguous shares of the batch, one per thread; each sample's result
  // depends on its own stream only.
  std::vector<std::thread> helpers;
  for (int64_t p = 1; p < parts; ++p)
    helpers.emplace_back([&, p] { fillSamples(out, start, b * p / parts, b * (p + 1) / parts); });
  fillSamples(out, start, 0, b / parts);
  for (std::thread &t : helpers)
    t.join();
  return out;
}

/// Window \p k of a batch: the ids from token \p s on, and as labels (i64)
/// the ids one token later.
static void copyWindow(const Dataset &data, int64_t s, Batch &out, int64_t k) {
  int64_t w = data.window;
  size_t bytes = dtypeSize(data.inputs.dtype());
  auto *src = static_cast<const unsigned char *>(data.inputs.data());
  std::memcpy(static_cast<unsigned char *>(out.inputs.data()) + size_t(k * w) * bytes,
              src + size_t(s) * bytes, size_t(w) * bytes);
  int64_t *labels = out.labels.as<int64_t>() + k * w;
  if (data.inputs.dtype() == DType::I64)
    std::memcpy(labels, data.inputs.as<int64_t>() + s + 1, size_t(w) * sizeof(int64_t));
  else
    for (int64_t i = 0; i < w; ++i)
      labels[i] = data.inputs.as<int32_t>()[s + 1 + i];
}

/// Sample \p s as f32 for augmentation: in place when held in memory, else
/// read into \p buffer.
static const float *floatSample(const Dataset &data, int64_t s, std::vector<float> &buffer) {
  if (!data.mapped)
    return data.inputs.as<float>() + s * data.sampleElements();
  buffer.resize(size_t(data.sampleElements()));
  data.readSample(s, buffer.data());
  return buffer.data();
}

void DataLoader::fillSamples(Batch &out, int64_t start, int64_t from, int64_t to) const {
  int64_t per = data.sampleElements(), lper = data.labelElements();
  size_t lbytes = lper * dtypeSize(data.labelType());
  size_t ibytes = size_t(per) * dtypeSize(data.inputType());
  std::vector<float> scratch, sample;
  for (int64_t k = from; k < to; ++k) {
    int64_t s = perm[start + k];
    if (data.window > 0) {
      copyWindow(data, s, out, k);
      continue;
    }
    if (!cfg.augment.empty() && data.inputType() == DType::F32) {
      // One stream per (seed, epoch, sample index).
      Rng rng(mixSeed(mixSeed(cfg.seed, 0xa06e), static_cast<uint64_t>(pos.epoch),
                      static_cast<uint64_t>(s)));
      applyAugmentations(cfg.augment, image, cfg.transform, out.inputs.as<float>() + k * per,
                         floatSample(data, s, sample), rng, scratch);
    } else { // ids are never augmented
      data.readSample(s, static_cast<unsigned char *>(out.inputs.data()) + size_t(k) * ibytes);
    }
    if (cfg.oneHotClasses > 0) {
      int64_t label = 0;
      data.readLabels(s, &label);
      out.labels.as<float>()[k * cfg.oneHotClasses + label] = 1.0f;
    } else {
      data.readLabels(s, static_cast<unsigned char *>(out.labels.data()) + k * lbytes);
    }
  }
}

} // namespace modelrt
