//===- PrefixSymbols.cpp - GPU entry points beside the CPU ones -----------===//
//
// Implements `modelc-prefix-symbols`: the name of every public function
// with a body gets `prefix` in front (`train_step` -> `gpu_train_step`),
// and every use of it follows, so that the GPU versions of the entry points
// link into the executable beside the CPU ones. Private functions and
// declarations (runtime functions) keep their names. A new name that
// another symbol of the module already has is an error, as is a use the
// symbol table cannot update.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_PREFIXSYMBOLSPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// The pass: see the file comment.
struct PrefixSymbolsPass : impl::PrefixSymbolsPassBase<PrefixSymbolsPass> {
  using PrefixSymbolsPassBase::PrefixSymbolsPassBase;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    SymbolTable table(module);
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        funcs.push_back(func);
    for (func::FuncOp func : funcs) {
      auto name = StringAttr::get(&getContext(), prefix + func.getSymName());
      if (table.lookup(name)) {
        func.emitError("cannot rename to '")
            << name.getValue() << "': the module already has that symbol";
        return signalPassFailure();
      }
      if (failed(table.rename(func, name))) {
        func.emitError("cannot rename to '") << name.getValue() << "'";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace modelc
