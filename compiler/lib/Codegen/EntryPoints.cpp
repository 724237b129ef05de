//===- EntryPoints.cpp - Shaping the mdl module into runtime entry points -===//
//
// Implements prepareEntryPoints (see EntryPoints.h): @predict from
// @forward_eval (raw outputs), the correct-prediction count
// appended to @train_step (accuracy is then measured on the training
// forward pass itself, with no second forward), and the removal of the
// functions that only fed autodiff.
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/EntryPoints.h"
#include "modelc/Codegen/ProgramSpec.h"

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

using namespace modelc;

/// Appends `value` to the results of `fn` (single return).
static void appendResult(mlir::func::FuncOp fn, mlir::Value value) {
  auto ret = llvm::cast<mlir::func::ReturnOp>(fn.getBody().back().back());
  llvm::SmallVector<mlir::Value> results(ret.getOperands());
  results.push_back(value);
  mlir::OpBuilder b(ret);
  mlir::func::ReturnOp::create(b, ret.getLoc(), results);
  ret.erase();
  fn.setFunctionType(b.getFunctionType(
      fn.getArgumentTypes(), mlir::ValueRange(results).getTypes()));
}

static llvm::LogicalResult addTrainAccuracy(mlir::func::FuncOp train) {
  mlir::mdl::CrossEntropyOp ce;
  unsigned count = 0;
  train.walk([&](mlir::mdl::CrossEntropyOp op) {
    ce = op;
    ++count;
  });
  if (count != 1)
    return train.emitError("accuracy needs exactly one mdl.cross_entropy in @")
           << train.getSymName() << ", found " << count;
  std::optional<int64_t> ignore;
  if (auto attr = ce.getIgnoreIndexAttr())
    ignore = attr.getInt();
  mlir::OpBuilder b(train.getBody().back().getTerminator());
  appendResult(train, mlir::mdl::buildCorrectCount(
                          b, ce.getLoc(), ce.getLogits(), ce.getLabels(), ignore));
  return llvm::success();
}

/// Clones @forward_eval into @predict. It returns the raw outputs (logits
/// for classifiers): the runtime's `predict` command applies the softmax.
static llvm::LogicalResult buildPredict(mlir::ModuleOp module,
                                        mlir::func::FuncOp forward) {
  if (forward.getNumResults() != 1)
    return forward.emitError("@forward_eval must return one tensor");
  mlir::func::FuncOp predict = forward.clone();
  predict.setSymName(kPredictName);
  module.push_back(predict);
  return llvm::success();
}

llvm::LogicalResult modelc::prepareEntryPoints(mlir::ModuleOp module) {
  auto lookup = [&](llvm::StringRef name) {
    return module.lookupSymbol<mlir::func::FuncOp>(name);
  };
  mlir::func::FuncOp train = lookup(kTrainStepName), eval = lookup(kEvalStepName),
                     forward = lookup("forward_eval");
  if (!train || !eval || !forward)
    return module.emitError("the module needs @train_step (run "
                            "--mdl-autodiff), @eval_metrics and @forward_eval");
  if (lookup(kPredictName))
    return module.emitError("the module already defines @predict");
  if (eval.getNumArguments() != 2)
    return eval.emitError("@eval_metrics must take (inputs, labels)");
  bool classifier = llvm::isa<mlir::IntegerType>(
      llvm::cast<mlir::RankedTensorType>(eval.getArgumentTypes()[1])
          .getElementType());
  if (mlir::mdl::configHasMetric(module, "accuracy")) {
    if (!classifier || eval.getNumResults() != 2)
      return eval.emitError("accuracy needs integer class labels and "
                            "@eval_metrics returning (loss sum, correct)");
    if (failed(addTrainAccuracy(train)))
      return llvm::failure();
  }
  if (failed(buildPredict(module, forward)))
    return llvm::failure();
  for (llvm::StringRef name : {"forward_train", "forward_eval", "train_loss"})
    if (mlir::func::FuncOp fn = lookup(name))
      fn.erase();
  return llvm::success();
}

namespace modelc {
#define GEN_PASS_DEF_PREPAREENTRYPOINTSPASS
#include "modelc/Codegen/Passes.h.inc"
} // namespace modelc

namespace {
/// The pass: prepareEntryPoints on the module.
struct PrepareEntryPointsPass
    : modelc::impl::PrepareEntryPointsPassBase<PrepareEntryPointsPass> {
  using PrepareEntryPointsPassBase::PrepareEntryPointsPassBase;
  void runOnOperation() override {
    if (failed(prepareEntryPoints(getOperation())))
      signalPassFailure();
  }
};
} // namespace
