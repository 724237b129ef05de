//===- CopyRepeatedResults.cpp - One buffer per function result -----------===//
//
// Implements `modelc-copy-repeated-results`, run in the bufferization stage
// before `buffer-results-to-out-params`. That pass turns each memref result
// into a caller-allocated out-param and, for a result that is an allocation
// of the function, replaces the allocation by the out-param: a memref
// returned in two positions would be replaced twice. Each repeat of a memref
// among a func.return's operands is therefore returned as a fresh buffer of
// the same type that holds a copy of it.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_COPYREPEATEDRESULTSPASS
#include "modelc/Transforms/Linalg/Passes.h.inc"

namespace {

/// A fresh buffer of \p source's type, its dynamic sizes read from
/// \p source, holding a copy of it.
Value copyOf(OpBuilder &b, Location loc, Value source) {
  auto type = cast<MemRefType>(source.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(memref::DimOp::create(b, loc, source, d));
  auto fresh =
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  Value copy = memref::AllocOp::create(b, loc, fresh, sizes);
  memref::CopyOp::create(b, loc, source, copy);
  if (fresh == type)
    return copy;
  return memref::CastOp::create(b, loc, type, copy);
}

/// Replaces each repeated memref operand of \p op by a copy.
void copyRepeats(func::ReturnOp op) {
  llvm::SmallPtrSet<Value, 8> seen;
  OpBuilder b(op);
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    if (isa<MemRefType>(v.getType()) && !seen.insert(v).second)
      operand.set(copyOf(b, op.getLoc(), v));
  }
}

struct CopyRepeatedResultsPass
    : impl::CopyRepeatedResultsPassBase<CopyRepeatedResultsPass> {
  using CopyRepeatedResultsPassBase::CopyRepeatedResultsPassBase;

  void runOnOperation() final {
    getOperation()->walk([](func::ReturnOp op) { copyRepeats(op); });
  }
};

} // namespace

} // namespace modelc
