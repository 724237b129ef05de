//===- CheckpointMetadataTest.cpp - Every checkpoint field is validated ---===//
//
// A checkpoint written by a real run (the softmax program of
// SoftmaxProgram.h, Adam, 2 epochs): each `__metadata__` field tampered (the
// checksum resealed, as a deliberate edit would) or removed is refused with
// a message naming the file, the field and its value; a resume that does
// not fit the run is refused; and every single-bit flip of the header
// (XOR 0x01 and 0x80 at every byte) is refused by the checksum.
//
//===----------------------------------------------------------------------===//
#include "SoftmaxProgram.h"

#include "modelrt/io/Checkpoint.h"
#include "modelrt/io/CheckpointMetadata.h"
#include "modelrt/io/Safetensors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {
/// A fixture with the checkpoint of 2 epochs of the softmax program.
struct Trained : Fixture {
  std::string path, bytes;
  Trained() {
    prog.config.epochs = 2;
    auto r = trainProgram(prog, prog.config, out("run"));
    EXPECT_TRUE(r.isOk()) << r.message();
    path = dir.path("run/last.safetensors");
    bytes = slurp(path);
  }
};

/// \p bytes with metadata field \p key set to \p value (removed when null,
/// added when absent), the checksum resealed when \p reseal.
std::string tampered(const std::string &bytes, const std::string &key, const char *value,
                     bool reseal = true) {
  auto f = decodeSafetensors(bytes, "x.st");
  EXPECT_TRUE(f.isOk()) << f.message();
  auto &meta = f->metadata;
  auto it = std::find_if(meta.begin(), meta.end(), [&](auto &kv) { return kv.first == key; });
  if (!value)
    meta.erase(it);
  else if (it == meta.end())
    meta.emplace_back(key, value);
  else
    it->second = value;
  std::string out = encodeSafetensors(*f);
  if (reseal)
    sealCheckpointChecksum(out);
  return out;
}

/// The header length N of checkpoint \p bytes.
size_t headerLength(const std::string &bytes) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i)
    n = (n << 8) | (unsigned char)bytes[i];
  return size_t(n);
}
} // namespace

TEST(CheckpointMetadata, ARunsCheckpointReadsBack) {
  Trained t;
  auto r = decodeCheckpoint(t.bytes, "x.st");
  ASSERT_TRUE(r.isOk()) << r.message();
  EXPECT_EQ(r->epoch, 2);
  EXPECT_EQ(r->step, 16);
  EXPECT_EQ(r->optimizerSteps, 16);
  EXPECT_EQ(r->loader.batchIndex, 0);
  EXPECT_EQ(encodeCheckpoint(*r), t.bytes);
  // The checksum is FNV-1a 64 over the file with its own 16 digits as '0'.
  size_t at = findChecksumDigits(t.bytes);
  ASSERT_NE(at, std::string::npos);
  char want[20];
  std::snprintf(want, sizeof want, "%016llx",
                (unsigned long long)checkpointChecksum(t.bytes, at));
  EXPECT_EQ(t.bytes.substr(at, 16), want);
}

TEST(CheckpointMetadata, EveryMissingFieldIsNamed) {
  Trained t;
  auto f = decodeSafetensors(t.bytes, "x.st");
  ASSERT_TRUE(f.isOk());
  ASSERT_EQ(f->metadata.size(), 35u);
  for (const auto &[key, value] : f->metadata) {
    if (key == "data.seed") // optional (format 5 has none): TheRunSeedIsRecorded...
      continue;
    auto r = decodeCheckpoint(tampered(t.bytes, key, nullptr), "x.st");
    ASSERT_FALSE(r.isOk()) << key;
    EXPECT_EQ(r.message(), "x.st: __metadata__ lacks field '" + key + "'");
  }
}

TEST(CheckpointMetadata, TheRunSeedIsRecordedAndAFormat5CheckpointHasNone) {
  // A run records its seed (the validation split's). A format 5 file has
  // no data.seed field and reads back without one.
  Trained t;
  auto r = decodeCheckpoint(t.bytes, "x.st");
  ASSERT_TRUE(r.isOk()) << r.message();
  ASSERT_TRUE(r->seed.has_value());
  EXPECT_EQ(*r->seed, t.prog.config.seed);
  std::string v5 = tampered(tampered(t.bytes, "data.seed", nullptr), "format_version", "5");
  for (const char *key : {"partial.loss_sum", "partial.samples", "partial.counted",
                          "partial.metric_sums", "window.loss_sum", "window.batches"})
    v5 = tampered(v5, key, nullptr);
  auto old = decodeCheckpoint(v5, "x.st");
  ASSERT_TRUE(old.isOk()) << old.message();
  EXPECT_FALSE(old->seed.has_value());
  CheckpointData big = *r;
  big.seed = UINT64_MAX;
  auto back = decodeCheckpoint(encodeCheckpoint(big), "x.st");
  ASSERT_TRUE(back.isOk()) << back.message();
  EXPECT_EQ(back->seed, std::optional<uint64_t>(UINT64_MAX));
  for (const char *bad : {"-1", "018", "1x", "", "18446744073709551616"}) {
    auto b = decodeCheckpoint(tampered(t.bytes, "data.seed", bad), "x.st");
    ASSERT_FALSE(b.isOk()) << bad;
    EXPECT_EQ(b.message(), std::string("x.st: __metadata__ field 'data.seed' = '") + bad +
                               "' is not an unsigned decimal integer");
  }
}

TEST(CheckpointMetadata, EveryTamperedFieldIsRefusedNamingIt) {
  Trained t;
  struct Case {
    const char *key, *value, *message;
  };
  const Case cases[] = {
      {"format", "pickle", "__metadata__ field 'format' = 'pickle' is not 'modelrt-checkpoint'"},
      {"format_version", "4", "checkpoint format version 4, this runtime reads versions 5 to 7"},
      {"format_version", "05", "checkpoint format version 05, this runtime reads versions 5 to 7"},
      {"format_version", "8", "checkpoint format version 8, this runtime reads versions 5 to 7"},
      {"format_version", "6", "__metadata__ field 'partial.loss_sum' = '0' is not a field of "
                              "format version 6 (it came with 7)"},
      {"classes", "[1]", "__metadata__ field 'classes' = '[1]' is not an array of class names (strings)"},
      {"classes", "{}", "__metadata__ field 'classes' = '{}' is not an array of class names (strings)"},
      {"vocab", "[98,97]", "__metadata__ field 'vocab' = '[98,97]' is not an increasing array of "
                           "code points (integers in [0, 1114111])"},
      {"vocab", "[\"a\"]", "__metadata__ field 'vocab' = '[\"a\"]' is not an increasing array of "
                           "code points (integers in [0, 1114111])"},
      {"vocab", "[1114112]", "__metadata__ field 'vocab' = '[1114112]' is not an increasing array "
                             "of code points (integers in [0, 1114111])"},
      {"abi_version", "0", "__metadata__ field 'abi_version' = 0 is outside [1, 4294967295]"},
      {"abi_version", "1x", "__metadata__ field 'abi_version' = '1x' is not a decimal integer"},
      {"model", "", "__metadata__ field 'model' = '' is empty"},
      {"fingerprint", "0x0123456789abcdef", "__metadata__ field 'fingerprint' = "
                                            "0x0123456789abcdef is not the fingerprint of the "
                                            "file's tensors, 0x"},
      {"fingerprint", "0xABC", "__metadata__ field 'fingerprint' = '0xABC' is not \"0x\" and 16 "
                               "hex digits"},
      {"schema", "{}", "__metadata__ field 'schema' = '{}' does not describe the file's tensors"},
      {"epoch", "-5", "__metadata__ field 'epoch' = -5 is negative"},
      {"epoch", "02", "__metadata__ field 'epoch' = '02' is not a decimal integer"},
      {"epoch", "99999999999999999999", "__metadata__ field 'epoch' = '99999999999999999999' is "
                                        "not a decimal integer"},
      {"epoch", "3", "__metadata__ field 'schedule.epoch' = 2 differs from field 'epoch' = 3"},
      {"step", "-1", "__metadata__ field 'step' = -1 is negative"},
      {"step", "17", "__metadata__ field 'optimizer.steps' = 16 differs from field 'step' = 17"},
      {"optimizer.kind", "4", "__metadata__ field 'optimizer.kind' = 4 is outside [0, 3]"},
      {"optimizer.kind", "-1", "__metadata__ field 'optimizer.kind' = -1 is outside [0, 3]"},
      {"optimizer.steps", "-1", "__metadata__ field 'optimizer.steps' = -1 is negative"},
      {"optimizer.steps", "15", "__metadata__ field 'optimizer.steps' = 15 differs from field "
                                "'step' = 16"},
      {"schedule.epoch", "1", "__metadata__ field 'schedule.epoch' = 1 differs from field "
                              "'epoch' = 2"},
      {"schedule.step", "0", "__metadata__ field 'schedule.step' = 0 differs from field 'step' "
                             "= 16"},
      {"schedule.plateau_lr", "nan", "__metadata__ field 'schedule.plateau_lr' = nan is not a "
                                     "number (NaN)"},
      {"schedule.plateau_lr", "inf", "__metadata__ field 'schedule.plateau_lr' = inf is not a "
                                     "finite non-negative rate"},
      {"schedule.plateau_lr", "-0.5", "__metadata__ field 'schedule.plateau_lr' = -0.5 is not a "
                                      "finite non-negative rate"},
      {"schedule.plateau_lr", "0.05", "__metadata__ field 'schedule.plateau_lr' = '0.05' is not "
                                      "a number printed with %.17g"},
      {"schedule.best", "nan", "__metadata__ field 'schedule.best' = nan is not a number (NaN)"},
      {"schedule.best", "0.5", "__metadata__ field 'schedule.best' = 0.5 with field "
                               "'schedule.has_best' = 0 (must be 0)"},
      {"schedule.bad_epochs", "3", "__metadata__ field 'schedule.bad_epochs' = 3 is outside "
                                   "[0, 2]"},
      {"schedule.has_best", "2", "__metadata__ field 'schedule.has_best' = '2' is not 0 or 1"},
      {"early_stop.best", "nan", "__metadata__ field 'early_stop.best' = nan is not a number "
                                 "(NaN)"},
      {"early_stop.best", "1", "__metadata__ field 'early_stop.best' = 1 with field "
                               "'early_stop.has_best' = 0 (must be 0)"},
      {"early_stop.bad_epochs", "-1", "__metadata__ field 'early_stop.bad_epochs' = -1 is "
                                      "outside [0, 2]"},
      {"early_stop.has_best", "", "__metadata__ field 'early_stop.has_best' = '' is not 0 or 1"},
      {"best.loss", "low", "__metadata__ field 'best.loss' = 'low' is not a number printed with "
                           "%.17g"},
      {"best.has", "0", "__metadata__ field 'best.loss' = "},
      {"data.epoch", "-1", "__metadata__ field 'data.epoch' = -1 is negative"},
      {"data.epoch", "5", "__metadata__ field 'data.epoch' = 5 differs from field 'epoch' = 2"},
      {"data.batch_index", "-1", "__metadata__ field 'data.batch_index' = -1 is negative"},
      {"partial.loss_sum", "nan", "__metadata__ field 'partial.loss_sum' = nan is not a number "
                                  "(NaN)"},
      {"partial.loss_sum", "-inf", "__metadata__ field 'partial.loss_sum' = -inf is not finite"},
      {"partial.loss_sum", "0.5", "__metadata__ field 'data.batch_index' = 0 with sums of an "
                                  "epoch in progress (partial.*): an epoch's start has none"},
      {"partial.samples", "-3", "__metadata__ field 'partial.samples' = -3 is negative"},
      {"partial.counted", "4", "__metadata__ field 'data.batch_index' = 0 with sums of an epoch "
                               "in progress"},
      {"partial.metric_sums", "[0]", "__metadata__ field 'data.batch_index' = 0 with sums of an "
                                     "epoch in progress"},
      {"partial.metric_sums", "[0.1]", "__metadata__ field 'partial.metric_sums' = '[0.1]' is "
                                       "not an array of finite numbers printed with %.17g"},
      {"partial.metric_sums", "[\"a\"]", "__metadata__ field 'partial.metric_sums' = '[\"a\"]' "
                                         "is not an array of finite numbers"},
      {"partial.metric_sums", "{}", "__metadata__ field 'partial.metric_sums' = '{}' is not an "
                                    "array of finite numbers"},
      {"window.loss_sum", "inf", "__metadata__ field 'window.loss_sum' = inf is not finite"},
      {"window.batches", "0", "__metadata__ field 'window.loss_sum' = "}, // a sum of none
      {"window.batches", "-1", "__metadata__ field 'window.batches' = -1 is negative"},
      {"data.batch_index", "3", "__metadata__ field 'data.batch_index' = 3 with field "
                                "'partial.samples' = 0: the batches trained on hold samples"},
      {"rng.state", "1,2,3,4", "__metadata__ field 'rng.state' = '1,2,3,4' is not 4 "
                               "comma-separated words of 16 hex digits"},
      {"rng.state", "0000000000000000,0000000000000000,0000000000000000,0000000000000000",
       "__metadata__ field 'rng.state' = 0000000000000000,0000000000000000,0000000000000000,"
       "0000000000000000 is all zero (not a xoshiro256** state)"},
      {"metrics", "[1]", "__metadata__ field 'metrics' = '[1]' is not an object of named "
                         "numbers (null for non-finite ones)"},
      {"metrics", "{\"train_loss\":\"low\"}", "__metadata__ field 'metrics' = "
                                              "'{\"train_loss\":\"low\"}' is not an object"},
      {"metrics", "{", "__metadata__ field 'metrics' = '{' is not JSON: x.st: __metadata__ field "
                       "'metrics': byte 1"},
      {"checksum", "sha256", "__metadata__ field 'checksum' = 'sha256' is not \"0x\" and 16 hex "
                             "digits, once"},
      {"evil", "1", "__metadata__ has an unknown field 'evil'"}};
  for (const Case &c : cases) {
    auto r = decodeCheckpoint(tampered(t.bytes, c.key, c.value), "x.st");
    ASSERT_FALSE(r.isOk()) << c.key << " = " << c.value;
    EXPECT_EQ(r.message().rfind(std::string("x.st: ") + c.message, 0), 0u)
        << c.key << " = " << c.value << ": " << r.message();
  }
}

TEST(CheckpointMetadata, AnEditWithoutResealingIsAChecksumMismatch) {
  Trained t;
  auto r = decodeCheckpoint(tampered(t.bytes, "data.batch_index", "-1", false), "x.st");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message().rfind("x.st: checksum mismatch: __metadata__ field 'checksum' = 0x", 0),
            0u) << r.message();
  EXPECT_NE(r.message().find(", the file's bytes hash to 0x"), std::string::npos);
  EXPECT_NE(r.message().find(": the file is corrupt or was modified"), std::string::npos);
}

TEST(CheckpointMetadata, ResumeTargetNamesTheFieldThatDoesNotFit) {
  Trained t;
  auto c = decodeCheckpoint(t.bytes, "x.st");
  ASSERT_TRUE(c.isOk()) << c.message();
  ResumeTarget good{programFingerprint(t.prog), MODELRT_ABI_VERSION, 1, 6, 8,
                    t.prog.config.seed};
  EXPECT_TRUE(checkResumeTarget(*c, good, "x.st").isOk());
  auto expect = [&](ResumeTarget target, const std::string &message) {
    Status s = checkResumeTarget(*c, target, "x.st");
    EXPECT_EQ(s.message(), "x.st: __metadata__ field " + message);
  };
  ResumeTarget t1 = good;
  t1.fingerprint ^= 1;
  expect(t1, "'fingerprint' = " + fingerprintToString(good.fingerprint) +
                 " is not the program's fingerprint " + fingerprintToString(t1.fingerprint));
  ResumeTarget t2 = good;
  t2.abiVersion += 1;
  expect(t2, "'abi_version' = " + std::to_string(good.abiVersion) +
                 " is not the program's ABI version " + std::to_string(t2.abiVersion));
  ResumeTarget t3 = good;
  t3.optimizerKind = 0;
  expect(t3, "'optimizer.kind' = 1 is not the configured optimizer (kind 0)");
  ResumeTarget t4 = good;
  t4.epochs = 1;
  expect(t4, "'epoch' = 2 exceeds the configured epochs (1)");
  ResumeTarget t5 = good;
  t5.batchesPerEpoch = 0;
  expect(t5, "'data.batch_index' = 0 is outside [0, 0) (the training set's batches per epoch)");
  ResumeTarget t6 = good;
  t6.seed = good.seed + 1;
  expect(t6, "'data.seed' = " + std::to_string(good.seed) + " is not this run's seed " +
                 std::to_string(t6.seed) + ": the seed drives the run's validation split, data "
                 "order, augmentation and dropout; resume with --seed " +
                 std::to_string(good.seed));
  // A mid-epoch checkpoint (3 batches of 16, one label each) fits a run
  // of its batch size, accumulation, labels and metrics only.
  CheckpointData mid = *c;
  mid.loader.batchIndex = 3, mid.epochSums.samples = 48, mid.epochSums.counted = 48;
  mid.epochSums.metrics = {40};
  ResumeTarget t7 = good;
  t7.numMetrics = t.prog.num_metrics, t7.batchSize = 16, t7.accumulate = 1;
  EXPECT_TRUE(checkResumeTarget(mid, t7, "x.st").isOk());
  auto expectMid = [&](ResumeTarget target, CheckpointData d, const std::string &message) {
    EXPECT_EQ(checkResumeTarget(d, target, "x.st").message(), "x.st: __metadata__ field " + message);
  };
  ResumeTarget t8 = t7;
  t8.batchSize = 64;
  expectMid(t8, mid, "'partial.samples' = 48 is not data.batch_index (3) batches of this run's "
                     "64 samples: the epoch was begun with another batch size; resume with "
                     "--batch 16");
  ResumeTarget t9 = t7;
  t9.accumulate = 2;
  expectMid(t9, mid, "'data.batch_index' = 3 is not the end of a step (2 batches each, "
                     "accumulate): the run was stopped with another accumulate");
  CheckpointData fewer = mid;
  fewer.epochSums.counted = 0;
  expectMid(t7, fewer, "'partial.counted' = 0 does not fit the 48 labels of partial.samples = "
                       "48 samples");
  ResumeTarget ignoring = t7; // with an ignore index fewer labels may count
  ignoring.labelsMayBeIgnored = true;
  EXPECT_TRUE(checkResumeTarget(fewer, ignoring, "x.st").isOk());
  CheckpointData more = mid;
  more.epochSums.counted = 49;
  expectMid(ignoring, more, "'partial.counted' = 49 does not fit the 48 labels of "
                            "partial.samples = 48 samples");
  CheckpointData twoMetrics = mid;
  twoMetrics.epochSums.metrics = {40, 1};
  expectMid(t7, twoMetrics, "'partial.metric_sums' has 2 values, the program has 1 metrics");
  // A checkpoint that predates the field resumes under any seed.
  CheckpointData old = *c;
  old.seed.reset();
  EXPECT_TRUE(checkResumeTarget(old, t6, "x.st").isOk());
}

namespace {
/// Checkpoint \p bytes (of epoch 2, 8 batches of 16 per epoch) moved to
/// batch \p index of epoch 3, with made-up sums of that many batches.
std::string midEpoch(const std::string &bytes, int64_t index) {
  std::string samples = std::to_string(index * 16);
  std::string mid = tampered(bytes, "data.batch_index", std::to_string(index).c_str());
  for (auto [key, value] : {std::pair("partial.samples", samples.c_str()),
                            std::pair("partial.counted", samples.c_str()),
                            std::pair("partial.loss_sum", "30"),
                            std::pair("partial.metric_sums", "[40]")})
    mid = tampered(mid, key, value);
  return mid;
}
} // namespace

TEST(CheckpointMetadata, ResumeRefusesABatchIndexOutsideTheEpochAndKeepsTheFile) {
  Trained t;
  std::string bad = t.dir.path("bad.safetensors");
  writeText(bad, midEpoch(t.bytes, 99999999));
  std::string before = slurp(bad);
  t.prog.config.epochs = 3;
  RunOptions o = t.out("resumed");
  o.resume = bad;
  auto r = trainProgram(t.prog, t.prog.config, o);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), bad + ": __metadata__ field 'data.batch_index' = 99999999 is outside "
                               "[0, 8) (the training set's batches per epoch)");
  EXPECT_EQ(slurp(bad), before);
  EXPECT_NE(access(t.dir.path("resumed/last.safetensors").c_str(), F_OK), 0);
  // A batch index inside the epoch, with the sums of its first 3 batches,
  // is a mid-epoch position: the run continues with the epoch's 5
  // remaining batches.
  writeText(bad, midEpoch(t.bytes, 3));
  auto mid = trainProgram(t.prog, t.prog.config, o);
  ASSERT_TRUE(mid.isOk()) << mid.message();
  EXPECT_EQ(mid->steps, 16 + 5);
}

TEST(CheckpointMetadata, EveryBitFlipOfTheHeaderIsRefused) {
  Trained t;
  const std::string &good = t.bytes;
  size_t end = 8 + headerLength(good);
  int refused = 0, accepted = 0;
  for (size_t i = 0; i < end; ++i)
    for (unsigned char mask : {0x01, 0x80}) {
      std::string b = good;
      b[i] = char(b[i] ^ mask);
      auto r = decodeCheckpoint(b, "x.st");
      if (!r.isOk()) {
        ++refused;
        continue;
      }
      ++accepted; // only harmless if it decodes to exactly the original
      EXPECT_EQ(encodeCheckpoint(*r), good) << "flip 0x" << std::hex << int(mask) << " at byte "
                                            << std::dec << i << " was accepted";
    }
  std::printf("header bit flips: %d positions x 2 masks: %d refused, %d accepted\n", int(end),
              refused, accepted);
  EXPECT_EQ(accepted, 0);
  // The tensors' bytes are covered too.
  for (size_t i = end; i < good.size(); ++i) {
    std::string b = good;
    b[i] = char(b[i] ^ 0x01);
    ASSERT_FALSE(decodeCheckpoint(b, "x.st").isOk()) << "data byte " << i;
  }
}

// The same sweep with the checksum resealed after each flip (a deliberate
// edit): the field validation alone refuses most flips; what it accepts is
// a well-formed checkpoint that re-encodes to the same bytes (a changed
// name, digit or metric value that is itself valid).
TEST(CheckpointMetadata, ResealedBitFlipsAreRefusedOrWellFormed) {
  Trained t;
  size_t end = 8 + headerLength(t.bytes);
  size_t digits = findChecksumDigits(t.bytes);
  int refused = 0, accepted = 0;
  for (size_t i = 0; i < end; ++i)
    for (unsigned char mask : {0x01, 0x80}) {
      if (i - digits < 16)
        continue; // the checksum's own digits
      std::string b = t.bytes;
      b[i] = char(b[i] ^ mask);
      sealCheckpointChecksum(b);
      auto r = decodeCheckpoint(b, "x.st");
      if (!r.isOk()) {
        ++refused;
        continue;
      }
      ++accepted;
      EXPECT_EQ(encodeCheckpoint(*r), b) << "flip 0x" << std::hex << int(mask) << " at byte "
                                         << std::dec << i << ": " << b.substr(8, end - 8);
    }
  std::printf("resealed header bit flips: %d refused, %d accepted (well-formed)\n", refused,
              accepted);
  EXPECT_GT(refused, 0);
}
