//===- PoolBeforeReluTest.cpp - mdl-pool-before-relu keeps every bit ------===//
//
// Differentiates f(x, w) = sum(max_pool(relu(x)) * w) as written and after
// --mdl-pool-before-relu, evaluates both losses and gradients with the
// reference evaluator, and requires them equal bit for bit on inputs built
// to tell the two orders apart if they differed: windows whose maximum is
// tied between positive elements, windows with no positive element (all
// negative, zeros, -0), a window whose only positive element is last, and
// padded windows (3x3, stride 2, padding 1). The weights w differ per
// window, so a gradient routed to another element would show.
//
//===----------------------------------------------------------------------===//

#include "GradCheckUtil.h"

#include <cstring>

using namespace modelc::test;

namespace {

const char *kSource = R"mlir(
func.func @f(%x: tensor<1x2x4x4xf64>, %w2: tensor<1x2x2x2xf64>, %w3: tensor<1x2x2x2xf64>) -> tensor<f64> {
  %r = mdl.relu %x : tensor<1x2x4x4xf64>
  %p = mdl.max_pool2d %r {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf64> -> tensor<1x2x2x2xf64>
  %a = mdl.mul %p, %w2 : tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64> -> tensor<1x2x2x2xf64>
  %s = mdl.relu %x : tensor<1x2x4x4xf64>
  %q = mdl.max_pool2d %s {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x2x4x4xf64> -> tensor<1x2x2x2xf64>
  %b = mdl.mul %q, %w3 : tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64> -> tensor<1x2x2x2xf64>
  %c = mdl.add %a, %b : tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64> -> tensor<1x2x2x2xf64>
  %l = mdl.reduce_sum %c {axes = array<i64: 0, 1, 2, 3>} : tensor<1x2x2x2xf64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir";

/// The input planes, row by row. Plane 0's 2x2 windows: a tie of 3s
/// (top left), all negative (top right), zeros with -0 (bottom left), a
/// positive element last (bottom right). Plane 1: ties across the 3x3
/// windows' overlaps, and negatives at the padded border.
Tensor input() {
  Tensor x({1, 2, 4, 4});
  x.data = {3, 1, -1, -2, //
            0.5, 3, -3, -0.5, //
            -0.0, 0, -4, -1, //
            0, -0.0, -2, 0.25, //
            -1, -1, 2, 2, //
            -1, 2, -5, 2, //
            2, -1, -1, -1, //
            -3, -1, -1, -1};
  return x;
}

/// Whether two tensors hold the same bits.
bool sameBits(const Tensor &a, const Tensor &b) {
  return a.shape == b.shape &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(double)) == 0;
}

/// The number of `name` ops in @f.
int count(GradModule &m, llvm::StringRef name) {
  int n = 0;
  m.fn("f").walk([&](mlir::Operation *op) { n += op->getName().getStringRef() == name; });
  return n;
}

/// Runs --mdl-pool-before-relu on \p m's module.
bool runPass(GradModule &m) {
  mlir::PassManager pm(&m.context);
  pm.addPass(modelc::createMDLPoolBeforeRelu());
  return mlir::succeeded(pm.run(*m.module));
}

TEST(PoolBeforeRelu, SameLossAndGradients) {
  GradModule written(kSource), swapped(kSource);
  ASSERT_TRUE(written.module && swapped.module) << "parse failed";
  ASSERT_TRUE(runPass(swapped));
  // Both relus now follow their pooling.
  swapped.fn("f").walk([&](mlir::mdl::ReluOp relu) {
    EXPECT_TRUE(relu.getOperand().getDefiningOp<mlir::mdl::MaxPool2DOp>());
  });
  EXPECT_EQ(count(swapped, "mdl.relu"), 2);
  ASSERT_TRUE(written.differentiate() && swapped.differentiate()) << "mdl-autodiff failed";

  std::vector<Tensor> args = {input(), testData({1, 2, 2, 2}, 1, 1.0, 2.0),
                              testData({1, 2, 2, 2}, 2, 1.0, -2.0)};
  Evaluator eval;
  std::string error;
  std::vector<Tensor> before, after;
  ASSERT_TRUE(eval.run(written.fn("g"), args, before, error)) << error;
  ASSERT_TRUE(eval.run(swapped.fn("g"), args, after, error)) << error;
  ASSERT_EQ(before.size(), 4u);
  ASSERT_EQ(after.size(), 4u);
  for (size_t i = 0; i < before.size(); ++i)
    EXPECT_TRUE(sameBits(before[i], after[i])) << "result " << i << " differs";
  // The input's gradient is nonzero exactly where a positive maximum was
  // picked, and zero in the windows with no positive element.
  const Tensor &dx = after[1];
  EXPECT_NE(dx.data[0], 0.0);  // the first of the tied 3s
  EXPECT_EQ(dx.data[1], 0.0);  // in both of its windows, below a 3
  EXPECT_EQ(dx.data[2], 0.0);  // an all-negative 2x2 window
  EXPECT_EQ(dx.data[8], 0.0);  // the window of zeros
  EXPECT_NE(dx.data[15], 0.0); // the positive element last in its window
}

TEST(PoolBeforeRelu, LeavesOtherPatterns) {
  GradModule m(R"mlir(
func.func @f(%x: tensor<1x1x4x4xf64>) -> (tensor<1x1x2x2xf64>, tensor<1x1x4x4xf64>, tensor<1x1x2x2xf64>) {
  %r = mdl.relu %x : tensor<1x1x4x4xf64>
  %p = mdl.max_pool2d %r {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x1x4x4xf64> -> tensor<1x1x2x2xf64>
  %t = mdl.tanh %x : tensor<1x1x4x4xf64>
  %a = mdl.avg_pool2d %t {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<1x1x4x4xf64> -> tensor<1x1x2x2xf64>
  return %p, %r, %a : tensor<1x1x2x2xf64>, tensor<1x1x4x4xf64>, tensor<1x1x2x2xf64>
}
)mlir");
  ASSERT_TRUE(m.module);
  ASSERT_TRUE(runPass(m));
  // The relu has another user: it stays before the pooling.
  m.fn("f").walk([&](mlir::mdl::MaxPool2DOp pool) {
    EXPECT_TRUE(pool.getInput().getDefiningOp<mlir::mdl::ReluOp>());
  });
  EXPECT_EQ(count(m, "mdl.relu"), 1);
}

} // namespace
