//===- NNOps.cpp - dropout, batch norm, layer norm, embedding -------------===//
//
// Result-type inference (and with it, verification) of the nn ops.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

using namespace mlir;
using namespace mlir::mdl;

LogicalResult DropoutOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  if (!input)
    return emitInferError(loc, name, "input must be a ranked tensor");
  double rate = adaptor.getRate().convertToDouble();
  if (!(rate >= 0.0 && rate < 1.0))
    return emitInferError(loc, name, "rate must be in [0, 1), got ", rate);
  if (adaptor.getPerChannel() && input.getRank() < 3)
    return emitInferError(loc, name,
                          "per_channel needs an input [N, C, ...] of rank >= "
                          "3, got ", input);
  types.push_back(input);
  types.push_back(input.clone(IntegerType::get(context, 1)));
  return success();
}

/// Checks that a per-channel operand is 1-D of `channels` with the input's
/// element type.
static LogicalResult checkChannelVector(std::optional<Location> loc,
                                        StringRef name, StringRef what,
                                        Value value, RankedTensorType input) {
  auto expected =
      RankedTensorType::get({input.getDimSize(1)}, input.getElementType());
  if (value.getType() != expected)
    return emitInferError(loc, name, what, " must be ", expected,
                          " (one entry per channel), got ", value.getType());
  return success();
}

/// Checks the input of batch norm: rank >= 2 with static channels.
static LogicalResult checkBatchNormInput(std::optional<Location> loc,
                                         StringRef name,
                                         RankedTensorType input) {
  if (!input || input.getRank() < 2 || input.isDynamicDim(1))
    return emitInferError(loc, name, "input must have rank >= 2 with static "
                                  "channels in dimension 1");
  return success();
}

/// Checks that epsilon is positive.
static LogicalResult checkEpsilon(std::optional<Location> loc, StringRef name,
                                  APFloat epsilon) {
  if (!(epsilon.convertToDouble() > 0.0))
    return emitInferError(loc, name, "epsilon must be positive, got ",
                       epsilon.convertToDouble());
  return success();
}

LogicalResult BatchNormTrainOp::inferReturnTypes(MLIRContext *,
                                                 std::optional<Location> loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  double momentum = adaptor.getMomentum().convertToDouble();
  if (failed(checkBatchNormInput(loc, name, input)) ||
      failed(checkChannelVector(loc, name, "gamma", adaptor.getGamma(),
                                input)) ||
      failed(checkChannelVector(loc, name, "beta", adaptor.getBeta(), input)) ||
      failed(checkEpsilon(loc, name, adaptor.getEpsilon())))
    return failure();
  if (!(momentum >= 0.0 && momentum <= 1.0))
    return emitInferError(loc, name, "momentum must be in [0, 1], got ",
                       momentum);
  Type stats = getTensorType(adaptor.getGamma());
  types.append({input, stats, stats});
  return success();
}

LogicalResult BatchNormEvalOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  if (failed(checkBatchNormInput(loc, name, input)) ||
      failed(checkChannelVector(loc, name, "gamma", adaptor.getGamma(),
                                input)) ||
      failed(checkChannelVector(loc, name, "beta", adaptor.getBeta(), input)) ||
      failed(checkChannelVector(loc, name, "running_mean",
                                adaptor.getRunningMean(), input)) ||
      failed(checkChannelVector(loc, name, "running_var",
                                adaptor.getRunningVar(), input)) ||
      failed(checkEpsilon(loc, name, adaptor.getEpsilon())))
    return failure();
  types.push_back(input);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = getTensorType(adaptor.getInput());
  auto gamma = getTensorType(adaptor.getGamma());
  auto beta = getTensorType(adaptor.getBeta());
  if (!input || !gamma || !beta)
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (gamma != beta)
    return emitInferError(loc, name, "gamma and beta must have the same type, "
                                  "got ", gamma, " and ", beta);
  if (gamma.getElementType() != input.getElementType())
    return emitInferError(loc, name, "gamma must have the input's element type");
  int64_t n = gamma.getRank();
  ArrayRef<int64_t> trailing = input.getShape().take_back(
      std::min<int64_t>(n, input.getRank()));
  if (n < 1 || n >= input.getRank() || !gamma.hasStaticShape() ||
      trailing != gamma.getShape())
    return emitInferError(loc, name, "normalised shape ",
                       formatShape(gamma.getShape()),
                       " must be static and equal the trailing dimensions of "
                       "the input shape ",
                       formatShape(input.getShape()));
  if (failed(checkEpsilon(loc, name, adaptor.getEpsilon())))
    return failure();
  types.push_back(input);
  return success();
}

LogicalResult EmbeddingOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto indices = getTensorType(adaptor.getIndices());
  auto table = getTensorType(adaptor.getTable());
  if (!indices || !table)
    return emitInferError(loc, name, "operands must be ranked tensors");
  Type element = indices.getElementType();
  if (!element.isInteger(32) && !element.isInteger(64))
    return emitInferError(loc, name, "indices must be i32 or i64, got ",
                       indices);
  if (table.getRank() != 2 || !table.hasStaticShape())
    return emitInferError(loc, name, "table must be a static 2-D NxD tensor, "
                                  "got ", table);
  SmallVector<int64_t> shape(indices.getShape());
  shape.push_back(table.getDimSize(1));
  types.push_back(RankedTensorType::get(shape, table.getElementType()));
  return success();
}

/// Checks attention's operand shapes (BxHxTqxD query, BxHxTkxD key and
/// value, only B dynamic, one element type, causal only with Tq <= Tk).
static LogicalResult checkAttention(std::optional<Location> loc,
                                    StringRef name, RankedTensorType q,
                                    RankedTensorType k, RankedTensorType v,
                                    bool causal) {
  if (!q || !k || !v)
    return emitInferError(loc, name, "operands must be ranked tensors");
  if (q.getRank() != 4 || k.getRank() != 4 || v.getRank() != 4)
    return emitInferError(loc, name, "query, key and value must be 4-D "
                          "(BxHxTxD), got ", q, ", ", k, " and ", v);
  if (q.getElementType() != k.getElementType() ||
      q.getElementType() != v.getElementType())
    return emitInferError(loc, name, "element types differ: ", q, ", ", k,
                          " and ", v);
  for (RankedTensorType t : {q, k, v})
    if (llvm::any_of(t.getShape().drop_front(), ShapedType::isDynamic))
      return emitInferError(loc, name, "only the batch may be dynamic, got ",
                            t);
  auto same = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  for (int64_t d : {0, 1, 3})
    if (!same(q.getDimSize(d), k.getDimSize(d)) ||
        !same(q.getDimSize(d), v.getDimSize(d)))
      return emitInferError(loc, name, "query, key and value differ in "
                            "dimension ", d, ": ", q, ", ", k, " and ", v);
  if (!same(k.getDimSize(2), v.getDimSize(2)))
    return emitInferError(loc, name, "key and value have different lengths: ",
                          k, " and ", v);
  int64_t tq = q.getDimSize(2), tk = k.getDimSize(2);
  if (causal && !ShapedType::isDynamic(tq) && !ShapedType::isDynamic(tk) &&
      tq > tk)
    return emitInferError(loc, name, "a causal mask needs at least as many "
                          "keys as queries, got ", tq, " queries and ", tk,
                          " keys");
  return success();
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto q = getTensorType(adaptor.getQuery());
  if (failed(checkAttention(loc, getOperationName(), q,
                            getTensorType(adaptor.getKey()),
                            getTensorType(adaptor.getValue()),
                            adaptor.getCausal())))
    return failure();
  types.push_back(q);
  return success();
}

LogicalResult AttentionGradOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto q = getTensorType(adaptor.getQuery());
  auto k = getTensorType(adaptor.getKey());
  auto v = getTensorType(adaptor.getValue());
  if (failed(checkAttention(loc, name, q, k, v, adaptor.getCausal())))
    return failure();
  for (Value x : {adaptor.getOutput(), adaptor.getGrad()})
    if (getTensorType(x) != q)
      return emitInferError(loc, name, "output and grad must have the "
                            "query's type ", q, ", got ", x.getType());
  types.append({q, k, v});
  return success();
}

/// Checks attention_packed's qkv (BxTx3xHxD, only B dynamic) and returns
/// the result's type BxTxHxD.
static FailureOr<RankedTensorType>
checkAttentionPacked(std::optional<Location> loc, StringRef name,
                     RankedTensorType qkv) {
  if (!qkv)
    return emitInferError(loc, name, "qkv must be a ranked tensor");
  if (qkv.getRank() != 5 || qkv.getDimSize(2) != 3)
    return emitInferError(loc, name, "qkv must be BxTx3xHxD, got ", qkv);
  if (llvm::any_of(qkv.getShape().drop_front(), ShapedType::isDynamic))
    return emitInferError(loc, name, "only the batch may be dynamic, got ",
                          qkv);
  ArrayRef<int64_t> s = qkv.getShape();
  return RankedTensorType::get({s[0], s[1], s[3], s[4]},
                               qkv.getElementType());
}

LogicalResult AttentionPackedOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> out = checkAttentionPacked(
      loc, getOperationName(), getTensorType(adaptor.getQkv()));
  if (failed(out))
    return failure();
  types.push_back(*out);
  return success();
}

LogicalResult AttentionPackedGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto qkv = getTensorType(adaptor.getQkv());
  FailureOr<RankedTensorType> out = checkAttentionPacked(loc, name, qkv);
  if (failed(out))
    return failure();
  for (Value x : {adaptor.getOutput(), adaptor.getGrad()})
    if (getTensorType(x) != *out)
      return emitInferError(loc, name, "output and grad must have the "
                            "type ", *out, ", got ", x.getType());
  types.push_back(qkv);
  return success();
}

/// Checks attention_decode's operands: BxHx1xD query, key and value, BxHxTxD
/// caches, one element type, B, H and D agreeing where known.
static LogicalResult checkAttentionDecode(std::optional<Location> loc,
                                          StringRef name,
                                          ArrayRef<RankedTensorType> types) {
  RankedTensorType q = types[0];
  for (RankedTensorType t : types)
    if (!t || t.getRank() != 4 || t.getElementType() != q.getElementType())
      return emitInferError(loc, name, "query, key, value and the caches "
                            "must be 4-D (BxHxTxD) of one element type");
  auto same = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  for (RankedTensorType t : types)
    for (int64_t d : {0, 1, 3})
      if (!same(q.getDimSize(d), t.getDimSize(d)))
        return emitInferError(loc, name, "operands differ in dimension ", d,
                              ": ", q, " and ", t);
  for (RankedTensorType t : types.take_front(3))
    if (t.getDimSize(2) != 1)
      return emitInferError(loc, name, "query, key and value must hold one "
                            "position (BxHx1xD), got ", t);
  if (types[3] != types[4])
    return emitInferError(loc, name, "the key and value caches differ: ",
                          types[3], " and ", types[4]);
  return success();
}

LogicalResult AttentionDecodeOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  SmallVector<RankedTensorType> in;
  for (Value v : {adaptor.getQuery(), adaptor.getKey(), adaptor.getValue(),
                  adaptor.getKeyCache(), adaptor.getValueCache()})
    in.push_back(getTensorType(v));
  if (failed(checkAttentionDecode(loc, getOperationName(), in)))
    return failure();
  types.append({in[0], in[3], in[4]});
  return success();
}
