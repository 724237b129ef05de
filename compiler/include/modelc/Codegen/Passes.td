//===- Passes.td - Passes of the executable's glue ---------*- tablegen -*-===//
//
// Declares `modelc-prepare-entry-points`, the step between autodiff and
// lowering that shapes an mdl module into the entry functions the runtime
// calls (compiler/lib/Codegen/EntryPoints.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_CODEGEN_PASSES_TD
#define MODELC_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrepareEntryPointsPass
    : Pass<"modelc-prepare-entry-points", "::mlir::ModuleOp"> {
  let summary = "Shape an mdl module into @train_step, @eval_metrics, "
                "@predict";
  let description = [{
    Runs after `--mdl-autodiff` on a module with @train_step, @eval_metrics
    and @forward_eval: builds @predict as a copy of @forward_eval (its raw
    outputs); when `mdl.config` asks for the accuracy metric, appends to
    @train_step the number of correct predictions, computed from the logits
    and labels of its one `mdl.cross_entropy`; then erases @forward_train,
    @forward_eval and @train_loss. A module that lacks one of the three
    functions or already has @predict, an @eval_metrics that does not take
    (inputs, labels), an @forward_eval with several results, and accuracy
    without integer labels, without (loss sum, correct) results, without
    exactly one cross-entropy or with logits not of rank 2 are errors,
    reported at the module or the function or op concerned.
  }];
  let dependentDialects = ["::mlir::mdl::MDLDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // MODELC_CODEGEN_PASSES_TD
