//===- ConvTest.cpp - The convolution functions through oneDNN and im2col -===//
//
// The runtime's three convolution functions (runtime/lib/core/Conv.cpp),
// with each BLAS library active, against float64 loops written here from
// the definition (the forward one also with a bias): odd shapes (N 1 and 3;
// C 1, 3 and 17; O 1, 5 and 32;
// inputs 1x1, 7x5 and 13x9; kernels 1x1, 3x3, 3x2 and 5x5; stride 1 and 2;
// padding 0, 1 and 2; dilation 1 and 2; shapes whose output would be empty
// left out), within 1e-5 of the sum of the terms' magnitudes plus 1e-6.
// Then oneDNN's primitives on one and on two threads, im2col + sgemm on
// oneDNN's sgemm, a shape oneDNN refuses, the same bits twice, two callers
// at once, no images, what the user is told (convolutionKernels, the
// profile report), and the instruction-set cap.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Conv.h"
#include "core/BlasBackends.h"
#include "core/ConvBackends.h"
#include "core/OneDnn.h"
#include "modelrt/core/Blas.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"
#include "modelrt/core/Profile.h"

#include "BlasLibraryParam.h"
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <thread>
#include <vector>

using namespace modelrt;

namespace {

/// Runs one convolution of \p kind: (a, b) -> out as ConvBackends.h lists.
using Runner = std::function<void(ConvKind kind, const ConvShape &s, const float *a,
                                  const float *b, float *out)>;

/// The public C functions.
void runPublic(ConvKind kind, const ConvShape &s, const float *a, const float *b, float *out) {
  switch (kind) {
  case ConvKind::Forward:
    modelrt_conv2d_forward(a, b, out, s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow,
                           s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
    break;
  case ConvKind::BackwardData:
    modelrt_conv2d_backward_data(a, b, out, s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow,
                                 s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
    break;
  case ConvKind::BackwardWeights:
    modelrt_conv2d_backward_weights(a, b, out, s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow,
                                    s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
    break;
  }
}

/// oneDNN's primitives on \p threads threads; fails the test when oneDNN
/// refuses the shape.
Runner oneDnnOn(int threads) {
  return [threads](ConvKind kind, const ConvShape &s, const float *a, const float *b,
                   float *out) {
    EXPECT_TRUE(oneDnnConvolution(kind, s, threads, a, b, out)) << "oneDNN refused the shape";
  };
}

/// The output size for an input of \p in (floor), or 0 when it is empty.
int64_t outputSize(int64_t in, int64_t k, int64_t stride, int64_t pad, int64_t dil) {
  int64_t span = in + 2 * pad - dil * (k - 1) - 1;
  return span < 0 ? 0 : span / stride + 1;
}

/// The shape with \p pick of the 18 (N, C, O) choices, and the stride,
/// padding and dilation across (\p sW, \p pW, \p dW) those down.
ConvShape makeShape(int pick, const int64_t in[2], const int64_t k[2], int64_t s, int64_t p,
                    int64_t d, int64_t sW, int64_t pW, int64_t dW) {
  const int64_t ns[2] = {1, 3}, cs[3] = {1, 3, 17}, os[3] = {1, 5, 32};
  return {ns[pick / 9], cs[pick / 3 % 3], in[0], in[1], os[pick % 3], k[0], k[1],
          outputSize(in[0], k[0], s, p, d), outputSize(in[1], k[1], sW, pW, dW), s, sW, p, pW,
          d, dW};
}

/// The shapes: every geometry (input, kernel, stride, padding, dilation)
/// with a non-empty output, each twice with other (N, C, O), the second
/// time with another stride, padding and dilation across where that leaves
/// an output.
std::vector<ConvShape> testShapes() {
  const int64_t inputs[3][2] = {{1, 1}, {7, 5}, {13, 9}};
  const int64_t kernels[4][2] = {{1, 1}, {3, 3}, {3, 2}, {5, 5}};
  std::vector<ConvShape> shapes;
  int g = 0;
  for (const auto &in : inputs)
    for (const auto &k : kernels)
      for (int64_t s : {1, 2})
        for (int64_t p : {0, 1, 2})
          for (int64_t d : {1, 2}) {
            ConvShape same = makeShape(g % 18, in, k, s, p, d, s, p, d);
            if (same.oh < 1 || same.ow < 1)
              continue;
            shapes.push_back(same);
            ConvShape other = makeShape((g * 7 + 5) % 18, in, k, s, p, d, 3 - s, 2 - p, 3 - d);
            shapes.push_back(other.ow >= 1 ? other : makeShape((g * 7 + 5) % 18, in, k, s, p, d,
                                                               s, p, d));
            ++g;
          }
  return shapes;
}

std::string describe(ConvKind kind, const ConvShape &s) {
  std::ostringstream o;
  const char *names[] = {"forward", "backward data", "backward weights"};
  o << names[int(kind)] << " N" << s.n << " C" << s.c << " " << s.h << "x" << s.w << " O" << s.o
    << " k" << s.kh << "x" << s.kw << " stride " << s.strideH << "," << s.strideW << " pad "
    << s.padH << "," << s.padW << " dil " << s.dilH << "," << s.dilW;
  return o.str();
}

float value(size_t i, int salt) { return std::sin(0.7f * float(i) + float(salt)) * 0.5f; }

/// The three tensors' element counts: image, weights, output.
struct Sizes {
  size_t x, w, y;
};
Sizes sizesOf(const ConvShape &s) {
  return {size_t(s.n * s.c * s.h * s.w), size_t(s.o * s.c * s.kh * s.kw),
          size_t(s.n * s.o * s.oh * s.ow)};
}

/// Inputs for a shape: x, w and dy filled with value(i, salt).
struct Inputs {
  std::vector<float> x, w, dy;
  explicit Inputs(const ConvShape &s, int salt = 1) {
    Sizes z = sizesOf(s);
    std::vector<float> *tensors[3] = {&x, &w, &dy};
    size_t sizes[3] = {z.x, z.w, z.y};
    for (int t = 0; t < 3; ++t) {
      tensors[t]->resize(sizes[t]);
      for (size_t i = 0; i < sizes[t]; ++i)
        (*tensors[t])[i] = value(i, salt + t);
    }
  }
};

/// The float64 result of one kind and, per element, the sum of the
/// magnitudes of its terms.
struct Expected64 {
  std::vector<double> value, magnitude;
};

/// y, dx and dw from the definition: every term x[n,c,iy,ix] w[o,c,i,j]
/// with iy = oy*sH - pH + i*dH and ix = ox*sW - pW + j*dW inside the image.
std::vector<Expected64> reference(const ConvShape &s, const Inputs &in) {
  Sizes z = sizesOf(s);
  size_t sizes[3] = {z.y, z.x, z.w};
  std::vector<Expected64> r(3);
  for (int kind = 0; kind < 3; ++kind)
    r[kind] = {std::vector<double>(sizes[kind]), std::vector<double>(sizes[kind])};
  auto add = [](Expected64 &e, size_t at, double a, double b) {
    e.value[at] += a * b;
    e.magnitude[at] += std::fabs(a * b);
  };
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t o = 0; o < s.o; ++o)
      for (int64_t oy = 0; oy < s.oh; ++oy)
        for (int64_t ox = 0; ox < s.ow; ++ox)
          for (int64_t c = 0; c < s.c; ++c)
            for (int64_t i = 0; i < s.kh; ++i)
              for (int64_t j = 0; j < s.kw; ++j) {
                int64_t iy = oy * s.strideH - s.padH + i * s.dilH;
                int64_t ix = ox * s.strideW - s.padW + j * s.dilW;
                if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w)
                  continue;
                size_t xi = size_t(((n * s.c + c) * s.h + iy) * s.w + ix);
                size_t wi = size_t(((o * s.c + c) * s.kh + i) * s.kw + j);
                size_t yi = size_t(((n * s.o + o) * s.oh + oy) * s.ow + ox);
                add(r[0], yi, in.x[xi], in.w[wi]);
                add(r[1], xi, in.dy[yi], in.w[wi]);
                add(r[2], wi, in.x[xi], in.dy[yi]);
              }
  return r;
}

/// Whether \p got is within 1e-5 * magnitude + 1e-6 of the reference.
::testing::AssertionResult close(const std::vector<float> &got, const Expected64 &want) {
  for (size_t i = 0; i < got.size(); ++i) {
    double tol = 1e-5 * want.magnitude[i] + 1e-6;
    if (!(std::fabs(double(got[i]) - want.value[i]) <= tol))
      return ::testing::AssertionFailure() << "element " << i << ": " << got[i] << ", want "
                                           << want.value[i] << " (tolerance " << tol << ")";
  }
  return ::testing::AssertionSuccess();
}

/// Runs the three kinds of every test shape through \p run and checks them
/// against the reference; returns the number of shapes.
int checkAllShapes(const Runner &run) {
  std::vector<ConvShape> shapes = testShapes();
  for (const ConvShape &s : shapes) {
    Inputs in(s);
    std::vector<Expected64> want = reference(s, in);
    Sizes z = sizesOf(s);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> y(z.y, nan), dx(z.x, nan), dw(z.w, nan);
    run(ConvKind::Forward, s, in.x.data(), in.w.data(), y.data());
    run(ConvKind::BackwardData, s, in.dy.data(), in.w.data(), dx.data());
    run(ConvKind::BackwardWeights, s, in.x.data(), in.dy.data(), dw.data());
    EXPECT_TRUE(close(y, want[0])) << describe(ConvKind::Forward, s);
    EXPECT_TRUE(close(dx, want[1])) << describe(ConvKind::BackwardData, s);
    EXPECT_TRUE(close(dw, want[2])) << describe(ConvKind::BackwardWeights, s);
    if (::testing::Test::HasFailure())
      break;
  }
  return int(shapes.size());
}

/// A shape large enough to run on every core (3.6M multiply-adds).
const ConvShape kLargeShape = {3, 17, 13, 9, 32, 3, 3, 13, 9, 1, 1, 1, 1, 1, 1};

/// Each kind of \p s through the public functions, as one vector.
std::vector<float> runAllKinds(const ConvShape &s) {
  Inputs in(s, 4);
  Sizes z = sizesOf(s);
  std::vector<float> all(z.y + z.x + z.w);
  runPublic(ConvKind::Forward, s, in.x.data(), in.w.data(), all.data());
  runPublic(ConvKind::BackwardData, s, in.dy.data(), in.w.data(), all.data() + z.y);
  runPublic(ConvKind::BackwardWeights, s, in.x.data(), in.dy.data(), all.data() + z.y + z.x);
  return all;
}

/// Runs each test with each BLAS library (BlasLibraryParam.h).
class ConvWith : public modelrt_test::WithBlasLibrary {};

INSTANTIATE_TEST_SUITE_P(Libraries, ConvWith, modelrt_test::kBothBlasLibraries,
                         modelrt_test::blasLibraryName);

/// Refuses the shapes with 7 images or more (none of the test grid's).
bool refuseSevenImagesOrMore(const ConvShape &s) { return s.n >= 7; }

} // namespace

TEST_P(ConvWith, AllKindsMatchFloat64Reference) {
  EXPECT_GT(checkAllShapes(runPublic), 200);
}

// modelrt_conv2d_forward_bias: the convolution plus bias[o] on every
// element of output channel o (oneDNN's primitive adds it; im2col adds it
// after the products), against the reference with the bias as one more
// term.
TEST_P(ConvWith, ForwardWithBiasMatchesFloat64Reference) {
  std::vector<ConvShape> shapes = testShapes();
  shapes.push_back(kLargeShape); // on every core
  shapes.push_back({32, 16, 32, 32, 16, 3, 3, 32, 32, 1, 1, 1, 1, 1, 1});
  shapes.push_back({32, 16, 32, 32, 32, 3, 3, 16, 16, 2, 2, 1, 1, 1, 1});
  for (const ConvShape &s : shapes) {
    Inputs in(s);
    Expected64 want = reference(s, in)[0];
    std::vector<float> bias(size_t(s.o));
    for (size_t o = 0; o < bias.size(); ++o)
      bias[o] = value(o, 9) + 1.0f;
    int64_t spatial = s.oh * s.ow;
    for (size_t i = 0; i < want.value.size(); ++i) {
      float b = bias[size_t(int64_t(i) / spatial % s.o)];
      want.value[i] += b;
      want.magnitude[i] += std::fabs(b);
    }
    std::vector<float> y(sizesOf(s).y, std::numeric_limits<float>::quiet_NaN());
    modelrt_conv2d_forward_bias(in.x.data(), in.w.data(), bias.data(), y.data(), s.n, s.c, s.h,
                                s.w, s.o, s.kh, s.kw, s.oh, s.ow, s.strideH, s.strideW, s.padH,
                                s.padW, s.dilH, s.dilW);
    ASSERT_TRUE(close(y, want)) << describe(ConvKind::Forward, s) << " with a bias";
  }
}

// A shape oneDNN refuses adds the bias after im2col's products.
TEST(Conv, ARefusedShapeStillAddsTheBias) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  setOneDnnConvRefusalForTesting(refuseSevenImagesOrMore);
  static int64_t runs = 0; // a new shape each time (--gtest_repeat)
  ConvShape s = {50 + runs++, 3, 7, 5, 5, 3, 2, 3, 2, 2, 2, 0, 0, 1, 1}; // not the next test's
  Inputs in(s);
  std::vector<float> bias = {0.5f, -1.0f, 2.0f, 0.0f, 3.25f}, y(sizesOf(s).y), plain(y.size());
  int64_t before = oneDnnRefusedShapes();
  modelrt_conv2d_forward_bias(in.x.data(), in.w.data(), bias.data(), y.data(), s.n, s.c, s.h,
                              s.w, s.o, s.kh, s.kw, s.oh, s.ow, s.strideH, s.strideW, s.padH,
                              s.padW, s.dilH, s.dilW);
  runPublic(ConvKind::Forward, s, in.x.data(), in.w.data(), plain.data());
  setOneDnnConvRefusalForTesting(nullptr);
  EXPECT_GT(oneDnnRefusedShapes(), before);
  int64_t spatial = s.oh * s.ow;
  for (size_t i = 0; i < y.size(); ++i) // the same products, then one addition
    ASSERT_EQ(y[i], plain[i] + bias[size_t(int64_t(i) / spatial % s.o)]) << i;
}

TEST_P(ConvWith, TheSameConvolutionGivesTheSameBits) {
  std::vector<float> first = runAllKinds(kLargeShape), second = runAllKinds(kLargeShape);
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0);
}

// Without images nothing is read or written, and the weights' gradient is 0.
TEST_P(ConvWith, NoImages) {
  ConvShape s = kLargeShape;
  s.n = 0;
  std::vector<float> w(size_t(s.o * s.c * s.kh * s.kw), 1.0f), dw(w.size(), 5.0f);
  modelrt_conv2d_forward(nullptr, w.data(), nullptr, s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh,
                         s.ow, s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  modelrt_conv2d_backward_data(nullptr, w.data(), nullptr, s.n, s.c, s.h, s.w, s.o, s.kh, s.kw,
                               s.oh, s.ow, s.strideH, s.strideW, s.padH, s.padW, s.dilH, s.dilW);
  modelrt_conv2d_backward_weights(nullptr, nullptr, dw.data(), s.n, s.c, s.h, s.w, s.o, s.kh,
                                  s.kw, s.oh, s.ow, s.strideH, s.strideW, s.padH, s.padW, s.dilH,
                                  s.dilW);
  EXPECT_EQ(dw, std::vector<float>(w.size(), 0.0f));
}

TEST_P(ConvWith, KernelsNameThePath) {
  runAllKinds(kLargeShape);
  std::string kernels = convolutionKernels();
  if (GetParam() == BlasLibrary::OpenBlas) {
    EXPECT_EQ(kernels.rfind("im2col + sgemm (OpenBLAS)", 0), 0u) << kernels;
    return;
  }
  EXPECT_EQ(kernels.rfind("oneDNN 2.", 0), 0u) << kernels;
  EXPECT_NE(kernels.find(" primitives: "), std::string::npos) << kernels;
  EXPECT_TRUE(convolutionsRan());
}

// Each primitive is made for its thread count (oneDNN's kernels plan their
// split when made): one thread and two give the reference's results, and
// each the same bits every time.
TEST(Conv, OneDnnOnOneAndTwoThreadsMatchesFloat64Reference) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  int64_t refused = oneDnnRefusedShapes();
  for (int threads : {1, 2}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    checkAllShapes(oneDnnOn(threads));
    Inputs in(kLargeShape);
    std::vector<float> first(sizesOf(kLargeShape).w), second(first.size());
    oneDnnOn(threads)(ConvKind::BackwardWeights, kLargeShape, in.x.data(), in.dy.data(),
                      first.data());
    oneDnnOn(threads)(ConvKind::BackwardWeights, kLargeShape, in.x.data(), in.dy.data(),
                      second.data());
    EXPECT_EQ(first, second);
  }
  EXPECT_EQ(oneDnnRefusedShapes(), refused);
}

// The path a refused shape takes, on oneDNN's sgemm.
TEST(Conv, Im2colOnOneDnnSgemmMatchesFloat64Reference) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  checkAllShapes(im2colConvolution);
}

// A shape oneDNN refuses runs as im2col + sgemm, and the user is told.
TEST(Conv, ARefusedShapeStillGivesTheRightAnswer) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  setOneDnnConvRefusalForTesting(refuseSevenImagesOrMore);
  int64_t before = oneDnnRefusedShapes();
  static int64_t runs = 0; // a new shape each time (--gtest_repeat)
  ConvShape s = {7 + runs++, 3, 7, 5, 5, 3, 2, 3, 2, 2, 2, 0, 0, 1, 1}; // right padding -1
  Inputs in(s);
  std::vector<Expected64> want = reference(s, in);
  Sizes z = sizesOf(s);
  std::vector<float> y(z.y), dx(z.x), dw(z.w);
  for (int repeat = 0; repeat < 2; ++repeat) { // made once, refused once
    runPublic(ConvKind::Forward, s, in.x.data(), in.w.data(), y.data());
    runPublic(ConvKind::BackwardData, s, in.dy.data(), in.w.data(), dx.data());
    runPublic(ConvKind::BackwardWeights, s, in.x.data(), in.dy.data(), dw.data());
  }
  setOneDnnConvRefusalForTesting(nullptr);
  EXPECT_TRUE(close(y, want[0]));
  EXPECT_TRUE(close(dx, want[1]));
  EXPECT_TRUE(close(dw, want[2]));
  EXPECT_EQ(oneDnnRefusedShapes(), before + 3);
  EXPECT_NE(convolutionKernels().find("; im2col + sgemm for "), std::string::npos)
      << convolutionKernels();
}

// `info` counts a refused shape once: with and without a bias, in f32 and
// bf16, on one thread and on two.
TEST(Conv, ARefusedShapeCountsOnce) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  setOneDnnConvRefusalForTesting(refuseSevenImagesOrMore);
  static int64_t runs = 0; // a new shape each time (--gtest_repeat)
  ConvShape s = {90 + runs++, 3, 7, 5, 5, 3, 2, 3, 2, 2, 2, 0, 0, 1, 1};
  Inputs in(s);
  std::vector<float> bias(size_t(s.o), 1.0f), y(sizesOf(s).y);
  int64_t before = oneDnnRefusedShapes();
  for (int threads : {1, 2})
    for (bool bf16 : {false, true})
      for (const float *b : std::initializer_list<const float *>{nullptr, bias.data()})
        EXPECT_FALSE(
            oneDnnConvolution(ConvKind::Forward, s, threads, in.x.data(), in.w.data(), y.data(),
                              bf16, b));
  EXPECT_EQ(oneDnnRefusedShapes(), before + 1);
  // Another kind of the same sizes is another shape.
  std::vector<float> dx(sizesOf(s).x);
  EXPECT_FALSE(oneDnnConvolution(ConvKind::BackwardData, s, 1, in.dy.data(), in.w.data(),
                                 dx.data()));
  setOneDnnConvRefusalForTesting(nullptr);
  EXPECT_EQ(oneDnnRefusedShapes(), before + 2);
}

// Two threads calling the same convolution at once share its cached
// primitive, one call at a time, and get the results of one caller.
TEST(Conv, TwoCallersAtOnceGetTheSameBits) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  std::vector<float> alone = runAllKinds(kLargeShape);
  std::vector<float> results[2];
  std::thread other([&] {
    for (int i = 0; i < 10; ++i)
      results[1] = runAllKinds(kLargeShape);
  });
  for (int i = 0; i < 10; ++i)
    results[0] = runAllKinds(kLargeShape);
  other.join();
  EXPECT_EQ(results[0], alone);
  EXPECT_EQ(results[1], alone);
}

// Convolutions below kConvMacsForAllCores (1M) multiply-adds run on one
// thread, larger ones on every core (unless OMP_NUM_THREADS decides).
TEST(Conv, OneDnnThreadsFollowTheWork) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  if (std::getenv("OMP_NUM_THREADS")) {
    EXPECT_EQ(oneDnnThreadsForWork(convolutionMacs(kLargeShape), kConvMacsForAllCores), 0);
    return;
  }
  ConvShape small = {1, 3, 7, 5, 5, 3, 3, 7, 5, 1, 1, 1, 1, 1, 1}; // 4725
  ConvShape firstLayer = {1, 1, 28, 28, 32, 3, 3, 28, 28, 1, 1, 1, 1, 1, 1}; // 225,792
  EXPECT_EQ(oneDnnThreadsForWork(convolutionMacs(small), kConvMacsForAllCores), 1);
  EXPECT_EQ(oneDnnThreadsForWork(convolutionMacs(firstLayer), kConvMacsForAllCores), 1);
  EXPECT_EQ(oneDnnThreadsForWork(convolutionMacs(kLargeShape), kConvMacsForAllCores),
            usableCores());
}

// Once convolutions ran, the profile report says what ran them, after the
// matrix products.
TEST(Conv, TheProfileReportNamesTheConvolutions) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  runAllKinds(kLargeShape);
  char *buf = nullptr;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  writeProfileReport(f);
  std::fclose(f);
  std::string report(buf, size);
  std::free(buf);
  size_t products = report.find("profile: matrix products by oneDNN ");
  size_t convolutions = report.find("profile: convolutions by " + convolutionKernels() + "\n");
  ASSERT_NE(convolutions, std::string::npos) << report;
  EXPECT_LT(products, convolutions) << report;
}

// oneDNN's convolutions use no instruction set above the runtime's level
// (run with MODELRT_CPU_ISA=avx2 or baseline to check the cap; the level is
// read once per process).
TEST(Conv, OneDnnKernelsStayWithinTheCpuLevel) {
  ASSERT_TRUE(useBlasLibrary(BlasLibrary::OneDnn).isOk());
  runAllKinds(kLargeShape);
  std::string impls = oneDnnConvolutionImpls();
  ASSERT_FALSE(impls.empty());
  CpuLevel level = hostKernels().level;
  if (level <= CpuLevel::Avx2)
    EXPECT_EQ(impls.find("avx512"), std::string::npos) << impls;
  if (level == CpuLevel::Baseline)
    EXPECT_EQ(impls.find("avx"), std::string::npos) << impls;
}
