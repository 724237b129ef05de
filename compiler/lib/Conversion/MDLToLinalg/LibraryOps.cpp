//===- LibraryOps.cpp - When convolutions and pooling become library ops --===//
//
// Implements libraryConvApplies, libraryPoolApplies, libraryDestination
// and copyPrecision (LibraryOps.h).
//
//===----------------------------------------------------------------------===//
#include "LibraryOps.h"

using namespace mlir;

namespace {

/// A rank-4 f32 tensor whose sizes are static but perhaps the first.
bool staticBeyondBatch(RankedTensorType t) {
  return t.getRank() == 4 && t.getElementType().isF32() &&
         llvm::none_of(t.getShape().drop_front(), ShapedType::isDynamic);
}

} // namespace

bool modelc::lowering::libraryConvApplies(RankedTensorType input,
                                          RankedTensorType weight,
                                          RankedTensorType output,
                                          int64_t groups) {
  return groups == 1 && staticBeyondBatch(input) &&
         staticBeyondBatch(output) && staticBeyondBatch(weight) &&
         !weight.isDynamicDim(0);
}

bool modelc::lowering::libraryPoolApplies(RankedTensorType input,
                                          RankedTensorType output) {
  return staticBeyondBatch(input) && staticBeyondBatch(output);
}

void modelc::lowering::copyPrecision(Operation *from, Value libResult) {
  if (Attribute precision = from->getAttr("mdl.precision"))
    libResult.getDefiningOp()->setAttr("mdl.precision", precision);
}

Value modelc::lowering::libraryDestination(OpBuilder &b, Location loc,
                                           RankedTensorType type,
                                           Value batchOf) {
  SmallVector<Value> sizes;
  if (batchOf)
    sizes = dynamicSizesFrom(b, loc, type, batchOf);
  return emptyTensor(b, loc, type, sizes);
}
