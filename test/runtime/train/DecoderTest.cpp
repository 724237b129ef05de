//===- DecoderTest.cpp - A sequence decoded one position at a time --------===//
//
// modelrt::Decoder over a hand-written program whose decoding step keeps
// one cache [1, 1, 4, 2]: it writes the position's input (2 floats) into
// row pos and returns the sum of rows 0..pos, plus the parameter. Checks
// that the caches start zeroed and are the decoder's own, that positions
// are stepped in order (a later one before its predecessors, a negative
// one and one past the length are errors, naming the positions), that
// stepping an earlier position rewinds the sequence, that reset() forgets
// it, and that a program without a decoding step is refused.
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/Decoder.h"

#include <gtest/gtest.h>

#include <vector>

using namespace modelrt;

namespace {

const int64_t kLength = 4, kWidth = 2;
const int64_t kInShape[] = {kLength, kWidth}, kOutShape[] = {kLength, kWidth};
const int64_t kCacheShape[] = {1, 1, kLength, kWidth}, kParamShape[] = {1};
const ModelrtTensorDesc kParams[] = {
    {"bias", MODELRT_F32, 1, kParamShape, MODELRT_INIT_ZEROS, {0, 0}, 0, 0}};
const ModelrtTensorDesc kCaches[] = {
    {"cache0.key", MODELRT_F32, 4, kCacheShape, MODELRT_INIT_ZEROS, {0, 0}, 0, 0}};

int decodeStep(void *, float *const *params, float *const *, float *const *caches,
               const void *input, int64_t pos, float *output) {
  const float *x = static_cast<const float *>(input);
  for (int64_t i = 0; i < kWidth; ++i) {
    caches[0][pos * kWidth + i] = x[i];
    output[i] = params[0][0];
    for (int64_t p = 0; p <= pos; ++p)
      output[i] += caches[0][p * kWidth + i];
  }
  return 0;
}
int trainStep(void *, float *const *, float *const *, const float *, const void *, int64_t,
              uint64_t, int64_t, float *, float *const *, double *) {
  return 0;
}
int evalStep(void *, float *const *, float *const *, const float *, const void *, int64_t,
             float *, double *) {
  return 0;
}
int predict(void *, float *const *, float *const *, const float *, int64_t, float *) {
  return 0;
}

ModelrtProgram program(bool withDecodeStep) {
  ModelrtProgram p{};
  p.abi_version = MODELRT_ABI_VERSION;
  p.name = "running_sum";
  p.num_params = 1;
  p.params = kParams;
  p.input_rank = p.output_rank = 2;
  p.input_shape = kInShape;
  p.output_shape = kOutShape;
  p.label_dtype = MODELRT_F32;
  p.train_step = trainStep;
  p.eval_step = evalStep;
  p.predict = predict;
  if (withDecodeStep) {
    p.decode_step = decodeStep;
    p.num_caches = 1;
    p.caches = kCaches;
    p.decode_length = kLength;
  }
  return p;
}

/// The output at `pos` for the input {a, b}.
std::vector<float> step(Decoder &d, int64_t pos, float a, float b) {
  float x[] = {a, b};
  Expected<const float *> out = d.step(x, pos);
  EXPECT_TRUE(out.isOk()) << out.message();
  return out.isOk() ? std::vector<float>(*out, *out + d.outputSize()) : std::vector<float>{};
}

TEST(Decoder, StepsRewindsAndResets) {
  ModelrtProgram p = program(true);
  ModelState model = initModelState(p, 1);
  model.params[0][0] = 0.5f;
  Expected<Decoder> made = Decoder::create(p, model);
  ASSERT_TRUE(made.isOk()) << made.message();
  Decoder d = made.take();
  EXPECT_EQ(d.length(), kLength);
  EXPECT_EQ(d.inputSize(), kWidth);
  EXPECT_EQ(d.outputSize(), kWidth);
  EXPECT_EQ(step(d, 0, 1, 2), (std::vector<float>{1.5f, 2.5f}));
  EXPECT_EQ(step(d, 1, 10, 20), (std::vector<float>{11.5f, 22.5f}));
  EXPECT_EQ(step(d, 2, 100, 200), (std::vector<float>{111.5f, 222.5f}));
  EXPECT_EQ(d.next(), 3);
  // Rewinding to position 1 replaces its row.
  EXPECT_EQ(step(d, 1, 30, 40), (std::vector<float>{31.5f, 42.5f}));
  EXPECT_EQ(d.next(), 2);
  d.reset();
  EXPECT_EQ(d.next(), 0);
  EXPECT_EQ(step(d, 0, 0, 0), (std::vector<float>{0.5f, 0.5f}));
}

TEST(Decoder, PositionsOutOfOrderOrRangeAreErrors) {
  ModelrtProgram p = program(true);
  ModelState model = initModelState(p, 1);
  Decoder d = Decoder::create(p, model).take();
  float x[] = {1, 1};
  Expected<const float *> ahead = d.step(x, 2);
  ASSERT_FALSE(ahead.isOk());
  EXPECT_EQ(ahead.message(), "decoder: position 2 comes before positions 0..1 were decoded");
  for (int64_t pos : {int64_t(-1), kLength}) {
    Expected<const float *> out = d.step(x, pos);
    ASSERT_FALSE(out.isOk());
    EXPECT_EQ(out.message(), "decoder: position " + std::to_string(pos) +
                                 " is outside the model's 4 positions");
  }
  EXPECT_EQ(d.next(), 0);
}

TEST(Decoder, NeedsADecodingStep) {
  ModelrtProgram p = program(false);
  ModelState model = initModelState(p, 1);
  Expected<Decoder> d = Decoder::create(p, model);
  ASSERT_FALSE(d.isOk());
  EXPECT_NE(d.message().find("running_sum has no decoding step"), std::string::npos)
      << d.message();
}

} // namespace
