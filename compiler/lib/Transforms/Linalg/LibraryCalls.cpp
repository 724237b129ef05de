//===- LibraryCalls.cpp - Calls of library functions on memrefs -----------===//
//
// Implements LibraryCalls.h.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Linalg/LibraryCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

Value modelc::elementPointer(OpBuilder &b, Location loc, Value memref) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  int64_t bytes =
      cast<MemRefType>(memref.getType()).getElementTypeBitWidth() / 8;
  Value size = arith::ConstantIndexOp::create(b, loc, bytes);
  Value byteOffset = arith::MulIOp::create(b, loc, meta.getOffset(), size);
  Value address = arith::AddIOp::create(b, loc, aligned, byteOffset);
  Value address64 =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), address64);
}

LogicalResult modelc::declareLibraryFunction(ModuleOp module, StringRef callee,
                                             FunctionType type,
                                             StringRef whose) {
  Operation *existing = module.lookupSymbol(callee);
  if (!existing) {
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    func::FuncOp::create(b, module.getLoc(), callee, type).setPrivate();
    return success();
  }
  auto fn = dyn_cast<func::FuncOp>(existing);
  if (fn && fn.getFunctionType() == type)
    return success();
  return module.emitError() << "symbol '" << callee
                            << "' already exists with a signature other than "
                            << whose;
}
