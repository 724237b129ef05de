//===- Common.cpp - Helpers shared by the mdl -> linalg patterns ----------===//
//
// Implements the builders declared in Common.h: empty/filled tensors with
// dynamic sizes, broadcasting generics with run-time size checks, and
// reductions over a set of dimensions (log-sum-exp's included).
//
//===----------------------------------------------------------------------===//
#include "Common.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;

namespace modelc::lowering {

Type elementTypeOf(Value tensor) {
  return cast<RankedTensorType>(tensor.getType()).getElementType();
}

Value scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

SmallVector<Value> dynamicSizesFrom(OpBuilder &b, Location loc,
                                    RankedTensorType type, Value like) {
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, like, d));
  return sizes;
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange dynamicSizes) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType(), dynamicSizes);
}

Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   ValueRange dynamicSizes, Value value) {
  Value empty = emptyTensor(b, loc, type, dynamicSizes);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

SmallVector<utils::IteratorType> parallelIterators(unsigned count) {
  return SmallVector<utils::IteratorType>(count, utils::IteratorType::parallel);
}

Value lowestValue(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(floatType, APFloat::getInf(floatType.getFloatSemantics(),
                                                  /*Negative=*/true)));
  unsigned width = type.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, APInt::getSignedMinValue(width)));
}

Value addFloats(OpBuilder &b, Location loc, ValueRange args) {
  return arith::AddFOp::create(b, loc, args[0], args[1]);
}

LogSumExpParts logSumExpParts(OpBuilder &b, Location loc, Value x,
                              ArrayRef<bool> reduced) {
  Type elem = elementTypeOf(x);
  Value max = reduceDims(b, loc, x, reduced, lowestValue(b, loc, elem),
                         [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                           return arith::MaximumFOp::create(nb, l, a[0], a[1]);
                         });
  // combine(x, max, acc) = exp(x - max) + acc.
  Value sum = reduceDimsWith(
      b, loc, x, {max}, reduced, scalarConstant(b, loc, elem, 0),
      [](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value shifted = arith::SubFOp::create(nb, l, a[0], a[1]);
        Value e = math::ExpOp::create(nb, l, shifted);
        return arith::AddFOp::create(nb, l, e, a[2]);
      },
      addFloats);
  return {max, sum};
}

/// Checks at run time that dynamic dimension `dim` of `input` equals
/// `expected` (a static size or another dynamic dimension).
static void assertSize(OpBuilder &b, Location loc, Value size, Value expected) {
  Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                      expected);
  cf::AssertOp::create(
      b, loc, equal,
      "mdl lowering: broadcast operand sizes do not match at run time");
}

/// The dynamic sizes of a broadcast result and the run-time checks that the
/// inputs agree with them.
static SmallVector<Value> broadcastSizes(OpBuilder &b, Location loc,
                                         RankedTensorType resultType,
                                         ValueRange inputs) {
  int64_t rank = resultType.getRank();
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    Value size;
    if (!resultType.isDynamicDim(d))
      size = arith::ConstantIndexOp::create(b, loc, resultType.getDimSize(d));
    for (Value input : inputs) {
      auto type = cast<RankedTensorType>(input.getType());
      int64_t j = d - (rank - type.getRank());
      if (j < 0 || !type.isDynamicDim(j))
        continue;
      Value dim = tensor::DimOp::create(b, loc, input, j);
      if (size)
        assertSize(b, loc, dim, size);
      else
        size = dim;
    }
    if (resultType.isDynamicDim(d))
      sizes.push_back(size);
  }
  return sizes;
}

Value broadcastGeneric(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, BodyFn body) {
  int64_t rank = resultType.getRank();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<AffineExpr> exprs;
    for (int64_t j = 0; j < type.getRank(); ++j) {
      int64_t d = j + rank - type.getRank();
      bool stretched = type.getDimSize(j) == 1 && resultType.getDimSize(d) != 1;
      exprs.push_back(stretched ? getAffineConstantExpr(0, ctx)
                                : getAffineDimExpr(d, ctx));
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value init =
      emptyTensor(b, loc, resultType, broadcastSizes(b, loc, resultType, inputs));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
      parallelIterators(rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
      });
  return generic.getResult(0);
}

/// One reduction generic of `input` over the dimensions where `reduced` is
/// true; `aux` tensors are read through the dimensions where `auxDims` is
/// true (the kept dimensions of the whole, possibly staged, reduction).
static Value reduceOnce(OpBuilder &b, Location loc, Value input, ValueRange aux,
                        ArrayRef<bool> reduced, ArrayRef<bool> auxDims,
                        Value init, BodyFn combine) {
  auto type = cast<RankedTensorType>(input.getType());
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape;
  SmallVector<Value> dynSizes;
  SmallVector<AffineExpr> outExprs, auxExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    iterators.push_back(reduced[d] ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
    if (auxDims[d])
      auxExprs.push_back(getAffineDimExpr(d, ctx));
    if (reduced[d])
      continue;
    shape.push_back(type.getDimSize(d));
    outExprs.push_back(getAffineDimExpr(d, ctx));
    if (type.isDynamicDim(d))
      dynSizes.push_back(tensor::DimOp::create(b, loc, input, d));
  }
  auto resultType = RankedTensorType::get(shape, init.getType());
  Value acc = filledTensor(b, loc, resultType, dynSizes, init);
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  AffineMap auxMap = AffineMap::get(rank, 0, auxExprs, ctx);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<Value> inputs = {input};
  for (Value a : aux) {
    maps.push_back(auxMap);
    inputs.push_back(a);
  }
  maps.push_back(outMap);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{acc}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, combine(nb, nloc, args));
      });
  return generic.getResult(0);
}

/// The largest divisor of `n` in [kMinSplit, kReductionBlock], or 0.
static int64_t blockDivisor(int64_t n) {
  constexpr int64_t kMinSplit = 64;
  for (int64_t k = std::min(n - 1, kReductionBlock); k >= kMinSplit; --k)
    if (n % k == 0)
      return k;
  return 0;
}

/// When the innermost reduced dimension of `input` alone is longer than
/// kReductionBlock (static, with a divisor in range), reshapes it into
/// [n / k, k], both reduced, and updates `reduced` to match.
static Value splitLongDim(OpBuilder &b, Location loc, Value input,
                          SmallVector<bool> &reduced) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t last = -1;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (reduced[d])
      last = d;
  if (last < 0 || type.isDynamicDim(last) ||
      type.getDimSize(last) <= kReductionBlock)
    return input;
  int64_t n = type.getDimSize(last), k = blockDivisor(n);
  if (k == 0)
    return input;
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t at = static_cast<int64_t>(shape.size());
    if (d == last) {
      groups.push_back({at, at + 1});
      shape.append({n / k, k});
    } else {
      groups.push_back({at});
      shape.push_back(type.getDimSize(d));
    }
  }
  reduced.insert(reduced.begin() + last, true);
  auto expanded = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, expanded, input, groups);
}

/// The innermost reduced dimensions whose static sizes multiply to at most
/// kReductionBlock (at least one; a dynamic one ends the block).
static SmallVector<bool> innerBlock(RankedTensorType type,
                                    ArrayRef<bool> reduced) {
  SmallVector<bool> block(reduced.size(), false);
  int64_t product = 1;
  bool any = false;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (!reduced[d])
      continue;
    bool dynamic = type.isDynamicDim(d);
    if (any && (dynamic || product * type.getDimSize(d) > kReductionBlock))
      break;
    block[d] = any = true;
    if (dynamic)
      break;
    product *= type.getDimSize(d);
  }
  return block;
}

/// Reduces in blocks: `combine` over the innermost block of reduced
/// dimensions gives partial results that keep the other reduced dimensions,
/// which `merge` then reduces the same way. Without `merge`, one generic.
static Value reduceStaged(OpBuilder &b, Location loc, Value input,
                          ValueRange aux, ArrayRef<bool> reducedIn, Value init,
                          BodyFn combine, BodyFn merge) {
  SmallVector<bool> reduced(reducedIn);
  SmallVector<bool> kept = llvm::to_vector(
      llvm::map_range(reduced, [](bool r) { return !r; }));
  if (!merge)
    return reduceOnce(b, loc, input, aux, reduced, kept, init, combine);
  input = splitLongDim(b, loc, input, reduced);
  kept = llvm::to_vector(llvm::map_range(reduced, [](bool r) { return !r; }));
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<bool> block = innerBlock(type, reduced);
  Value partial = reduceOnce(b, loc, input, aux, block, kept, init, combine);
  SmallVector<bool> rest;
  for (auto [r, inBlock] : llvm::zip_equal(reduced, block))
    if (!inBlock)
      rest.push_back(r);
  if (!llvm::is_contained(rest, true))
    return partial;
  return reduceStaged(b, loc, partial, {}, rest, init, merge, merge);
}

Value reduceDims(OpBuilder &b, Location loc, Value input,
                 ArrayRef<bool> reduced, Value init, BodyFn combine) {
  return reduceStaged(b, loc, input, {}, reduced, init, combine, combine);
}

Value reduceDimsWith(OpBuilder &b, Location loc, Value input, ValueRange aux,
                     ArrayRef<bool> reduced, Value init, BodyFn combine,
                     BodyFn merge) {
  return reduceStaged(b, loc, input, aux, reduced, init, combine, merge);
}

Type sumAccumulatorType(Type elem) {
  return elem.isF32() ? Float64Type::get(elem.getContext()) : elem;
}

Value convertFloats(OpBuilder &b, Location loc, Value tensor, Type to) {
  if (elementTypeOf(tensor) == to)
    return tensor;
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  return mapGeneric(b, loc, tensor, to, {tensor},
                    {AffineMap::getMultiDimIdentityMap(rank, b.getContext())},
                    [to](OpBuilder &nb, Location l, ValueRange a) -> Value {
                      return castScalar(nb, l, a[0], to);
                    });
}

Value mapGeneric(OpBuilder &b, Location loc, Value like, Type elementType,
                 ValueRange inputs, ArrayRef<AffineMap> maps, BodyFn body) {
  auto likeType = cast<RankedTensorType>(like.getType());
  auto type = RankedTensorType::get(likeType.getShape(), elementType);
  int64_t rank = type.getRank();
  Value init = emptyTensor(b, loc, type, dynamicSizesFrom(b, loc, type, like));
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{init}, allMaps,
             parallelIterators(rank),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
             })
      .getResult(0);
}

AffineMap selectDims(int64_t rank, ArrayRef<int64_t> dims, MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : dims)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value expandKeptDims(OpBuilder &b, Location loc, Value value,
                     RankedTensorType resultType, ArrayRef<bool> reduced) {
  if (value.getType() == resultType)
    return value;
  // Group every kept dimension with the reduced (size-1) ones after it;
  // leading reduced dimensions join the first group.
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    pending.push_back(d);
    if (!reduced[d]) {
      groups.push_back(pending);
      pending.clear();
    }
  }
  if (!pending.empty()) {
    if (groups.empty())
      groups.push_back({});
    groups.back().append(pending.begin(), pending.end());
  }
  if (cast<RankedTensorType>(value.getType()).getRank() == 0)
    groups.clear();
  SmallVector<OpFoldResult> outShape;
  for (int64_t d = 0, k = 0; d < resultType.getRank(); ++d) {
    if (reduced[d]) {
      outShape.push_back(b.getIndexAttr(1));
      continue;
    }
    outShape.push_back(tensor::getMixedSize(b, loc, value, k++));
  }
  return tensor::ExpandShapeOp::create(b, loc, resultType, value, groups,
                                       outShape);
}

Value countAsFloat(OpBuilder &b, Location loc, Value value,
                   ArrayRef<bool> which, Type floatType) {
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (auto [d, take] : llvm::enumerate(which))
    if (take)
      count = arith::MulIOp::create(b, loc, count,
                                    tensor::DimOp::create(b, loc, value, d));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  return arith::SIToFPOp::create(b, loc, floatType, asInt);
}

Value sumOverRanks(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  Value init = emptyTensor(b, loc, type, dynamicSizesFrom(b, loc, type, x));
  return mdl::LibSumRanksOp::create(b, loc, type, x, init).getResult();
}

Value sumScalarOverRanks(OpBuilder &b, Location loc, Value x) {
  auto type = RankedTensorType::get({1}, x.getType());
  Value one = tensor::FromElementsOp::create(b, loc, type, ValueRange{x});
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return tensor::ExtractOp::create(b, loc, sumOverRanks(b, loc, one),
                                   ValueRange{zero});
}

Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> pad, Value value) {
  if (pad[0] == 0 && pad[1] == 0)
    return input;
  SmallVector<OpFoldResult> low(4, b.getIndexAttr(0));
  low[2] = b.getIndexAttr(pad[0]);
  low[3] = b.getIndexAttr(pad[1]);
  return tensor::PadOp::create(b, loc, Type(), input, low, low, value);
}

DenseIntElementsAttr i64Elements(OpBuilder &b, ArrayRef<int64_t> values) {
  return b.getI64TensorAttr(values);
}

Value indexOfScalar(OpBuilder &b, Location loc, Value scalar) {
  Value v = tensor::ExtractOp::create(b, loc, scalar, ValueRange{});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

} // namespace modelc::lowering

bool modelc::lowering::canUnrollWindow(ArrayRef<int64_t> kernel,
                                       ArrayRef<int64_t> padding) {
  return padding[0] == 0 && padding[1] == 0 &&
         kernel[0] * kernel[1] <= kMaxUnrolledWindow;
}

Value modelc::lowering::windowGeneric(
    OpBuilder &b, Location loc, Value input, RankedTensorType resultType,
    ValueRange resultDynamicSizes, ArrayRef<int64_t> kernel,
    ArrayRef<int64_t> stride,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (int64_t kh = 0; kh < kernel[0]; ++kh)
    for (int64_t kw = 0; kw < kernel[1]; ++kw) {
      maps.push_back(AffineMap::get(
          4, 0,
          {dim(0), dim(1), dim(2) * stride[0] + kh, dim(3) * stride[1] + kw},
          ctx));
      inputs.push_back(input);
    }
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Value init = emptyTensor(b, loc, resultType, resultDynamicSizes);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
             parallelIterators(4),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl,
                                       body(nb, nl, args.drop_back()));
             })
      .getResult(0);
}
