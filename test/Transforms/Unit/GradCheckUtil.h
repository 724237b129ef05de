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

} // namespace modelc::test

#endif // MODELC_TEST_TRANSFORMS_GRADCHECKUTIL_H
