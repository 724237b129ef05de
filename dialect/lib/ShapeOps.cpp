//===- ShapeOps.cpp - reshape, flatten, transpose, broadcast, concat, slice ===//
//
// Result-type inference and folders of the shape ops.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::mdl;

static bool isDyn(int64_t size) { return ShapedType::isDynamic(size); }

/// Product of static sizes.
static int64_t product(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

/// Checks the target shape attribute of reshape against its input.
static LogicalResult checkReshape(std::optional<Location> loc, StringRef name,
                                  RankedTensorType input,
                                  ArrayRef<int64_t> target) {
  for (auto [i, size] : llvm::enumerate(target))
    if (size < 0 && !(i == 0 && size == -1))
      return emitInferError(loc, name, "target size ", size, " at dimension ", i,
                         " is invalid (only dimension 0 may be -1)");
  ArrayRef<int64_t> in = input.getShape();
  for (size_t i = 1; i < in.size(); ++i)
    if (isDyn(in[i]))
      return emitInferError(loc, name, "input may only be dynamic in dimension 0");
  bool inDyn = !in.empty() && isDyn(in[0]);
  bool outDyn = !target.empty() && target[0] == -1;
  if (inDyn != outDyn)
    return emitInferError(loc, name, "target dimension 0 must be -1 exactly when "
                                  "the input's dimension 0 is dynamic");
  int64_t inCount = inDyn ? product(in.drop_front()) : product(in);
  int64_t outCount = outDyn ? product(target.drop_front()) : product(target);
  SmallVector<int64_t> shown(target);
  if (outDyn)
    shown[0] = ShapedType::kDynamic;
  if (inCount != outCount)
    return emitInferError(loc, name, "cannot reshape ", formatShape(in), " to ",
                       formatShape(shown), ": ",
                       inCount, " vs ", outCount, " elements",
                       inDyn ? " per batch entry" : "");
  return success();
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  auto input = getTensorType(adaptor.getInput());
  if (!input)
    return emitInferError(loc, getOperationName(), "input must be a ranked tensor");
  SmallVector<int64_t> target(adaptor.getShape());
  if (failed(checkReshape(loc, getOperationName(), input, target)))
    return failure();
  if (!target.empty() && target[0] == -1)
    target[0] = ShapedType::kDynamic;
  types.push_back(RankedTensorType::get(target, input.getElementType()));
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // reshape(reshape(x)) == reshape(x): row-major order is unchanged.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// flatten
//===----------------------------------------------------------------------===//

LogicalResult FlattenOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  if (!input || input.getRank() == 0)
    return emitInferError(loc, name, "input must be a tensor of rank >= 1");
  int64_t rank = input.getRank();
  auto start = normalizeAxis(adaptor.getStartDim(), rank);
  auto end = normalizeAxis(adaptor.getEndDim(), rank);
  if (!start || !end || *start > *end)
    return emitInferError(loc, name, "invalid dimension range [",
                       static_cast<int64_t>(adaptor.getStartDim()), ", ",
                       static_cast<int64_t>(adaptor.getEndDim()),
                       "] for a tensor of rank ", rank);
  ArrayRef<int64_t> in = input.getShape();
  SmallVector<int64_t> shape(in.take_front(*start));
  ArrayRef<int64_t> merged = in.slice(*start, *end - *start + 1);
  shape.push_back(llvm::any_of(merged, isDyn) ? ShapedType::kDynamic
                                               : product(merged));
  llvm::append_range(shape, in.drop_front(*end + 1));
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult FlattenOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  if (!input)
    return emitInferError(loc, name, "input must be a ranked tensor");
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  int64_t rank = input.getRank();
  if ((int64_t)perm.size() != rank)
    return emitInferError(loc, name, "permutation has ", perm.size(),
                       " entries, expected ", rank);
  llvm::SmallBitVector seen(rank);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen.test(p))
      return emitInferError(loc, name, "permutation is not a permutation of 0..",
                         rank - 1);
    seen.set(p);
    shape.push_back(input.getDimSize(p));
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return getInput();
  auto inner = getInput().getDefiningOp<TransposeOp>();
  if (!inner)
    return {};
  // transpose(transpose(x, p), q) = transpose(x, r) with r[i] = p[q[i]].
  SmallVector<int64_t> composed;
  for (int64_t q : perm)
    composed.push_back(inner.getPermutation()[q]);
  if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())))
    return inner.getInput();
  setPermutation(composed);
  getInputMutable().assign(inner.getInput());
  return getResult();
}

//===----------------------------------------------------------------------===//
// broadcast_to
//===----------------------------------------------------------------------===//

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  if (!input)
    return emitInferError(loc, name, "input must be a ranked tensor");
  std::optional<ArrayRef<int64_t>> attr = adaptor.getShape();
  if (bool(attr) == bool(adaptor.getLike()))
    return emitInferError(loc, name,
                       "needs exactly one of the 'shape' attribute and the "
                       "'like' operand");
  SmallVector<int64_t> target;
  if (attr) {
    target.assign(attr->begin(), attr->end());
    if (llvm::any_of(target, [](int64_t s) { return s < 0; }))
      return emitInferError(loc, name, "'shape' must be fully static; use "
                                    "'like' to broadcast to a dynamic shape");
  } else {
    auto like = getTensorType(adaptor.getLike());
    if (!like)
      return emitInferError(loc, name, "'like' must be a ranked tensor");
    target.assign(like.getShape().begin(), like.getShape().end());
  }
  if (!isBroadcastableTo(input.getShape(), target))
    return emitInferError(loc, name, "cannot broadcast ",
                       formatShape(input.getShape()), " to ",
                       formatShape(target));
  types.push_back(RankedTensorType::get(target, input.getElementType()));
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  auto type = llvm::cast<RankedTensorType>(getType());
  if (type.hasStaticShape() && getInput().getType() == type)
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

/// Adds `size` to the running concatenated size `total` (dynamic absorbs).
static void accumulate(int64_t &total, int64_t size) {
  total = isDyn(total) || isDyn(size) ? ShapedType::kDynamic : total + size;
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  if (adaptor.getInputs().empty())
    return emitInferError(loc, name, "needs at least one input");
  auto first = getTensorType(adaptor.getInputs().front());
  if (!first)
    return emitInferError(loc, name, "inputs must be ranked tensors");
  auto axis = normalizeAxis(adaptor.getAxis(), first.getRank());
  if (!axis)
    return emitInferError(loc, name, "axis ",
                       static_cast<int64_t>(adaptor.getAxis()),
                       " is out of range for a tensor of rank ",
                       first.getRank());
  SmallVector<int64_t> shape(first.getShape());
  shape[*axis] = 0;
  for (auto [index, value] : llvm::enumerate(adaptor.getInputs())) {
    auto type = getTensorType(value);
    if (!type || type.getRank() != first.getRank() ||
        type.getElementType() != first.getElementType())
      return emitInferError(loc, name, "input #", index,
                         " must have the rank and element type of input #0");
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t a = first.getDimSize(d), b = type.getDimSize(d);
      if (d != *axis && a != b)
        return emitInferError(loc, name, "input #", index, " has size ",
                           formatShape(b), " in dimension ", d,
                           ", input #0 has ", formatShape(a));
    }
    accumulate(shape[*axis], type.getDimSize(*axis));
  }
  types.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

/// The result size of one sliced dimension, or an error.
static FailureOr<int64_t> sliceDim(std::optional<Location> loc, StringRef name,
                                   int64_t d, int64_t dim, int64_t start,
                                   int64_t size, int64_t stride) {
  if (isDyn(dim) && size == -1) {
    if (start != 0 || stride != 1)
      return emitInferError(loc, name, "size -1 on dynamic dimension ", d,
                         " needs start 0 and stride 1");
    return ShapedType::kDynamic;
  }
  if (start < 0 || size < 0 || stride < 1)
    return emitInferError(loc, name, "dimension ", d, ": need start >= 0, size "
                       ">= 0 and stride >= 1, got start ", start, ", size ",
                       size, ", stride ", stride);
  if (!isDyn(dim) && size > 0 && start + (size - 1) * stride >= dim)
    return emitInferError(loc, name, "dimension ", d, ": the slice reaches index ",
                       start + (size - 1) * stride, " but the size is ", dim);
  return size;
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  if (!input)
    return emitInferError(loc, name, "input must be a ranked tensor");
  ArrayRef<int64_t> start = adaptor.getStart(), size = adaptor.getSize(),
                    stride = adaptor.getStride();
  size_t rank = input.getRank();
  if (start.size() != rank || size.size() != rank || stride.size() != rank)
    return emitInferError(loc, name, "start, size and stride must have ", rank,
                       " entries each (one per dimension)");
  SmallVector<int64_t> shape;
  for (size_t d = 0; d < rank; ++d) {
    FailureOr<int64_t> out = sliceDim(loc, name, d, input.getDimSize(d),
                                      start[d], size[d], stride[d]);
    if (failed(out))
      return failure();
    shape.push_back(*out);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult PositionRowOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  auto table = getTensorType(adaptor.getTable());
  if (!table || table.getRank() != 2)
    return emitInferError(loc, getOperationName(),
                          "table must be a 2-D tensor [rows, width], got ",
                          adaptor.getTable().getType());
  types.push_back(RankedTensorType::get({1, table.getDimSize(1)},
                                        table.getElementType()));
  return success();
}
