//===- SumThroughMaxPoolTest.cpp - mdl-sum-through-max-pool's sums --------===//
//
// Evaluates plane sums of max pooling's gradient before and after
// --mdl-sum-through-max-pool with the reference evaluator:
//   - on integer-valued gradients, whose sums are exact in any order, the
//     results must be equal bit for bit (2x2 windows, padded 3x3 windows
//     with ties, negative axes, keepdims, all four axes);
//   - on the float64 SimpleCNN of GradCheckUtil.h, its pooling moved
//     before the relu (mdl-pool-before-relu) and differentiated, the
//     convolutions' bias gradients must read the pooled gradient and agree
//     with the unrewritten ones within the bound of reordering a float64
//     sum: 2 (n - 1) 2^-53 times the sum of the terms' magnitudes for n
//     terms.
//
//===----------------------------------------------------------------------===//

#include "GradCheckUtil.h"

#include <cmath>
#include <cstring>

using namespace modelc::test;

namespace {

/// Runs --mdl-sum-through-max-pool on \p m's module.
bool runPass(GradModule &m) {
  mlir::PassManager pm(&m.context);
  pm.addPass(modelc::createMDLSumThroughMaxPool());
  return mlir::succeeded(pm.run(*m.module));
}

/// Runs --mdl-pool-before-relu, as the grad stage does before autodiff.
bool poolBeforeRelu(GradModule &m) {
  mlir::PassManager pm(&m.context);
  pm.addPass(modelc::createMDLPoolBeforeRelu());
  return mlir::succeeded(pm.run(*m.module));
}

/// The number of reduce_sum ops in \p fn that read a max_pool2d_grad.
int sumsOfPoolGradients(mlir::func::FuncOp fn) {
  int n = 0;
  fn.walk([&](mlir::mdl::ReduceSumOp sum) {
    n += bool(sum.getInput().getDefiningOp<mlir::mdl::MaxPool2DGradOp>());
  });
  return n;
}

/// Plane sums of three max pooling gradients (x and dy as arguments): 2x2
/// windows over axes [0, 2, 3]; padded 3x3 windows (stride 2, which
/// overlap) over [-1, -2] with keepdims and over every axis; 2x2 windows
/// with stride 3, which leave rows and columns of x out, over [1, 2, 3].
const char *kSums = R"mlir(
func.func @f(%x: tensor<2x3x6x6xf64>, %dy2: tensor<2x3x3x3xf64>, %dy3: tensor<2x3x3x3xf64>, %dys: tensor<2x3x2x2xf64>) -> (tensor<3xf64>, tensor<2x3x1x1xf64>, tensor<f64>, tensor<2xf64>) {
  %g2 = mdl.max_pool2d_grad %dy2, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x3x3x3xf64>, tensor<2x3x6x6xf64> -> tensor<2x3x6x6xf64>
  %s2 = mdl.reduce_sum %g2 {axes = array<i64: 0, 2, 3>} : tensor<2x3x6x6xf64> -> tensor<3xf64>
  %g3 = mdl.max_pool2d_grad %dy3, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x3x3xf64>, tensor<2x3x6x6xf64> -> tensor<2x3x6x6xf64>
  %s3 = mdl.reduce_sum %g3 {axes = array<i64: -1, -2>, keepdims = true} : tensor<2x3x6x6xf64> -> tensor<2x3x1x1xf64>
  %t3 = mdl.reduce_sum %g3 {axes = array<i64: 0, 1, 2, 3>} : tensor<2x3x6x6xf64> -> tensor<f64>
  %gs = mdl.max_pool2d_grad %dys, %x {kernel = array<i64: 2, 2>, stride = array<i64: 3, 3>} : tensor<2x3x2x2xf64>, tensor<2x3x6x6xf64> -> tensor<2x3x6x6xf64>
  %ss = mdl.reduce_sum %gs {axes = array<i64: 1, 2, 3>} : tensor<2x3x6x6xf64> -> tensor<2xf64>
  return %s2, %s3, %t3, %ss : tensor<3xf64>, tensor<2x3x1x1xf64>, tensor<f64>, tensor<2xf64>
}
)mlir";

/// x with ties (values from a small set, so windows share their maximum),
/// a NaN, and a window of -inf (the top left 2x2 of plane 1).
Tensor tiedInput() {
  Tensor x({2, 3, 6, 6});
  for (int64_t i = 0; i < x.numel(); ++i)
    x.data[i] = double((i * 7) % 5) - 2.0;
  x.data[7] = std::nan("");
  for (int64_t i : {36, 37, 42, 43})
    x.data[i] = -INFINITY;
  return x;
}

/// Integer-valued gradients in [-17, 23].
Tensor integerGradient(int k, std::vector<int64_t> shape = {2, 3, 3, 3}) {
  Tensor t = testData(std::move(shape), k, 20.0, 3.0);
  for (double &v : t.data)
    v = std::round(v);
  return t;
}

bool sameBits(const Tensor &a, const Tensor &b) {
  return a.shape == b.shape &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(double)) == 0;
}

TEST(SumThroughMaxPool, ExactSumsKeepEveryBit) {
  GradModule written(kSums), rewritten(kSums);
  ASSERT_TRUE(written.module && rewritten.module) << "parse failed";
  ASSERT_TRUE(runPass(rewritten));
  EXPECT_EQ(sumsOfPoolGradients(written.fn("f")), 4);
  EXPECT_EQ(sumsOfPoolGradients(rewritten.fn("f")), 0);
  // No other op reads the pooling gradients: they are gone.
  int grads = 0;
  rewritten.fn("f").walk([&](mlir::mdl::MaxPool2DGradOp) { ++grads; });
  EXPECT_EQ(grads, 0);

  std::vector<Tensor> args = {tiedInput(), integerGradient(1), integerGradient(2),
                              integerGradient(3, {2, 3, 2, 2})};
  Evaluator eval;
  std::string error;
  std::vector<Tensor> before, after;
  ASSERT_TRUE(eval.run(written.fn("f"), args, before, error)) << error;
  ASSERT_TRUE(eval.run(rewritten.fn("f"), args, after, error)) << error;
  ASSERT_EQ(before.size(), 4u);
  ASSERT_EQ(after.size(), 4u);
  for (size_t i = 0; i < before.size(); ++i)
    EXPECT_TRUE(sameBits(before[i], after[i])) << "result " << i << " differs";
  EXPECT_NE(after[2].data[0], 0.0);
}

TEST(SumThroughMaxPool, LeavesOtherSums) {
  GradModule m(R"mlir(
func.func @f(%x: tensor<2x3x4x4xf64>, %dy: tensor<2x3x2x2xf64>) -> (tensor<2x3x4xf64>, tensor<3xf64>, tensor<2x3xf64>) {
  %g = mdl.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x3x2x2xf64>, tensor<2x3x4x4xf64> -> tensor<2x3x4x4xf64>
  %rows = mdl.reduce_sum %g {axes = array<i64: 2>} : tensor<2x3x4x4xf64> -> tensor<2x3x4xf64>
  %a = mdl.avg_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x3x2x2xf64>, tensor<2x3x4x4xf64> -> tensor<2x3x4x4xf64>
  %s = mdl.reduce_sum %a {axes = array<i64: 0, 2, 3>} : tensor<2x3x4x4xf64> -> tensor<3xf64>
  %m = mdl.reduce_mean %g {axes = array<i64: 2, 3>} : tensor<2x3x4x4xf64> -> tensor<2x3xf64>
  return %rows, %s, %m : tensor<2x3x4xf64>, tensor<3xf64>, tensor<2x3xf64>
}
)mlir");
  ASSERT_TRUE(m.module);
  ASSERT_TRUE(runPass(m));
  EXPECT_EQ(sumsOfPoolGradients(m.fn("f")), 1); // the sum over rows only
  m.fn("f").walk([&](mlir::mdl::ReduceSumOp sum) {
    EXPECT_FALSE(sum.getInput().getDefiningOp<mlir::mdl::MaxPool2DGradOp>() == nullptr &&
                 sum.getInput().getDefiningOp<mlir::mdl::AvgPool2DGradOp>() == nullptr)
        << "a sum now reads an argument";
  });
}

/// Adds to \p fn's results, for each sum over axes [0, 2, 3], the same sum
/// of its terms' magnitudes: the bound of reordering it.
void returnMagnitudes(mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::mdl::ReduceSumOp> sums;
  fn.walk([&](mlir::mdl::ReduceSumOp sum) {
    if (sum.getAxes() == llvm::ArrayRef<int64_t>{0, 2, 3})
      sums.push_back(sum);
  });
  auto ret = llvm::cast<mlir::func::ReturnOp>(fn.getBody().back().getTerminator());
  mlir::OpBuilder b(ret);
  llvm::SmallVector<mlir::Value> results(ret.getOperands());
  for (mlir::mdl::ReduceSumOp sum : sums) {
    mlir::Value terms = sum.getInput();
    auto magnitudes = mlir::mdl::AbsOp::create(b, sum.getLoc(), terms.getType(), terms);
    auto bound = mlir::mdl::ReduceSumOp::create(b, sum.getLoc(), sum.getType(), magnitudes,
                                                sum.getAxesAttr(), sum.getKeepdimsAttr());
    results.push_back(bound);
  }
  mlir::func::ReturnOp::create(b, ret.getLoc(), results);
  ret->erase();
  fn.setType(b.getFunctionType(fn.getArgumentTypes(), mlir::ValueRange(results).getTypes()));
}

TEST(SumThroughMaxPool, CnnBiasGradientsWithinReorderingBound) {
  GradModule written(kSimpleCnn), rewritten(kSimpleCnn);
  ASSERT_TRUE(written.module && rewritten.module) << "parse failed";
  ASSERT_TRUE(poolBeforeRelu(written) && poolBeforeRelu(rewritten));
  ASSERT_TRUE(written.differentiate() && rewritten.differentiate()) << "mdl-autodiff failed";
  // With the pooling before the relu, the two convolutions' bias gradients
  // sum their pooling's gradient.
  EXPECT_EQ(sumsOfPoolGradients(written.fn("g")), 2);
  ASSERT_TRUE(runPass(rewritten));
  EXPECT_EQ(sumsOfPoolGradients(rewritten.fn("g")), 0);
  returnMagnitudes(rewritten.fn("g"));

  auto params = simpleCnnParams();
  Evaluator eval(std::map<std::string, Tensor>(params.begin(), params.end()));
  std::string error;
  std::vector<Tensor> before, after;
  ASSERT_TRUE(eval.run(written.fn("g"), simpleCnnInputs(), before, error)) << error;
  ASSERT_TRUE(eval.run(rewritten.fn("g"), simpleCnnInputs(), after, error)) << error;
  ASSERT_EQ(before.size(), params.size() + 1);
  ASSERT_EQ(after.size(), before.size() + 2) << "one magnitude sum per bias gradient";
  // Results 2 (c1b, 4 channels) and 4 (c2b, 8 channels) are the bias
  // gradients; the rest are computed by the same ops in the same order.
  for (size_t i = 0; i < before.size(); ++i) {
    ASSERT_EQ(before[i].shape, after[i].shape);
    if (i != 2 && i != 4) {
      EXPECT_TRUE(sameBits(before[i], after[i])) << "result " << i << " differs";
      continue;
    }
    // Reordering a float64 sum of n terms moves it by at most
    // 2 (n - 1) 2^-53 times the sum of their magnitudes (each order is
    // within (n - 1) 2^-53 of the exact sum); n = N*H*W of the convolution.
    double n = i == 2 ? 2.0 * 8 * 8 : 2.0 * 4 * 4;
    const Tensor &magnitude = after[before.size() + (i == 2 ? 1 : 0)];
    ASSERT_EQ(magnitude.shape, before[i].shape);
    for (int64_t c = 0; c < before[i].numel(); ++c) {
      EXPECT_GT(magnitude.data[c], 0.0);
      EXPECT_NEAR(after[i].data[c], before[i].data[c],
                  2 * (n - 1) * 0x1p-53 * magnitude.data[c])
          << "bias gradient " << i << " channel " << c;
    }
  }
}

} // namespace
