//===- Autodiff.cpp - The --mdl-autodiff pass -----------------------------===//
//
// Runs buildGradientFunction (GradientFunction.cpp) on the module with the
// pass options, then canonicalises and CSEs the new function so that
// adjoints nobody needs disappear and shared subexpressions are merged.
//
//===----------------------------------------------------------------------===//

#include "modelc/Transforms/Autodiff.h"
#include "modelc/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace modelc {
#define GEN_PASS_DEF_MDLAUTODIFF
#include "modelc/Transforms/Passes.h.inc"
} // namespace modelc

using namespace mlir;
using namespace modelc;

namespace {
struct MDLAutodiffPass
    : public modelc::impl::MDLAutodiffBase<MDLAutodiffPass> {
  using MDLAutodiffBase::MDLAutodiffBase;

  void runOnOperation() override {
    FailureOr<mlir::func::FuncOp> gradFn =
        buildGradientFunction(getOperation(), func, result, warnUnreached);
    if (failed(gradFn))
      return signalPassFailure();
    OpPassManager cleanup(mlir::func::FuncOp::getOperationName());
    cleanup.addPass(createCanonicalizerPass());
    cleanup.addPass(createCSEPass());
    if (failed(runPipeline(cleanup, *gradFn)))
      signalPassFailure();
  }
};
} // namespace
