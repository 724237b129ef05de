//===- GradCheckUtil.h - Differentiate IR and evaluate it in tests -*- C++ -*-===//
//
// Parses a module, runs --mdl-autodiff on it and evaluates the loss and
// gradient functions with the reference evaluator. Shared by the
// finite-difference and PyTorch tests.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TEST_TRANSFORMS_GRADCHECKUTIL_H
#define MODELC_TEST_TRANSFORMS_GRADCHECKUTIL_H

#include "Evaluator.h"

#include "modelc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

namespace modelc::test {

/// A parsed module with `@f` (the loss) and, after differentiate(), `@g`.
struct GradModule {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;

  explicit GradModule(llvm::StringRef source) {
    context.loadDialect<mlir::mdl::MDLDialect, mlir::func::FuncDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  }
  /// Runs `mdl-autodiff{func=f result=g}`.
  bool differentiate() {
    if (!module)
      return false;
    mlir::PassManager pm(&context);
    MDLAutodiffOptions options;
    options.func = "f";
    options.result = "g";
    pm.addPass(createMDLAutodiff(options));
    return mlir::succeeded(pm.run(*module));
  }
  mlir::func::FuncOp fn(llvm::StringRef name) {
    return module->lookupSymbol<mlir::func::FuncOp>(name);
  }
};

/// Deterministic test data: element i of tensor `k` is
/// `scale * sin(1.7 * i + 0.9 * k + 0.3) + offset`.
inline Tensor testData(std::vector<int64_t> shape, int k, double scale = 1.0,
                       double offset = 0.0) {
  Tensor t(std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i)
    t.data[i] = scale * std::sin(1.7 * i + 0.9 * k + 0.3) + offset;
  return t;
}

/// The SimpleCNN of examples/fashion_mnist/cnn.model at a small size in
/// float64 (dropout omitted): 1x8x8 input, conv 1->4 k3 p1, relu,
/// max_pool 2, conv 4->8 k3 p1, relu, max_pool 2, flatten, linear 32->10,
/// mean cross-entropy. Shared by the finite-difference and PyTorch tests.
inline constexpr const char *kSimpleCnn = R"mlir(
mdl.parameter @c1w : tensor<4x1x3x3xf64> {init = #mdl.init<zeros>}
mdl.parameter @c1b : tensor<4xf64> {init = #mdl.init<zeros>}
mdl.parameter @c2w : tensor<8x4x3x3xf64> {init = #mdl.init<zeros>}
mdl.parameter @c2b : tensor<8xf64> {init = #mdl.init<zeros>}
mdl.parameter @fw : tensor<32x10xf64> {init = #mdl.init<zeros>}
mdl.parameter @fb : tensor<10xf64> {init = #mdl.init<zeros>}
func.func @f(%x: tensor<?x1x8x8xf64>, %labels: tensor<?xi64>) -> tensor<f64> {
  %c1w = mdl.param @c1w : tensor<4x1x3x3xf64>
  %c1b = mdl.param @c1b : tensor<4xf64>
  %c2w = mdl.param @c2w : tensor<8x4x3x3xf64>
  %c2b = mdl.param @c2b : tensor<8xf64>
  %fw = mdl.param @fw : tensor<32x10xf64>
  %fb = mdl.param @fb : tensor<10xf64>
  %0 = mdl.conv2d %x, %c1w, %c1b {padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : tensor<?x1x8x8xf64>, tensor<4x1x3x3xf64>, tensor<4xf64> -> tensor<?x4x8x8xf64>
  %1 = mdl.relu %0 : tensor<?x4x8x8xf64>
  %2 = mdl.max_pool2d %1 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x4x8x8xf64> -> tensor<?x4x4x4xf64>
  %3 = mdl.conv2d %2, %c2w, %c2b {padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : tensor<?x4x4x4xf64>, tensor<8x4x3x3xf64>, tensor<8xf64> -> tensor<?x8x4x4xf64>
  %4 = mdl.relu %3 : tensor<?x8x4x4xf64>
  %5 = mdl.max_pool2d %4 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x4x4xf64> -> tensor<?x8x2x2xf64>
  %6 = mdl.flatten %5 : tensor<?x8x2x2xf64> -> tensor<?x32xf64>
  %7 = mdl.matmul %6, %fw : tensor<?x32xf64>, tensor<32x10xf64> -> tensor<?x10xf64>
  %8 = mdl.add %7, %fb : tensor<?x10xf64>, tensor<10xf64> -> tensor<?x10xf64>
  %l = mdl.cross_entropy mean %8, %labels : tensor<?x10xf64>, tensor<?xi64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir";

/// kSimpleCnn's parameters in declaration order: parameter number k (from
/// 1) is testData(shape, k, scale); cnn_reference.py uses the same formula.
inline std::vector<std::pair<std::string, Tensor>> simpleCnnParams() {
  return {{"c1w", testData({4, 1, 3, 3}, 1, 0.5)},
          {"c1b", testData({4}, 2, 0.1)},
          {"c2w", testData({8, 4, 3, 3}, 3, 0.3)},
          {"c2b", testData({8}, 4, 0.1)},
          {"fw", testData({32, 10}, 5, 0.4)},
          {"fb", testData({10}, 6, 0.1)}};
}

/// kSimpleCnn's input (testData number 0, batch 2) and labels [3, 8].
inline std::vector<Tensor> simpleCnnInputs() {
  Tensor labels({2});
  labels.data = {3, 8};
  return {testData({2, 1, 8, 8}, 0), labels};
}

} // namespace modelc::test

#endif // MODELC_TEST_TRANSFORMS_GRADCHECKUTIL_H
