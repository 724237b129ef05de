//===- EmitCInterface.cpp - Entry points with C-interface wrappers --------===//
//
// Implements `modelc-emit-c-interface`: every public func.func with a body
// gets `llvm.emit_c_interface`, so that func-to-llvm also emits its
// `_mlir_ciface_<name>` wrapper (one descriptor pointer per memref), the
// convention the runtime's adapters call. Private functions (kernels,
// parts) and declarations are left unmarked.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_EMITCINTERFACEPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// The pass: see the file comment.
struct EmitCInterfacePass
    : impl::EmitCInterfacePassBase<EmitCInterfacePass> {
  using EmitCInterfacePassBase::EmitCInterfacePassBase;

  void runOnOperation() final {
    auto unit = UnitAttr::get(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
  }
};

} // namespace
} // namespace modelc
