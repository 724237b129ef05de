//===- EntryPoints.h - The mdl functions the runtime calls -------*- C++ -*-===//
//
// Declares the step between autodiff and lowering that shapes the mdl
// module into exactly the three entry functions the runtime adapters call:
//   @train_step(%x, %labels, %seed) -> (loss, grads...[, correct])
//   @eval_metrics(%x, %labels) -> (loss sum[, correct])
//   @predict(%x) -> outputs   (logits for classifiers: the runtime's
//                             predict command applies the softmax)
// and drops the functions nothing calls any more.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_CODEGEN_ENTRYPOINTS_H
#define MODELC_CODEGEN_ENTRYPOINTS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace modelc {

/// Prepares the entry functions of an mdl module after `--mdl-autodiff`:
/// builds @predict from @forward_eval, appends the number of
/// correct predictions to @train_step when `mdl.config` asks for accuracy
/// (from the logits and labels of its `mdl.cross_entropy`), and erases
/// @forward_train, @forward_eval and @train_loss. Errors are emitted at the
/// module or the op concerned.
llvm::LogicalResult prepareEntryPoints(mlir::ModuleOp module);

/// The same as a pass, `modelc-prepare-entry-points`.
std::unique_ptr<mlir::Pass> createPrepareEntryPointsPass();

} // namespace modelc

#endif // MODELC_CODEGEN_ENTRYPOINTS_H
