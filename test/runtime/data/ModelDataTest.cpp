//===- ModelDataTest.cpp - A program's data sets with f32 targets ----------===//
//
// loadTrainingData for programs whose labels are f32 targets: an IDX label
// file of floats of rank 3 gives targets of shape [2, 3] per sample, an
// integer file of rank 2 becomes f32, several CSV label columns give
// [N, k]; the loader batches targets like inputs; a NaN target and a shape
// the program does not declare are errors naming the file.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"
#include "modelrt/core/Model.h"
#include "modelrt/data/DataLoader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace modelrt;
using namespace modelrt_test;

namespace {

/// The bytes of an IDX file of `code` (0x08 u8 or 0x0D f32) and shape
/// `dims` holding `values`, big-endian.
std::vector<unsigned char> idxFile(unsigned char code, const std::vector<uint32_t> &dims,
                                   const std::vector<float> &values) {
  std::vector<unsigned char> b = {0, 0, code, static_cast<unsigned char>(dims.size())};
  auto be32 = [&](uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
      b.push_back(static_cast<unsigned char>(v >> s));
  };
  for (uint32_t d : dims)
    be32(d);
  for (float v : values) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    if (code == 0x08)
      b.push_back(static_cast<unsigned char>(v));
    else
      be32(bits);
  }
  return b;
}

/// `n` values start, start + 1, ...
std::vector<float> iota(int n, float start) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = start + static_cast<float>(i);
  return v;
}

/// A program of f32 targets of shape `labelShape` on samples of 3 values,
/// reading the files `x` and `y` in `format`.
struct TargetProgram {
  int64_t inShape[1] = {3};
  std::vector<int64_t> labelShape;
  ModelrtProgram prog{};

  TargetProgram(std::vector<int64_t> shape, int32_t format, const std::string &x,
                const std::string &y)
      : labelShape(std::move(shape)) {
    prog.abi_version = MODELRT_ABI_VERSION;
    prog.input_rank = 1, prog.input_shape = inShape;
    prog.label_dtype = MODELRT_F32;
    prog.label_rank = static_cast<int32_t>(labelShape.size());
    prog.label_shape = labelShape.data();
    prog.config.data.format = format;
    prog.config.data.train_inputs = x.c_str();
    prog.config.data.train_labels = y.empty() ? nullptr : y.c_str();
  }
};

} // namespace

TEST(ModelData, IdxFloatTargetsOfRankTwoAreBatchedLikeInputs) {
  TempDir tmp;
  std::string x = tmp.path("x.idx"), y = tmp.path("y.idx");
  writeBytes(x, idxFile(0x0D, {4, 3}, iota(12, 0)));
  writeBytes(y, idxFile(0x0D, {4, 2, 3}, iota(24, 0.5f)));
  TargetProgram p({2, 3}, MODELRT_DATA_IDX, x, y);
  auto data = loadTrainingData(p.prog, p.prog.config);
  ASSERT_TRUE(data.isOk()) << data.message();
  EXPECT_EQ(data->train.labels.dtype(), DType::F32);
  EXPECT_EQ(data->train.labels.shape(), (std::vector<int64_t>{4, 2, 3}));
  LoaderConfig cfg;
  cfg.batchSize = 2;
  cfg.shuffle = false;
  DataLoader loader(data->train, cfg);
  Batch b;
  ASSERT_TRUE(loader.next(b));
  ASSERT_TRUE(loader.next(b)); // samples 2 and 3
  EXPECT_EQ(b.labels.shape(), (std::vector<int64_t>{2, 2, 3}));
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(b.labels.as<float>()[i], 12.5f + static_cast<float>(i)) << i;
  EXPECT_EQ(b.inputs.as<float>()[0], 6.0f);
}

TEST(ModelData, IntegerIdxTargetsBecomeF32) {
  TempDir tmp;
  std::string x = tmp.path("x.idx"), y = tmp.path("y.idx");
  writeBytes(x, idxFile(0x0D, {3, 3}, iota(9, 0)));
  writeBytes(y, idxFile(0x08, {3, 2}, iota(6, 10)));
  TargetProgram p({2}, MODELRT_DATA_IDX, x, y);
  auto data = loadTrainingData(p.prog, p.prog.config);
  ASSERT_TRUE(data.isOk()) << data.message();
  EXPECT_EQ(data->train.labels.dtype(), DType::F32);
  EXPECT_EQ(data->train.labels.shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(data->train.labels.as<float>()[5], 15.0f);
}

TEST(ModelData, SeveralCsvLabelColumnsAreTargets) {
  TempDir tmp;
  std::string t = tmp.path("t.csv");
  writeText(t, "a,y1,b,c,y2\n1,0.5,2,3,7\n4,1.5,5,6,8\n");
  TargetProgram p({2}, MODELRT_DATA_CSV, t, "");
  const char *labels[] = {"y1", "y2"};
  p.prog.config.data.num_label_columns = 2;
  p.prog.config.data.label_columns = labels;
  auto data = loadTrainingData(p.prog, p.prog.config);
  ASSERT_TRUE(data.isOk()) << data.message();
  EXPECT_EQ(data->train.inputs.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(data->train.labels.shape(), (std::vector<int64_t>{2, 2}));
  const float want[] = {0.5f, 7, 1.5f, 8};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(data->train.labels.as<float>()[i], want[i]) << i;
  EXPECT_EQ(data->train.inputs.as<float>()[5], 6.0f); // a, b, c of row 2
}

TEST(ModelData, BadTargetsNameTheFile) {
  TempDir tmp;
  std::string x = tmp.path("x.idx"), y = tmp.path("y.idx");
  writeBytes(x, idxFile(0x0D, {2, 3}, iota(6, 0)));
  std::vector<float> targets = iota(4, 0);
  targets[3] = NAN;
  writeBytes(y, idxFile(0x0D, {2, 2}, targets));
  TargetProgram p({2}, MODELRT_DATA_IDX, x, y);
  auto nan = loadTrainingData(p.prog, p.prog.config);
  ASSERT_FALSE(nan.isOk());
  EXPECT_EQ(nan.message(), y + ": sample 1, element 1: target is NaN");
  targets[3] = 1;
  writeBytes(y, idxFile(0x0D, {2, 2}, targets));
  TargetProgram wide({3}, MODELRT_DATA_IDX, x, y);
  auto shape = loadTrainingData(wide.prog, wide.prog.config);
  ASSERT_FALSE(shape.isOk());
  EXPECT_EQ(shape.message(), x + ": labels have 2 elements per sample, the model declares [3]");
}
