//===- EntryPoints.h - The mdl functions the runtime calls -------*- C++ -*-===//
//
// Declares the step between autodiff and lowering that shapes the mdl
// module into exactly the three entry functions the runtime adapters call:
//   @train_step(%x, %labels, %seed) -> (loss, grads...[, correct])
//   @eval_metrics(%x, %labels) -> (loss sum[, correct])
//   @predict(%x) -> outputs   (logits for classifiers: the runtime's
//                             predict command applies the softmax)
// and drops the functions nothing calls any more; also as the pass
// `modelc-prepare-entry-points`, declared in Passes.td.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_CODEGEN_ENTRYPOINTS_H
#define MODELC_CODEGEN_ENTRYPOINTS_H

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

// The same as a pass, `modelc-prepare-entry-points` (Passes.td):
// createPrepareEntryPointsPass() and registerModelcCodegenPasses().
#define GEN_PASS_DECL
#include "modelc/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "modelc/Codegen/Passes.h.inc"

} // namespace modelc

#endif // MODELC_CODEGEN_ENTRYPOINTS_H
