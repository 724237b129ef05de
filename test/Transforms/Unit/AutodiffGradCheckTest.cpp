//===- AutodiffGradCheckTest.cpp - Gradients vs finite differences --------===//
//
// For each op family: differentiate a small f64 loss `@f` with respect to
// its float arguments, evaluate the generated `@g` with the reference
// evaluator, and compare every gradient element with a central finite
// difference of `@f` (h = 1e-6). Whole models (a small MLP and the SimpleCNN
// of examples/fashion_mnist/cnn.model, parameters read with mdl.param) are
// checked parameter by parameter with a maximum relative error of 1e-6.
//
//===----------------------------------------------------------------------===//

#include "GradCheckUtil.h"

#include "mlir/IR/TypeUtilities.h"

using namespace modelc::test;

namespace {

/// Runs the whole check; `args` are @f's arguments (integer ones included).
void gradCheck(llvm::StringRef source, std::vector<Tensor> args) {
  GradModule m(source);
  ASSERT_TRUE(m.module) << "parse failed";
  ASSERT_TRUE(m.differentiate()) << "mdl-autodiff failed";
  Evaluator eval;
  std::vector<Tensor> grads, base;
  std::string error;
  ASSERT_TRUE(eval.run(m.fn("g"), args, grads, error)) << error;
  ASSERT_TRUE(eval.run(m.fn("f"), args, base, error)) << error;
  EXPECT_NEAR(grads[0].data[0], base[0].data[0], 1e-12) << "loss differs";
  size_t next = 1;
  for (auto [k, arg] : llvm::enumerate(m.fn("f").getArguments())) {
    if (!llvm::isa<mlir::FloatType>(mlir::getElementTypeOrSelf(arg.getType())))
      continue;
    const Tensor &grad = grads[next++];
    ASSERT_EQ(grad.shape, args[k].shape) << "gradient shape of argument " << k;
    for (int64_t i = 0; i < args[k].numel(); ++i) {
      const double h = 1e-6;
      std::vector<Tensor> plus = args, minus = args, out;
      plus[k].data[i] += h;
      minus[k].data[i] -= h;
      ASSERT_TRUE(eval.run(m.fn("f"), plus, out, error)) << error;
      double up = out[0].data[0];
      ASSERT_TRUE(eval.run(m.fn("f"), minus, out, error)) << error;
      double fd = (up - out[0].data[0]) / (2 * h);
      EXPECT_NEAR(grad.data[i], fd, 1e-6 + 1e-5 * std::fabs(fd))
          << "argument " << k << " element " << i;
    }
  }
}

TEST(AutodiffGradCheck, BroadcastingBinary) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<2x3xf64>, %b: tensor<3xf64>, %c: tensor<2x1xf64>) -> tensor<f64> {
  %0 = mdl.add %x, %b : tensor<2x3xf64>, tensor<3xf64> -> tensor<2x3xf64>
  %1 = mdl.mul %0, %c : tensor<2x3xf64>, tensor<2x1xf64> -> tensor<2x3xf64>
  %2 = mdl.div %1, %c : tensor<2x3xf64>, tensor<2x1xf64> -> tensor<2x3xf64>
  %3 = mdl.sub %2, %b : tensor<2x3xf64>, tensor<3xf64> -> tensor<2x3xf64>
  %e = mdl.exp %x : tensor<2x3xf64>
  %4 = mdl.pow %e, %b : tensor<2x3xf64>, tensor<3xf64> -> tensor<2x3xf64>
  %5 = mdl.max %3, %c : tensor<2x3xf64>, tensor<2x1xf64> -> tensor<2x3xf64>
  %6 = mdl.min %4, %1 : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %7 = mdl.mul %5, %6 : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %8 = mdl.add %7, %x : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %l = mdl.reduce_sum %8 {axes = array<i64: 0, 1>} : tensor<2x3xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({2, 3}, 0), testData({3}, 1), testData({2, 1}, 2, 0.5, 2.0)});
}

TEST(AutodiffGradCheck, Unary) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<7xf64>) -> tensor<f64> {
  %0 = mdl.tanh %x : tensor<7xf64>
  %1 = mdl.sigmoid %x : tensor<7xf64>
  %2 = mdl.relu %x : tensor<7xf64>
  %3 = mdl.gelu %x : tensor<7xf64>
  %4 = mdl.abs %x : tensor<7xf64>
  %5 = mdl.exp %x : tensor<7xf64>
  %6 = mdl.sqrt %5 : tensor<7xf64>
  %7 = mdl.log %5 : tensor<7xf64>
  %8 = mdl.neg %7 : tensor<7xf64>
  %a = mdl.mul %0, %1 : tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %b = mdl.mul %2, %3 : tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %c = mdl.mul %4, %6 : tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %d = mdl.mul %8, %3 : tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %s0 = mdl.add %a, %b : tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %s1 = mdl.add %c, %d : tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %s = mdl.add %s0, %s1 : tensor<7xf64>, tensor<7xf64> -> tensor<7xf64>
  %l = mdl.reduce_sum %s {axes = array<i64: 0>} : tensor<7xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({7}, 3, 2.0)});
}

TEST(AutodiffGradCheck, SelectAndCast) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<2x3xf64>, %y: tensor<3xf64>) -> tensor<f64> {
  %z = mdl.constant dense<0.0> : tensor<f64>
  %m = mdl.cmp gt, %x, %z : tensor<2x3xf64>, tensor<f64> -> tensor<2x3xi1>
  %s = mdl.select %m, %x, %y : tensor<2x3xi1>, tensor<2x3xf64>, tensor<3xf64> -> tensor<2x3xf64>
  %c = mdl.cast %s : tensor<2x3xf64> -> tensor<2x3xf32>
  %d = mdl.cast %c : tensor<2x3xf32> -> tensor<2x3xf64>
  %q = mdl.mul %d, %s : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %l = mdl.reduce_sum %q {axes = array<i64: 0, 1>} : tensor<2x3xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({2, 3}, 4), testData({3}, 5)});
}

TEST(AutodiffGradCheck, Products) {
  gradCheck(R"mlir(
func.func @f(%a: tensor<2x2x3xf64>, %w: tensor<3x4xf64>, %q: tensor<2x4x2xf64>) -> tensor<f64> {
  %0 = mdl.matmul %a, %w : tensor<2x2x3xf64>, tensor<3x4xf64> -> tensor<2x2x4xf64>
  %1 = mdl.batch_matmul %0, %q : tensor<2x2x4xf64>, tensor<2x4x2xf64> -> tensor<2x2x2xf64>
  %2 = mdl.mul %1, %1 : tensor<2x2x2xf64>, tensor<2x2x2xf64> -> tensor<2x2x2xf64>
  %l = mdl.reduce_sum %2 {axes = array<i64: 0, 1, 2>} : tensor<2x2x2xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({2, 2, 3}, 6), testData({3, 4}, 7), testData({2, 4, 2}, 8)});
}

TEST(AutodiffGradCheck, BroadcastBatchProducts) {
  // A [2, 1, 2, 3] stack times a [3, 3, 2] parameter stack (batch broadcast
  // to [2, 3]), then a matrix times the stack.
  gradCheck(R"mlir(
func.func @f(%x: tensor<2x1x2x3xf64>, %w: tensor<3x3x2xf64>, %m: tensor<2x2xf64>) -> tensor<f64> {
  %0 = mdl.batch_matmul %x, %w : tensor<2x1x2x3xf64>, tensor<3x3x2xf64> -> tensor<2x3x2x2xf64>
  %1 = mdl.batch_matmul %m, %0 : tensor<2x2xf64>, tensor<2x3x2x2xf64> -> tensor<2x3x2x2xf64>
  %2 = mdl.tanh %1 : tensor<2x3x2x2xf64>
  %3 = mdl.reduce_sum %2 {axes = array<i64: 0, 1, 2, 3>} : tensor<2x3x2x2xf64> -> tensor<f64>
  return %3 : tensor<f64>
})mlir",
            {testData({2, 1, 2, 3}, 21), testData({3, 3, 2}, 22), testData({2, 2}, 23)});
}

TEST(AutodiffGradCheck, Attention) {
  // Self-attention (causal) and attention of 2 queries over 3 keys, each
  // weighted by a fixed tensor so that every output element matters.
  gradCheck(R"mlir(
func.func @f(%q: tensor<2x2x3x4xf64>, %k: tensor<2x2x3x4xf64>, %v: tensor<2x2x3x4xf64>, %p: tensor<2x2x2x4xf64>, %r: tensor<2x2x3x4xf64>) -> tensor<f64> {
  %0 = mdl.attention %q, %k, %v {causal = true} : tensor<2x2x3x4xf64>, tensor<2x2x3x4xf64>, tensor<2x2x3x4xf64> -> tensor<2x2x3x4xf64>
  %1 = mdl.attention %p, %k, %v : tensor<2x2x2x4xf64>, tensor<2x2x3x4xf64>, tensor<2x2x3x4xf64> -> tensor<2x2x2x4xf64>
  %2 = mdl.mul %0, %r : tensor<2x2x3x4xf64>, tensor<2x2x3x4xf64> -> tensor<2x2x3x4xf64>
  %3 = mdl.reduce_sum %2 {axes = array<i64: 0, 1, 2, 3>} : tensor<2x2x3x4xf64> -> tensor<f64>
  %4 = mdl.tanh %1 : tensor<2x2x2x4xf64>
  %5 = mdl.reduce_sum %4 {axes = array<i64: 0, 1, 2, 3>} : tensor<2x2x2x4xf64> -> tensor<f64>
  %6 = mdl.add %3, %5 : tensor<f64>, tensor<f64> -> tensor<f64>
  return %6 : tensor<f64>
})mlir",
            {testData({2, 2, 3, 4}, 31), testData({2, 2, 3, 4}, 32),
             testData({2, 2, 3, 4}, 33), testData({2, 2, 2, 4}, 34),
             testData({2, 2, 3, 4}, 35)});
}

TEST(AutodiffGradCheck, ConvolutionAndPooling) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<2x4x7x7xf64>, %w: tensor<4x2x2x3xf64>, %b: tensor<4xf64>) -> tensor<f64> {
  %0 = mdl.conv2d %x, %w, %b {stride = array<i64: 2, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 1>, groups = 2 : i64} : tensor<2x4x7x7xf64>, tensor<4x2x2x3xf64>, tensor<4xf64> -> tensor<2x4x4x7xf64>
  %1 = mdl.max_pool2d %0 {kernel = array<i64: 2, 3>, stride = array<i64: 1, 2>, padding = array<i64: 1, 1>} : tensor<2x4x4x7xf64> -> tensor<2x4x5x4xf64>
  %2 = mdl.avg_pool2d %1 {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x4x5x4xf64> -> tensor<2x4x3x2xf64>
  %3 = mdl.mul %2, %2 : tensor<2x4x3x2xf64>, tensor<2x4x3x2xf64> -> tensor<2x4x3x2xf64>
  %l = mdl.reduce_sum %3 {axes = array<i64: 0, 1, 2, 3>} : tensor<2x4x3x2xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({2, 4, 7, 7}, 9), testData({4, 2, 2, 3}, 10), testData({4}, 11)});
}

TEST(AutodiffGradCheck, SoftmaxAndReductions) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<3x4xf64>) -> tensor<f64> {
  %0 = mdl.softmax %x {axis = 0 : i64} : tensor<3x4xf64>
  %1 = mdl.log_softmax %x : tensor<3x4xf64>
  %2 = mdl.mul %0, %1 : tensor<3x4xf64>, tensor<3x4xf64> -> tensor<3x4xf64>
  %3 = mdl.reduce_max %2 {axes = array<i64: 1>, keepdims = true} : tensor<3x4xf64> -> tensor<3x1xf64>
  %4 = mdl.reduce_mean %x {axes = array<i64: 0>} : tensor<3x4xf64> -> tensor<4xf64>
  %5 = mdl.mul %3, %4 : tensor<3x1xf64>, tensor<4xf64> -> tensor<3x4xf64>
  %6 = mdl.reduce_sum %5 {axes = array<i64: 1>} : tensor<3x4xf64> -> tensor<3xf64>
  %7 = mdl.mul %6, %6 : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
  %l = mdl.reduce_mean %7 {axes = array<i64: 0>} : tensor<3xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({3, 4}, 12, 2.0)});
}

TEST(AutodiffGradCheck, Shapes) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<2x3x4xf64>, %y: tensor<2x2xf64>, %v: tensor<4xf64>) -> tensor<f64> {
  %0 = mdl.flatten %x : tensor<2x3x4xf64> -> tensor<2x12xf64>
  %1 = mdl.reshape %0 {shape = array<i64: 6, 4>} : tensor<2x12xf64> -> tensor<6x4xf64>
  %2 = mdl.transpose %1 {permutation = array<i64: 1, 0>} : tensor<6x4xf64> -> tensor<4x6xf64>
  %3 = mdl.slice %2 {start = array<i64: 1, 0>, size = array<i64: 2, 3>, stride = array<i64: 2, 2>} : tensor<4x6xf64> -> tensor<2x3xf64>
  %4 = mdl.concat %3, %y {axis = 1 : i64} : tensor<2x3xf64>, tensor<2x2xf64> -> tensor<2x5xf64>
  %5 = mdl.broadcast_to %v {shape = array<i64: 5, 4>} : tensor<4xf64> -> tensor<5x4xf64>
  %6 = mdl.matmul %4, %5 : tensor<2x5xf64>, tensor<5x4xf64> -> tensor<2x4xf64>
  %7 = mdl.mul %6, %6 : tensor<2x4xf64>, tensor<2x4xf64> -> tensor<2x4xf64>
  %l = mdl.reduce_sum %7 {axes = array<i64: 0, 1>} : tensor<2x4xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({2, 3, 4}, 13), testData({2, 2}, 14), testData({4}, 15)});
}

TEST(AutodiffGradCheck, NNLayers) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<3x2x2x2xf64>, %g: tensor<2xf64>, %b: tensor<2xf64>, %t: tensor<5x4xf64>, %i: tensor<3x2xi64>, %seed: tensor<i64>, %lg: tensor<2x4xf64>) -> tensor<f64> {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64> -> tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64>
  %rm = mdl.constant dense<[0.1, -0.2]> : tensor<2xf64>
  %rv = mdl.constant dense<[1.5, 0.7]> : tensor<2xf64>
  %e = mdl.batch_norm_eval %y, %g, %b, %rm, %rv : tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64> -> tensor<3x2x2x2xf64>
  %d, %mask = mdl.dropout %e, %seed {rate = 0.3 : f64} : tensor<3x2x2x2xf64>, tensor<i64> -> tensor<3x2x2x2xf64>, tensor<3x2x2x2xi1>
  %f = mdl.reshape %d {shape = array<i64: 3, 2, 4>} : tensor<3x2x2x2xf64> -> tensor<3x2x4xf64>
  %emb = mdl.embedding %i, %t : tensor<3x2xi64>, tensor<5x4xf64> -> tensor<3x2x4xf64>
  %s = mdl.add %f, %emb : tensor<3x2x4xf64>, tensor<3x2x4xf64> -> tensor<3x2x4xf64>
  %ln = mdl.layer_norm %s, %lg, %lg : tensor<3x2x4xf64>, tensor<2x4xf64>, tensor<2x4xf64> -> tensor<3x2x4xf64>
  %w = mdl.mul %ln, %s : tensor<3x2x4xf64>, tensor<3x2x4xf64> -> tensor<3x2x4xf64>
  %l = mdl.reduce_sum %w {axes = array<i64: 0, 1, 2>} : tensor<3x2x4xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({3, 2, 2, 2}, 16), testData({2}, 17, 0.5, 1.0),
             testData({2}, 18), testData({5, 4}, 19),
             [] { Tensor i({3, 2}); i.data = {0, 2, 2, 4, 1, 0}; return i; }(),
             Tensor(std::vector<int64_t>{}, 42.0), testData({2, 4}, 22)});
}

// Synchronised batch norm in one process: its gradient, which weights and
// sums its reductions over the ranks, reduces to the plain one, and so
// matches finite differences; an all_reduce on the loss path is the
// identity too.
TEST(AutodiffGradCheck, SyncBatchNorm) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<3x2x2x2xf64>, %g: tensor<2xf64>, %b: tensor<2xf64>) -> tensor<f64> {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b {sync = true} : tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64> -> tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64>
  %w = mdl.mul %y, %x : tensor<3x2x2x2xf64>, tensor<3x2x2x2xf64> -> tensor<3x2x2x2xf64>
  %s = mdl.reduce_sum %w {axes = array<i64: 0, 1, 2, 3>} : tensor<3x2x2x2xf64> -> tensor<f64>
  %l = mdl.all_reduce %s : tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({3, 2, 2, 2}, 16), testData({2}, 17, 0.5, 1.0),
             testData({2}, 18)});
}

TEST(AutodiffGradCheck, Losses) {
  gradCheck(R"mlir(
func.func @f(%x: tensor<4x3xf64>, %t: tensor<4x3xf64>, %labels: tensor<4xi64>) -> tensor<f64> {
  %0 = mdl.cross_entropy mean %x, %labels : tensor<4x3xf64>, tensor<4xi64> -> tensor<f64>
  %1 = mdl.cross_entropy sum %t, %labels : tensor<4x3xf64>, tensor<4xi64> -> tensor<f64>
  %2 = mdl.mse_loss mean %x, %t : tensor<4x3xf64>, tensor<4x3xf64> -> tensor<f64>
  %3 = mdl.l1_loss sum %x, %t : tensor<4x3xf64>, tensor<4x3xf64> -> tensor<f64>
  %4 = mdl.bce_with_logits mean %x, %t : tensor<4x3xf64>, tensor<4x3xf64> -> tensor<f64>
  %a = mdl.add %0, %1 : tensor<f64>, tensor<f64> -> tensor<f64>
  %b = mdl.mul %2, %3 : tensor<f64>, tensor<f64> -> tensor<f64>
  %c = mdl.add %a, %b : tensor<f64>, tensor<f64> -> tensor<f64>
  %l = mdl.add %c, %4 : tensor<f64>, tensor<f64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
            {testData({4, 3}, 20, 2.0), testData({4, 3}, 21, 0.5, 0.5),
             [] { Tensor l({4}); l.data = {0, 2, 1, 2}; return l; }()});
}

/// Central finite difference of @f's loss with respect to element `i` of
/// parameter `name`.
double paramFD(GradModule &m, const std::map<std::string, Tensor> &params,
               const std::vector<Tensor> &args, const std::string &name,
               int64_t i, std::string &error) {
  const double h = 1e-6;
  double value[2];
  for (int side = 0; side < 2; ++side) {
    std::map<std::string, Tensor> moved = params;
    moved[name].data[i] += side == 0 ? h : -h;
    std::vector<Tensor> out;
    if (!Evaluator(moved).run(m.fn("f"), args, out, error))
      return NAN;
    value[side] = out[0].data[0];
  }
  return (value[0] - value[1]) / (2 * h);
}

/// Differentiates a model whose @f reads `params` (in mdl.parameter order)
/// and requires, for every parameter, max|grad - fd| / max|fd| <= 1e-6.
void modelGradCheck(llvm::StringRef source,
                    const std::vector<std::pair<std::string, Tensor>> &params,
                    const std::vector<Tensor> &args) {
  GradModule m(source);
  ASSERT_TRUE(m.module) << "parse failed";
  ASSERT_TRUE(m.differentiate()) << "mdl-autodiff failed";
  std::map<std::string, Tensor> paramMap(params.begin(), params.end());
  std::vector<Tensor> grads;
  std::string error;
  ASSERT_TRUE(Evaluator(paramMap).run(m.fn("g"), args, grads, error)) << error;
  ASSERT_EQ(grads.size(), params.size() + 1);
  for (auto [k, param] : llvm::enumerate(params)) {
    const Tensor &grad = grads[k + 1];
    ASSERT_EQ(grad.shape, param.second.shape) << param.first;
    double maxDiff = 0, maxFD = 0;
    for (int64_t i = 0; i < grad.numel(); ++i) {
      double fd = paramFD(m, paramMap, args, param.first, i, error);
      ASSERT_TRUE(error.empty()) << error;
      maxDiff = std::max(maxDiff, std::fabs(grad.data[i] - fd));
      maxFD = std::max(maxFD, std::fabs(fd));
    }
    EXPECT_GT(maxFD, 1e-3) << param.first << " has a vanishing gradient";
    EXPECT_LE(maxDiff / maxFD, 1e-6) << "relative error of " << param.first;
  }
}

/// A small version of examples/fashion_mnist/mlp.model (flatten, linear,
/// relu, linear, mean cross-entropy; dropout omitted).
TEST(AutodiffGradCheck, WholeMlp) {
  modelGradCheck(R"mlir(
mdl.parameter @w1 : tensor<16x12xf64> {init = #mdl.init<zeros>}
mdl.parameter @b1 : tensor<12xf64> {init = #mdl.init<zeros>}
mdl.parameter @w2 : tensor<12x10xf64> {init = #mdl.init<zeros>}
mdl.parameter @b2 : tensor<10xf64> {init = #mdl.init<zeros>}
func.func @f(%x: tensor<?x1x4x4xf64>, %labels: tensor<?xi64>) -> tensor<f64> {
  %w1 = mdl.param @w1 : tensor<16x12xf64>
  %b1 = mdl.param @b1 : tensor<12xf64>
  %w2 = mdl.param @w2 : tensor<12x10xf64>
  %b2 = mdl.param @b2 : tensor<10xf64>
  %f = mdl.flatten %x : tensor<?x1x4x4xf64> -> tensor<?x16xf64>
  %0 = mdl.matmul %f, %w1 : tensor<?x16xf64>, tensor<16x12xf64> -> tensor<?x12xf64>
  %1 = mdl.add %0, %b1 : tensor<?x12xf64>, tensor<12xf64> -> tensor<?x12xf64>
  %2 = mdl.relu %1 : tensor<?x12xf64>
  %3 = mdl.matmul %2, %w2 : tensor<?x12xf64>, tensor<12x10xf64> -> tensor<?x10xf64>
  %4 = mdl.add %3, %b2 : tensor<?x10xf64>, tensor<10xf64> -> tensor<?x10xf64>
  %l = mdl.cross_entropy mean %4, %labels : tensor<?x10xf64>, tensor<?xi64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir",
                 {{"w1", testData({16, 12}, 1, 0.3)},
                  {"b1", testData({12}, 2, 0.1)},
                  {"w2", testData({12, 10}, 3, 0.4)},
                  {"b2", testData({10}, 4, 0.1)}},
                 {testData({3, 1, 4, 4}, 0),
                  [] { Tensor l({3}); l.data = {3, 7, 1}; return l; }()});
}

/// The SimpleCNN of examples/fashion_mnist/cnn.model at a small size
/// (GradCheckUtil.h).
TEST(AutodiffGradCheck, WholeSimpleCnn) {
  modelGradCheck(kSimpleCnn, simpleCnnParams(), simpleCnnInputs());
}

} // namespace
