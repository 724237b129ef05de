//===- LibraryOps.cpp - The destination-style library ops -----------------===//
//
// The ops of MDLLibraryOps.td: their verifiers (one shape rule for the
// convolutions, and a bias's length, one for the four pooling ops, one for the embedding
// gradient, those of attention and its decoding step, the sum over the
// ranks' equal shapes, on tensors or memrefs),
// their memory effects (on memrefs: every operand but the last is read, the
// last, `init`, is written) and their bufferization (each tensor operand
// replaced by its buffer; `init` is written in place, never read, so a
// tensor.empty destination needs no copy).
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "mdl/ShapeUtils.h"

#include "modelsupport/ShapeArith.h"

using namespace mlir;
using namespace mlir::mdl;
using namespace mlir::bufferization;

namespace {

/// The shaped type of operand `i`.
ShapedType shapedOperand(Operation *op, unsigned i) {
  return cast<ShapedType>(op->getOperand(i).getType());
}

/// Checks what every library op shares: all operands tensors or all
/// memrefs, a result (of `init`'s type) exactly on tensors.
LogicalResult verifyDestination(Operation *op) {
  unsigned last = op->getNumOperands() - 1;
  bool tensors = isa<RankedTensorType>(shapedOperand(op, last));
  for (unsigned i = 0; i < last; ++i)
    if (isa<RankedTensorType>(shapedOperand(op, i)) != tensors)
      return op->emitOpError("operands must be all tensors or all memrefs");
  if (tensors != (op->getNumResults() == 1))
    return op->emitOpError("has a result exactly when it works on tensors");
  if (tensors && op->getResult(0).getType() != shapedOperand(op, last))
    return op->emitOpError("result type must be the type of init");
  return success();
}

/// Checks a window attribute: two entries, each at least `min`.
LogicalResult checkPair(Operation *op, StringRef name, ArrayRef<int64_t> v,
                        int64_t min) {
  if (v.size() != 2 || v[0] < min || v[1] < min)
    return op->emitOpError(name) << " needs two entries of at least " << min;
  return success();
}

/// Checks that every size but the batch is static, and that the two batch
/// sizes agree where both are known.
LogicalResult checkStatic(Operation *op, ArrayRef<int64_t> a,
                          ArrayRef<int64_t> b) {
  for (ArrayRef<int64_t> shape : {a, b})
    if (llvm::any_of(shape.drop_front(), ShapedType::isDynamic))
      return op->emitOpError("only the batch size may be dynamic");
  if (!ShapedType::isDynamic(a[0]) && !ShapedType::isDynamic(b[0]) &&
      a[0] != b[0])
    return op->emitOpError("batch sizes differ: ") << a[0] << " and " << b[0];
  return success();
}

/// Checks that `out` is the window output size of `in` in both spatial
/// dimensions (NCHW shapes).
LogicalResult checkWindowOutput(Operation *op, ArrayRef<int64_t> in,
                                ArrayRef<int64_t> out,
                                ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> padding,
                                ArrayRef<int64_t> dilation) {
  for (int i = 0; i < 2; ++i) {
    std::optional<int64_t> size = modelsupport::windowOutputSize(
        in[2 + i], kernel[i], stride[i], padding[i], dilation[i]);
    if (!size || *size != out[2 + i])
      return op->emitOpError("output spatial size ")
             << out[2 + i] << " does not follow from input size " << in[2 + i]
             << " and kernel size " << kernel[i];
  }
  return success();
}

/// The shape rule of a library convolution whose input, weight and output
/// are operands `input`, `weight` and `output`.
LogicalResult verifyLibraryConv(Operation *op, unsigned input, unsigned weight,
                                unsigned output, ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> padding,
                                ArrayRef<int64_t> dilation) {
  ArrayRef<int64_t> x = shapedOperand(op, input).getShape();
  ArrayRef<int64_t> w = shapedOperand(op, weight).getShape();
  ArrayRef<int64_t> y = shapedOperand(op, output).getShape();
  if (failed(verifyDestination(op)) ||
      failed(checkPair(op, "stride", stride, 1)) ||
      failed(checkPair(op, "padding", padding, 0)) ||
      failed(checkPair(op, "dilation", dilation, 1)) ||
      failed(checkStatic(op, x, y)))
    return failure();
  if (ShapedType::isDynamic(w[0]))
    return op->emitOpError("only the batch size may be dynamic");
  if (x[1] != w[1] || y[1] != w[0])
    return op->emitOpError("channels do not match: input ")
           << x[1] << ", weight " << w[0] << "x" << w[1] << ", output "
           << y[1];
  return checkWindowOutput(op, x, y, w.drop_front(2), stride, padding,
                           dilation);
}

/// The shape rule of a library pooling op whose input-shaped operands are
/// `inputs` and whose output-shaped operand is `output`.
LogicalResult verifyLibraryPool(Operation *op, ArrayRef<unsigned> inputs,
                                unsigned output, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> padding) {
  ArrayRef<int64_t> x = shapedOperand(op, inputs[0]).getShape();
  ArrayRef<int64_t> y = shapedOperand(op, output).getShape();
  if (failed(verifyDestination(op)) ||
      failed(checkPair(op, "kernel", kernel, 1)) ||
      failed(checkPair(op, "stride", stride, 1)) ||
      failed(checkPair(op, "padding", padding, 0)) ||
      failed(checkStatic(op, x, y)))
    return failure();
  for (unsigned i : inputs.drop_front())
    if (shapedOperand(op, i).getShape() != x)
      return op->emitOpError("the input and its gradient differ in shape");
  if (x[1] != y[1])
    return op->emitOpError("channels do not match: input ")
           << x[1] << ", output " << y[1];
  for (int i = 0; i < 2; ++i)
    if (2 * padding[i] > kernel[i])
      return op->emitOpError("padding must be at most half the kernel");
  int64_t noDilation[2] = {1, 1};
  return checkWindowOutput(op, x, y, kernel, stride, padding, noDilation);
}

/// On memrefs: reads of every operand but the last, a write of the last.
void libraryEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  unsigned last = op->getNumOperands() - 1;
  if (!isa<MemRefType>(op->getOperand(last).getType()))
    return;
  for (unsigned i = 0; i < last; ++i)
    effects.emplace_back(MemoryEffects::Read::get(), &op->getOpOperand(i),
                         SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &op->getOpOperand(last),
                       SideEffects::DefaultResource::get());
}

/// Replaces `op` on tensors by the same op on the operands' buffers.
LogicalResult bufferizeLibraryOp(Operation *op, RewriterBase &rewriter,
                                 const BufferizationOptions &options,
                                 BufferizationState &state) {
  SmallVector<Value> buffers;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  rewriter.setInsertionPoint(op);
  OperationState bufferized(op->getLoc(), op->getName(), buffers, TypeRange{},
                            op->getAttrs());
  rewriter.create(bufferized);
  replaceOpWithBufferizedValues(rewriter, op, buffers.back());
  return success();
}

} // namespace

// The interfaces every library op forwards to the shared implementations.
#define MDL_LIBRARY_OP_INTERFACES(OP)                                          \
  void OP::getEffects(                                                         \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    libraryEffects(getOperation(), effects);                                   \
  }                                                                            \
  bool OP::bufferizesToMemoryRead(OpOperand &operand, const AnalysisState &) { \
    return !isDpsInit(&operand);                                               \
  }                                                                            \
  bool OP::bufferizesToMemoryWrite(OpOperand &operand,                         \
                                   const AnalysisState &) {                    \
    return isDpsInit(&operand);                                                \
  }                                                                            \
  AliasingValueList OP::getAliasingValues(OpOperand &operand,                  \
                                          const AnalysisState &) {             \
    if (!isDpsInit(&operand))                                                  \
      return {};                                                               \
    return {{getTiedOpResult(&operand), BufferRelation::Equivalent}};          \
  }                                                                            \
  LogicalResult OP::bufferize(RewriterBase &rewriter,                          \
                              const BufferizationOptions &options,             \
                              BufferizationState &state) {                     \
    return bufferizeLibraryOp(getOperation(), rewriter, options, state);       \
  }

MDL_LIBRARY_OP_INTERFACES(LibConv2DOp)
MDL_LIBRARY_OP_INTERFACES(LibConv2DBiasOp)
MDL_LIBRARY_OP_INTERFACES(LibConv2DGradInputOp)
MDL_LIBRARY_OP_INTERFACES(LibConv2DGradWeightOp)
MDL_LIBRARY_OP_INTERFACES(LibMaxPool2DOp)
MDL_LIBRARY_OP_INTERFACES(LibAvgPool2DOp)
MDL_LIBRARY_OP_INTERFACES(LibMaxPool2DGradOp)
MDL_LIBRARY_OP_INTERFACES(LibAvgPool2DGradOp)
MDL_LIBRARY_OP_INTERFACES(LibEmbeddingGradOp)
MDL_LIBRARY_OP_INTERFACES(LibAttentionOp)
MDL_LIBRARY_OP_INTERFACES(LibAttentionGradOp)
MDL_LIBRARY_OP_INTERFACES(LibAttentionDecodeOp)
MDL_LIBRARY_OP_INTERFACES(LibAttentionPackedOp)
MDL_LIBRARY_OP_INTERFACES(LibAttentionPackedGradOp)
MDL_LIBRARY_OP_INTERFACES(LibSumRanksOp)

#undef MDL_LIBRARY_OP_INTERFACES

LogicalResult LibConv2DOp::verify() {
  return verifyLibraryConv(*this, 0, 1, 2, getStride(), getPadding(),
                           getDilation());
}

LogicalResult LibConv2DBiasOp::verify() {
  if (failed(verifyLibraryConv(*this, 0, 1, 3, getStride(), getPadding(),
                               getDilation())))
    return failure();
  int64_t outChannels = shapedOperand(getOperation(), 1).getDimSize(0);
  if (shapedOperand(getOperation(), 2).getDimSize(0) != outChannels)
    return emitOpError("bias must have one element per output channel (")
           << outChannels << ")";
  return success();
}

LogicalResult LibConv2DGradInputOp::verify() {
  return verifyLibraryConv(*this, 2, 1, 0, getStride(), getPadding(),
                           getDilation());
}

LogicalResult LibConv2DGradWeightOp::verify() {
  return verifyLibraryConv(*this, 0, 2, 1, getStride(), getPadding(),
                           getDilation());
}

LogicalResult LibMaxPool2DOp::verify() {
  return verifyLibraryPool(*this, {0}, 1, getKernel(), getStride(),
                           getPadding());
}

LogicalResult LibAvgPool2DOp::verify() {
  return verifyLibraryPool(*this, {0}, 1, getKernel(), getStride(),
                           getPadding());
}

LogicalResult LibMaxPool2DGradOp::verify() {
  return verifyLibraryPool(*this, {1, 2}, 0, getKernel(), getStride(),
                           getPadding());
}

LogicalResult LibAvgPool2DGradOp::verify() {
  return verifyLibraryPool(*this, {1}, 0, getKernel(), getStride(),
                           getPadding());
}

LogicalResult LibEmbeddingGradOp::verify() {
  if (failed(verifyDestination(getOperation())))
    return failure();
  ArrayRef<int64_t> idx = shapedOperand(getOperation(), 0).getShape();
  ArrayRef<int64_t> grad = shapedOperand(getOperation(), 1).getShape();
  ArrayRef<int64_t> table = shapedOperand(getOperation(), 2).getShape();
  if (ShapedType::isDynamic(table[0]) || ShapedType::isDynamic(table[1]) ||
      ShapedType::isDynamic(grad[1]))
    return emitOpError("only the number of positions may be dynamic");
  if (grad[1] != table[1])
    return emitOpError("grad rows have ") << grad[1] << " values, table rows "
                                           << table[1];
  if (!ShapedType::isDynamic(idx[0]) && !ShapedType::isDynamic(grad[0]) &&
      idx[0] != grad[0])
    return emitOpError("") << idx[0] << " indices for " << grad[0]
                           << " gradient rows";
  return success();
}

/// Checks a library attention op's BxHxTxD operands `first..first+count`
/// against the query (operand 0): only B may be dynamic, B, H and D agree,
/// operands 1 and 2 (key, value) share their length and the others the
/// query's; sets `keys` to the keys' length.
static LogicalResult verifyAttentionOperands(Operation *op, unsigned count,
                                             int64_t &keys) {
  ArrayRef<int64_t> q = shapedOperand(op, 0).getShape();
  keys = shapedOperand(op, 1).getShape()[2];
  for (unsigned i = 0; i < count; ++i) {
    ArrayRef<int64_t> s = shapedOperand(op, i).getShape();
    for (int64_t d = 1; d < 4; ++d)
      if (ShapedType::isDynamic(s[d]))
        return op->emitOpError("only the batch may be dynamic, operand #")
               << i << " has a dynamic dimension " << d;
    int64_t length = i == 1 || i == 2 ? keys : q[2];
    bool batchOk = ShapedType::isDynamic(s[0]) ||
                   ShapedType::isDynamic(q[0]) || s[0] == q[0];
    if (!batchOk || s[1] != q[1] || s[3] != q[3] || s[2] != length)
      return op->emitOpError("operand #")
             << i << " has shape " << formatShape(s) << ", which does not "
             << "fit the query's " << formatShape(q);
  }
  if (cast<BoolAttr>(op->getAttr("causal")).getValue() && q[2] > keys)
    return op->emitOpError("a causal mask needs at least as many keys as "
                           "queries");
  return success();
}

LogicalResult LibAttentionOp::verify() {
  int64_t keys;
  if (failed(verifyDestination(getOperation())) ||
      failed(verifyAttentionOperands(getOperation(), 4, keys)))
    return failure();
  return success();
}

LogicalResult LibAttentionGradOp::verify() {
  int64_t keys;
  if (failed(verifyDestination(getOperation())) ||
      failed(verifyAttentionOperands(getOperation(), 5, keys)))
    return failure();
  ArrayRef<int64_t> q = shapedOperand(getOperation(), 0).getShape();
  int64_t flat = shapedOperand(getOperation(), 5).getShape()[0];
  if (ShapedType::isDynamic(q[0]) != ShapedType::isDynamic(flat) ||
      (!ShapedType::isDynamic(flat) &&
       flat != q[0] * q[1] * (q[2] + 2 * keys) * q[3]))
    return emitOpError("init must hold B*H*(Tq + 2*Tk)*D values");
  return success();
}

/// Checks a packed attention op: operand 0 (qkv) BxTx3xHxD with only B
/// dynamic, and each of `outputs` BxTxHxD with qkv's sizes.
static LogicalResult verifyPackedAttention(Operation *op,
                                           ArrayRef<unsigned> outputs) {
  ArrayRef<int64_t> qkv = shapedOperand(op, 0).getShape();
  if (qkv[2] != 3 ||
      llvm::any_of(qkv.drop_front(), ShapedType::isDynamic))
    return op->emitOpError("qkv must be BxTx3xHxD with only B dynamic");
  for (unsigned i : outputs) {
    ArrayRef<int64_t> s = shapedOperand(op, i).getShape();
    bool batchOk = ShapedType::isDynamic(s[0]) ||
                   ShapedType::isDynamic(qkv[0]) || s[0] == qkv[0];
    if (!batchOk || s[1] != qkv[1] || s[2] != qkv[3] || s[3] != qkv[4])
      return op->emitOpError("operand #")
             << i << " has shape " << formatShape(s) << ", not qkv's "
             << formatShape(qkv) << " without its 3";
  }
  return success();
}

LogicalResult LibAttentionPackedOp::verify() {
  if (failed(verifyDestination(getOperation())))
    return failure();
  return verifyPackedAttention(getOperation(), {1});
}

LogicalResult LibAttentionPackedGradOp::verify() {
  if (failed(verifyDestination(getOperation())) ||
      failed(verifyPackedAttention(getOperation(), {1, 2})))
    return failure();
  if (shapedOperand(getOperation(), 3).getShape().drop_front() !=
      shapedOperand(getOperation(), 0).getShape().drop_front())
    return emitOpError("init must have qkv's shape");
  return success();
}

LogicalResult LibAttentionDecodeOp::verify() {
  if (failed(verifyDestination(getOperation())))
    return failure();
  ArrayRef<int64_t> q = shapedOperand(getOperation(), 0).getShape();
  ArrayRef<int64_t> cache = shapedOperand(getOperation(), 1).getShape();
  for (unsigned i : {0u, 1u, 2u, 4u}) {
    ArrayRef<int64_t> s = shapedOperand(getOperation(), i).getShape();
    if (llvm::any_of(s, ShapedType::isDynamic))
      return emitOpError("sizes must be static, operand #") << i << " is "
                                                            << formatShape(s);
    ArrayRef<int64_t> want = i == 1 || i == 2 ? cache : q;
    if (s[0] != q[0] || s[1] != q[1] || s[3] != q[3] || s != want)
      return emitOpError("operand #")
             << i << " has shape " << formatShape(s)
             << ", which does not fit the query's " << formatShape(q)
             << " and the cache's " << formatShape(cache);
  }
  if (q[2] != 1)
    return emitOpError("the query must hold one position, got ")
           << formatShape(q);
  return success();
}

LogicalResult LibSumRanksOp::verify() {
  if (failed(verifyDestination(getOperation())))
    return failure();
  ArrayRef<int64_t> in = shapedOperand(getOperation(), 0).getShape();
  ArrayRef<int64_t> out = shapedOperand(getOperation(), 1).getShape();
  if (in != out)
    return emitOpError("input ") << formatShape(in) << " and init "
                                 << formatShape(out) << " differ in shape";
  return success();
}
