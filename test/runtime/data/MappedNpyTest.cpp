//===- MappedNpyTest.cpp - npy(x, y) data sets read through mmap -----------===//
//
// An npy(inputs, labels) pair is mapped, not read whole: batches hold the
// file's values converted to the model's type and normalised; the split
// picks the same samples as for the arrays read whole; values are
// validated with the messages of data held in memory; a broken file (truncated,
// a header that lies about the size, object dtype, Fortran order) is
// refused; and loading a 200 MiB file and gathering a whole epoch of
// batches from it does not raise the process's resident memory by the
// file's size (MappedArray drops its pages every kReadBudget bytes read).
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"
#include "modelrt/core/Model.h"
#include "modelrt/data/DataLoader.h"
#include "modelrt/data/MappedArray.h"
#include "modelrt/data/Readers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {

/// An NPY v1.0 file: header dict \p dict (padded), then \p data.
std::vector<unsigned char> npyBytes(const std::string &dict,
                                    const std::vector<unsigned char> &data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string head = std::string("\x93NUMPY\x01\x00", 8) + char(header.size() & 0xff) +
                     char(header.size() >> 8) + header;
  std::vector<unsigned char> b(head.size() + data.size());
  std::copy(head.begin(), head.end(), b.begin());
  std::copy(data.begin(), data.end(), b.begin() + head.size());
  return b;
}

/// A tensor of \p dtype and \p shape holding 0, 1, 2, ... times \p step.
Tensor ramp(DType dtype, std::vector<int64_t> shape, double step = 1) {
  Tensor f(DType::F64, shape);
  for (int64_t i = 0; i < f.numElements(); ++i)
    f.as<double>()[i] = double(i) * step;
  return f.convertTo(dtype);
}

/// A classifier program on samples \p shape read from NPY files.
struct NpyProgram {
  std::vector<int64_t> shape;
  ModelrtProgram prog{};

  NpyProgram(std::vector<int64_t> sample, int64_t classes, const std::string &x,
             const std::string &y)
      : shape(std::move(sample)), xPath(x), yPath(y) {
    prog.abi_version = MODELRT_ABI_VERSION;
    prog.input_rank = int32_t(shape.size()), prog.input_shape = shape.data();
    prog.label_dtype = MODELRT_I64;
    prog.num_classes = classes;
    prog.config.data.format = MODELRT_DATA_NPY;
    prog.config.data.train_inputs = xPath.c_str();
    prog.config.data.train_labels = yPath.c_str();
  }

private:
  std::string xPath, yPath;
};

/// Every batch of \p data, unshuffled, one after the other.
std::vector<Batch> allBatches(const Dataset &data, int64_t batch) {
  LoaderConfig cfg;
  cfg.batchSize = batch, cfg.shuffle = false, cfg.prefetch = 0;
  DataLoader loader(data, cfg);
  std::vector<Batch> out;
  Batch b;
  while (loader.next(b))
    out.push_back(std::move(b));
  return out;
}

/// This process's resident memory in KiB (VmRSS of /proc/self/status).
long residentKiB() {
  FILE *f = std::fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1)
      break;
  if (f)
    std::fclose(f);
  return kib;
}

} // namespace

TEST(MappedNpy, BatchesHoldConvertedNormalisedValues) {
  TempDir tmp;
  std::string x = tmp.path("x.npy"), y = tmp.path("y.npy");
  ASSERT_TRUE(writeNpy(x, ramp(DType::U8, {5, 2, 3})).isOk());
  ASSERT_TRUE(writeNpy(y, ramp(DType::I32, {5}, 0)).isOk());
  NpyProgram p({2, 3}, 4, x, y);
  double mean[] = {1, 2}, sd[] = {2, 4};
  p.prog.config.data.scale = 0.5, p.prog.config.data.num_norm = 2;
  p.prog.config.data.mean = mean, p.prog.config.data.std = sd;
  auto data = loadTrainingData(p.prog, p.prog.config);
  ASSERT_TRUE(data.isOk()) << data.message();
  ASSERT_TRUE(data->train.mapped.has_value());
  EXPECT_EQ(data->train.inputs.numBytes(), 0u); // nothing copied
  std::vector<Batch> batches = allBatches(data->train, 2);
  ASSERT_EQ(batches.size(), 3u);
  for (int64_t s = 0; s < 5; ++s)
    for (int64_t e = 0; e < 6; ++e) {
      int c = e < 3 ? 0 : 1;
      float want = float((float(s * 6 + e) * 0.5 - mean[c]) / sd[c]);
      EXPECT_EQ(batches[s / 2].inputs.as<float>()[(s % 2) * 6 + e], want) << s << " " << e;
    }
  EXPECT_EQ(batches[2].labels.dtype(), DType::I64);
  EXPECT_EQ(batches[2].inputs.shape(), (std::vector<int64_t>{1, 2, 3}));
}

TEST(MappedNpy, SplitPicksTheSamplesOfTheArraysReadWhole) {
  TempDir tmp;
  std::string x = tmp.path("x.npy"), y = tmp.path("y.npy");
  ASSERT_TRUE(writeNpy(x, ramp(DType::F64, {40, 3}, 0.25)).isOk());
  ASSERT_TRUE(writeNpy(y, ramp(DType::I64, {40}, 0)).isOk());
  NpyProgram p({3}, 2, x, y);
  p.prog.config.data.val_fraction = 0.3;
  p.prog.config.seed = 7;
  auto mapped = loadTrainingData(p.prog, p.prog.config);
  ASSERT_TRUE(mapped.isOk()) << mapped.message();
  auto whole = makeDataset(x, *readNpy(x), *readNpy(y));
  ASSERT_TRUE(whole.isOk()) << whole.message();
  auto parts = splitDataset(*whole, 0.3, 7);
  ASSERT_TRUE(parts.isOk());
  const Dataset *fromMap[] = {&mapped->train, &*mapped->validation};
  const Dataset *fromWhole[] = {&parts->first, &parts->second};
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(fromMap[k]->size(), fromWhole[k]->size());
    std::vector<Batch> a = allBatches(*fromMap[k], 100), b = allBatches(*fromWhole[k], 100);
    ASSERT_EQ(a[0].inputs.numBytes(), b[0].inputs.numBytes());
    EXPECT_EQ(std::memcmp(a[0].inputs.data(), b[0].inputs.data(), a[0].inputs.numBytes()), 0);
  }
}

TEST(MappedNpy, ValuesAreValidatedWithTheMessagesOfDataInMemory) {
  TempDir tmp;
  std::string x = tmp.path("x.npy"), y = tmp.path("y.npy"), ids = tmp.path("ids.npy");
  Tensor values = ramp(DType::F32, {4, 3});
  values.as<float>()[7] = NAN;
  ASSERT_TRUE(writeNpy(x, values).isOk());
  ASSERT_TRUE(writeNpy(y, ramp(DType::I64, {4}, 1)).isOk());
  NpyProgram p({3}, 3, x, y);
  auto label = loadTrainingData(p.prog, p.prog.config);
  EXPECT_EQ(label.message(), y + ": sample 3: label 3 is outside [0, 3)");
  p.prog.num_classes = 4;
  auto nan = loadTrainingData(p.prog, p.prog.config);
  EXPECT_EQ(nan.message(), x + ": sample 2, element 1: input is NaN");
  Tensor big = ramp(DType::I64, {4, 3});
  big.as<int64_t>()[5] = int64_t(1) << 40;
  ASSERT_TRUE(writeNpy(ids, big).isOk());
  NpyProgram i32({3}, 4, ids, y);
  i32.prog.input_dtype = MODELRT_I32;
  auto wide = loadTrainingData(i32.prog, i32.prog.config);
  EXPECT_EQ(wide.message(), ids + ": element 5: id 1099511627776 does not fit the model's i32 "
                                  "input");
  NpyProgram floats({3}, 4, x, y);
  floats.prog.input_dtype = MODELRT_I64;
  auto refused = loadTrainingData(floats.prog, floats.prog.config);
  EXPECT_EQ(refused.message(), x + ": the model takes integer ids (i64) but the file holds f32 "
                                   "values; store the ids as integers");
}

TEST(MappedNpy, BrokenFilesAreRefused) {
  TempDir tmp;
  std::vector<unsigned char> twelve(12, 0);
  struct Case {
    const char *name, *dict;
    size_t bytes;
    const char *message;
  } cases[] = {
      {"short.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 12,
       "truncated NPY data: file ends at byte 140, shape [2, 3] needs 152"},
      {"long.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }", 12,
       "byte 136: unexpected trailing bytes after NPY data"},
      {"object.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }", 12,
       "unsupported NPY dtype '|O' (supported: little-endian <f4 <f8 <i4 <i8 |u1; object "
       "and pickled arrays are never loaded)"},
      {"fortran.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", 12,
       "NPY array is in Fortran order; only C order is supported"},
      {"empty.npy", nullptr, 0, "byte 0: not an NPY file (missing \\x93NUMPY magic)"},
  };
  for (const Case &c : cases) {
    std::string path = tmp.path(c.name);
    writeBytes(path, c.dict ? npyBytes(c.dict, std::vector<unsigned char>(c.bytes, 0))
                            : std::vector<unsigned char>());
    auto m = MappedArray::open(path);
    ASSERT_FALSE(m.isOk()) << c.name;
    EXPECT_EQ(m.message(), path + ": " + c.message) << c.name;
  }
  auto dir = MappedArray::open(tmp.root());
  EXPECT_EQ(dir.message(), tmp.root() + ": is a directory, not a data file");
}

TEST(MappedNpy, LargeFileIsReadWithoutHoldingIt) {
  // 51200 samples of 1024 f32 (200 MiB): zeros (a sparse file) except the
  // rows marked, whose values are row * 1000 + element.
  const int64_t n = 51200, per = 1024;
  TempDir tmp;
  std::string x = tmp.path("big.npy"), y = tmp.path("labels.npy");
  std::vector<unsigned char> head =
      npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (51200, 1024), }", {});
  writeBytes(x, head);
  int fd = ::open(x.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, off_t(head.size() + n * per * 4)), 0);
  const int64_t marked[] = {0, 1, 777, 25600, n - 1};
  for (int64_t r : marked) {
    std::vector<float> row(per);
    for (int64_t e = 0; e < per; ++e)
      row[e] = float(r * 1000 + e);
    ASSERT_EQ(::pwrite(fd, row.data(), per * 4, off_t(head.size() + r * per * 4)), per * 4);
  }
  ::close(fd);
  ASSERT_TRUE(writeNpy(y, Tensor(DType::I64, {n})).isOk());
  NpyProgram p({per}, 10, x, y);
  long before = residentKiB();
  auto data = loadTrainingData(p.prog, p.prog.config); // validates every value
  ASSERT_TRUE(data.isOk()) << data.message();
  long loaded = residentKiB();
  LoaderConfig cfg;
  cfg.batchSize = 512, cfg.shuffle = false, cfg.prefetch = 2;
  for (int64_t r : marked) {
    Dataset one = gatherDataset(data->train, {r});
    std::vector<Batch> b = allBatches(one, 1);
    ASSERT_EQ(b.size(), 1u);
    for (int64_t e = 0; e < per; e += 97)
      ASSERT_EQ(b[0].inputs.as<float>()[e], float(r * 1000 + e)) << r;
  }
  DataLoader loader(data->train, cfg);
  Batch b;
  int64_t samples = 0;
  long gathered = 0;
  for (int i = 0; loader.next(b); ++i) { // the whole file
    ASSERT_EQ(b.inputs.as<float>()[per + 5], i == 0 ? 1005.0f : 0.0f);
    samples += b.size;
    gathered = std::max(gathered, residentKiB());
  }
  EXPECT_EQ(samples, n);
  std::printf("VmRSS: %ld KiB before loading, %ld after loading, at most %ld while an epoch's "
              "batches were gathered (the file is %lld KiB)\n", before, loaded, gathered,
              (long long)(n * per * 4 / 1024));
  EXPECT_LT(loaded - before, 32 * 1024);
  EXPECT_LT(gathered - before, 96 * 1024);
}
