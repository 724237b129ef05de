//===- LibraryToCalls.cpp - mdl library ops on memrefs -> runtime calls ---===//
//
// Implements the `modelc-library-to-calls` pass: after bufferization, every
// mdl library op (MDLLibraryOps.td) becomes one call of the runtime's entry
// point for it (RuntimeCalls.h), with the element pointers of its operands
// (the destination last) and its sizes as i64 (static ones as constants,
// the batch read with memref.dim):
//   lib_conv2d              -> modelrt_conv2d_forward(x, w, y, ...)
//   lib_conv2d_bias         -> modelrt_conv2d_forward_bias(x, w, b, y, ...)
//   lib_conv2d_grad_input   -> modelrt_conv2d_backward_data(dy, w, dx, ...)
//   lib_conv2d_grad_weight  -> modelrt_conv2d_backward_weights(x, dy, dw, ...)
//   lib_max_pool2d          -> modelrt_max_pool2d_forward(x, y, ...)
//   lib_max_pool2d_grad     -> modelrt_max_pool2d_backward(dy, x, dx, ...)
//   a 2x2 / 2 lib_max_pool2d and its gradient later in the block (same x,
//   which nothing between them may write)
//                           -> modelrt_max_pool2d_forward_codes(x, y, codes, ...)
//                              modelrt_max_pool2d_backward_codes(dy, codes, dx, ...)
//                              (codes: a fresh i8 buffer of y's shape)
//   a lib_conv2d_bias whose result only a 2x2 / 2 lib_max_pool2d reads (and
//   its gradient through codes), at the pooling (ConvMaxPool.h)
//                           -> modelrt_conv2d_forward_bias_max_pool2d(x, w, b,
//                              y, pooled, codes or null, conv sizes...)
//   a lib_conv2d_grad_input and the lib_conv2d_grad_weight on its dy, at the
//   latter (ConvBackward.h)
//                           -> modelrt_conv2d_backward(dy, x, w, dx, dw, ...)
//   a 2x2 lib_max_pool2d_grad with codes and the f32 gradients of the
//   convolution whose dy it writes, at the weight gradient (ConvFromMaxPool.h)
//                           -> modelrt_conv2d_backward_from_max_pool2d(...)
//   (the calls that replace several ops are made in FusedCalls.cpp)
//   lib_avg_pool2d          -> modelrt_avg_pool2d_forward(x, y, ...)
//   lib_avg_pool2d_grad     -> modelrt_avg_pool2d_backward(dy, dx, ...)
//   lib_embedding_grad      -> modelrt_embedding_backward_i64 / _i32
//                                  (indices, grad, table, S, D, N)
//   lib_attention           -> modelrt_attention_forward(q, k, v, o, ...)
//   lib_attention_grad      -> modelrt_attention_backward(q, k, v, o, do,
//                                  dqkv, ...)
//   lib_attention_packed    -> modelrt_attention_packed_forward(qkv, o,
//                                  batch, heads, length, width, causal)
//   lib_attention_packed_grad -> modelrt_attention_packed_backward(qkv, o,
//                                  do, dqkv, ...)
//   lib_attention_decode    -> modelrt_attention_decode(q, kc, vc, &pos, o,
//                                  batch, heads, length, width)
//   lib_sum_ranks           -> modelrt_dist_sum_f64(x, sum, elements)
// With `gpu`, the four attention ops (not the decoding step) call their
// modelrt_cuda_attention_* twins and the three convolutions the
// modelrt_cuda_conv2d_* ones (cuDNN; `_tf32` / `_bf16` by the module's
// `mdl.precision`), with device pointers; any other library op is an error
// there (lib_conv2d_bias too: the GPU pipelines split it first). With
// `cuda-convolutions` (the GPU emulation on the fake driver) the
// convolutions call the modelrt_cuda_conv2d_* forms without `gpu`. In
// a module whose `mdl.precision` is bf16 (mdl-assign-precision) the CPU's
// convolutions call the `_bf16` forms (RuntimeCalls.h). An op's own
// `mdl.precision` (copied from the mdl op it lowers) overrides the
// module's: a first layer's weight gradient tagged "f32" calls the f32
// form.
// The runtime wants dense row-major buffers: an operand with another layout
// is first copied into a fresh buffer (and the destination copied back). An
// op still on tensors is reported: the pass runs after bufferization.
//
//===----------------------------------------------------------------------===//
#include "FusedCalls.h"
#include "LibraryToCalls.h"
#include "MaxPoolCodes.h"
#include "modelc/Transforms/CPU/Passes.h"
#include "modelc/Transforms/CPU/RuntimeCalls.h"
#include "modelc/Transforms/Linalg/LibraryCalls.h"

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_LIBRARYTOCALLSPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// The call of a convolution: operands (a, b, init).
RuntimeCall convCall(StringRef callee, Operation *op, unsigned input,
                     unsigned weight, unsigned output) {
  return {callee, op->getOperand(input), op->getOperand(weight),
          op->getOperand(output)};
}

/// The call of a pooling op whose input- and output-shaped operands are
/// `input` and `output`.
RuntimeCall poolCall(StringRef callee, Operation *op, unsigned input,
                     unsigned output) {
  return {callee, op->getOperand(input), Value(), op->getOperand(output)};
}

} // namespace

/// The runtime call of the library op `op`; the callee is empty for any
/// other op.
RuntimeCall describe(Operation *op) {
  return TypeSwitch<Operation *, RuntimeCall>(op)
      .Case([&](mdl::LibConv2DOp) {
        return convCall(kConvForwardCall, op, 0, 1, 2);
      })
      .Case([&](mdl::LibConv2DBiasOp) {
        return convCall(kConvForwardBiasCall, op, 0, 1, 3);
      })
      .Case([&](mdl::LibConv2DGradInputOp) {
        return convCall(kConvBackwardDataCall, op, 2, 1, 0);
      })
      .Case([&](mdl::LibConv2DGradWeightOp) {
        return convCall(kConvBackwardWeightsCall, op, 0, 2, 1);
      })
      .Case([&](mdl::LibMaxPool2DOp) {
        return poolCall(kMaxPoolForwardCall, op, 0, 1);
      })
      .Case([&](mdl::LibMaxPool2DGradOp) {
        return poolCall(kMaxPoolBackwardCall, op, 1, 0);
      })
      .Case([&](mdl::LibAvgPool2DOp) {
        return poolCall(kAvgPoolForwardCall, op, 0, 1);
      })
      .Case([&](mdl::LibAvgPool2DGradOp) {
        return poolCall(kAvgPoolBackwardCall, op, 1, 0);
      })
      .Case([&](mdl::LibEmbeddingGradOp e) {
        bool wide = cast<MemRefType>(e.getIndices().getType())
                        .getElementType()
                        .isInteger(64);
        return RuntimeCall{wide ? kEmbeddingBackwardI64Call
                                : kEmbeddingBackwardI32Call,
                           op->getOperand(1), Value(), op->getOperand(2)};
      })
      .Case([&](mdl::LibAttentionOp) {
        return RuntimeCall{kAttentionForwardCall, op->getOperand(0),
                           op->getOperand(1), Value()};
      })
      .Case([&](mdl::LibAttentionGradOp) {
        return RuntimeCall{kAttentionBackwardCall, op->getOperand(0),
                           op->getOperand(1), Value()};
      })
      .Case([&](mdl::LibAttentionPackedOp) {
        return RuntimeCall{kAttentionPackedForwardCall, op->getOperand(0),
                           Value(), Value()};
      })
      .Case([&](mdl::LibAttentionPackedGradOp) {
        return RuntimeCall{kAttentionPackedBackwardCall, op->getOperand(0),
                           Value(), Value()};
      })
      .Case([&](mdl::LibAttentionDecodeOp) {
        return RuntimeCall{kAttentionDecodeCall, op->getOperand(0),
                           op->getOperand(1), Value()};
      })
      .Case([&](mdl::LibSumRanksOp) {
        return RuntimeCall{kSumRanksCall, op->getOperand(0), Value(),
                           op->getOperand(1)};
      })
      .Default([](Operation *) { return RuntimeCall(); });
}

namespace {

/// The cuDNN entry point of the convolution `op` in \p precision ("f32",
/// "tf32" or "bf16"); empty for any other op.
StringRef cudaConvCallee(Operation *op, StringRef precision) {
  int form = precision == "bf16" ? 2 : precision == "tf32" ? 1 : 0;
  const StringLiteral forward[] = {kCudaConvForwardCall, kCudaConvForwardTf32Call,
                                   kCudaConvForwardBf16Call};
  const StringLiteral data[] = {kCudaConvBackwardDataCall, kCudaConvBackwardDataTf32Call,
                                kCudaConvBackwardDataBf16Call};
  const StringLiteral weights[] = {kCudaConvBackwardWeightsCall,
                                   kCudaConvBackwardWeightsTf32Call,
                                   kCudaConvBackwardWeightsBf16Call};
  return TypeSwitch<Operation *, StringRef>(op)
      .Case([&](mdl::LibConv2DOp) { return forward[form]; })
      .Case([&](mdl::LibConv2DGradInputOp) { return data[form]; })
      .Case([&](mdl::LibConv2DGradWeightOp) { return weights[form]; })
      .Default([](Operation *) { return StringRef(); });
}

/// The GPU entry point of `op`: the fused attention kernels' (the GPU
/// pipeline keeps the convolutions for cuDNN and expands every other
/// library op); the callee is empty for any other op.
RuntimeCall describeForGpu(Operation *op) {
  RuntimeCall c = describe(op);
  c.callee = TypeSwitch<Operation *, StringRef>(op)
                 .Case([](mdl::LibAttentionOp) { return kCudaAttentionForwardCall; })
                 .Case([](mdl::LibAttentionGradOp) { return kCudaAttentionBackwardCall; })
                 .Case([](mdl::LibAttentionPackedOp) {
                   return kCudaAttentionPackedForwardCall;
                 })
                 .Case([](mdl::LibAttentionPackedGradOp) {
                   return kCudaAttentionPackedBackwardCall;
                 })
                 .Default([](Operation *) { return StringRef(); });
  return c;
}

/// How many i64 sizes follow the pointers in the runtime's signature for
/// `op` (each family's count is its *NumSizes enumerator).
unsigned numSizes(Operation *op, const RuntimeCall &c) {
  if (isa<mdl::LibEmbeddingGradOp>(op))
    return EmbeddingNumSizes;
  if (isa<mdl::LibAttentionOp, mdl::LibAttentionGradOp>(op))
    return AttentionNumSizes;
  if (isa<mdl::LibAttentionPackedOp, mdl::LibAttentionPackedGradOp>(op))
    return PackedNumSizes;
  if (isa<mdl::LibAttentionDecodeOp>(op))
    return DecodeNumSizes;
  if (isa<mdl::LibSumRanksOp>(op))
    return 1;
  return c.weight ? unsigned(ConvNumSizes) : unsigned(PoolNumSizes);
}

/// The runtime's signature for `op`: one pointer per operand (and the
/// codes' after y for a max pooling with codes), then the sizes as i64.
FunctionType callType(MLIRContext *ctx, Operation *op, const RuntimeCall &c) {
  bool codesAdded = c.codes && isa<mdl::LibMaxPool2DOp>(op); // after y
  SmallVector<Type> args(op->getNumOperands() + codesAdded, LLVM::LLVMPointerType::get(ctx));
  args.append(numSizes(op, c), IntegerType::get(ctx, 64));
  return FunctionType::get(ctx, args, {});
}

} // namespace

/// `buffer` itself when its layout is the identity, else a fresh dense copy
/// (`copyIn`: of its contents; otherwise uninitialised).
Value denseBuffer(OpBuilder &b, Location loc, Value buffer, bool copyIn) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getLayout().isIdentity())
    return buffer;
  auto dense = MemRefType::get(type.getShape(), type.getElementType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(memref::DimOp::create(b, loc, buffer, i));
  Value copy = memref::AllocOp::create(b, loc, dense, sizes);
  if (copyIn)
    memref::CopyOp::create(b, loc, buffer, copy);
  return copy;
}

namespace {

/// Dimension `dim` of `memref` as an i64.
Value dim64(OpBuilder &b, Location loc, Value memref, int64_t dim) {
  Value size = memref::DimOp::create(b, loc, memref, dim);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
}

} // namespace

/// The call's sizes in ConvCallSize, PoolCallSize or EmbeddingCallSize
/// order, from the
/// operands' shapes and the op's window attributes.
SmallVector<Value> callSizes(OpBuilder &b, Location loc, Operation *op,
                             const RuntimeCall &c) {
  SmallVector<Value> sizes;
  if (isa<mdl::LibEmbeddingGradOp>(op)) // grad S x D, table N x D
    return {dim64(b, loc, c.input, 0), dim64(b, loc, c.input, 1),
            dim64(b, loc, c.output, 0)};
  if (isa<mdl::LibAttentionOp, mdl::LibAttentionGradOp>(op)) { // q, k
    bool causal = cast<BoolAttr>(op->getAttr("causal")).getValue();
    return {dim64(b, loc, c.input, 0), dim64(b, loc, c.input, 1),
            dim64(b, loc, c.input, 2), dim64(b, loc, c.weight, 2),
            dim64(b, loc, c.input, 3),
            arith::ConstantIntOp::create(b, loc, b.getI64Type(), causal)};
  }
  if (isa<mdl::LibAttentionPackedOp, mdl::LibAttentionPackedGradOp>(op)) {
    bool causal = cast<BoolAttr>(op->getAttr("causal")).getValue();
    return {dim64(b, loc, c.input, 0), dim64(b, loc, c.input, 3), // qkv
            dim64(b, loc, c.input, 1), dim64(b, loc, c.input, 4),
            arith::ConstantIntOp::create(b, loc, b.getI64Type(), causal)};
  }
  if (isa<mdl::LibSumRanksOp>(op)) { // every element
    auto type = cast<MemRefType>(c.input.getType());
    Value n = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1);
    for (int64_t d = 0; d < type.getRank(); ++d)
      n = arith::MulIOp::create(b, loc, n, dim64(b, loc, c.input, d));
    return {n};
  }
  if (isa<mdl::LibAttentionDecodeOp>(op)) // q, the key cache
    return {dim64(b, loc, c.input, 0), dim64(b, loc, c.input, 1),
            dim64(b, loc, c.weight, 2), dim64(b, loc, c.input, 3)};
  for (int64_t d = 0; d < 4; ++d)
    sizes.push_back(dim64(b, loc, c.input, d));
  if (c.weight) {
    for (int64_t d : {0, 2, 3})
      sizes.push_back(dim64(b, loc, c.weight, d));
  }
  for (int64_t d : {2, 3})
    sizes.push_back(dim64(b, loc, c.output, d));
  SmallVector<StringRef> window = {"stride", "padding", "dilation"};
  if (!c.weight)
    window = {"kernel", "stride", "padding"};
  for (StringRef attr : window)
    for (int64_t v : cast<DenseI64ArrayAttr>(op->getAttr(attr)).asArrayRef())
      sizes.push_back(arith::ConstantIntOp::create(b, loc, b.getI64Type(), v));
  return sizes;
}

namespace {

/// Replaces the library op `op` (on memrefs) by its runtime call `c`. The
/// dense copies it makes are freed after the call (the deallocation
/// pipeline has run by then).
void rewriteToCall(Operation *op, const RuntimeCall &c) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  unsigned last = op->getNumOperands() - 1;
  SmallVector<Value> args, dense;
  bool codesForX = c.codes && isa<mdl::LibMaxPool2DGradOp>(op);
  for (unsigned i = 0; i <= last; ++i) {
    Value buffer = op->getOperand(i);
    if (codesForX && i == 1) { // x is not read: no dense copy of it
      dense.push_back(buffer);
      args.push_back(elementPointer(b, loc, c.codes));
      continue;
    }
    dense.push_back(denseBuffer(b, loc, buffer, /*copyIn=*/i < last));
    args.push_back(elementPointer(b, loc, dense.back()));
  }
  if (c.codes && !codesForX) // forwards: the codes after y
    args.push_back(elementPointer(b, loc, c.codes));
  args.append(callSizes(b, loc, op, c));
  func::CallOp::create(b, loc, c.callee, TypeRange{}, args);
  if (dense.back() != op->getOperand(last))
    memref::CopyOp::create(b, loc, dense.back(), op->getOperand(last));
  for (unsigned i = 0; i <= last; ++i)
    if (dense[i] != op->getOperand(i))
      memref::DeallocOp::create(b, loc, dense[i]);
  op->erase();
}

/// The bf16 form of a convolution's entry point; \p callee itself for any
/// other.
StringRef bf16Form(StringRef callee) {
  if (callee == kConvForwardCall)
    return kConvForwardBf16Call;
  if (callee == kConvForwardBiasCall)
    return kConvForwardBiasBf16Call;
  if (callee == kConvBackwardDataCall)
    return kConvBackwardDataBf16Call;
  if (callee == kConvBackwardWeightsCall)
    return kConvBackwardWeightsBf16Call;
  return callee;
}

} // namespace

/// The precision of \p op: its own `mdl.precision` (mdl-assign-precision
/// keeps some convolutions' f32 in a bf16 module), else the module's.
StringRef precisionOf(Operation *op, StringRef modulePrecision) {
  auto own = op->getAttrOfType<StringAttr>("mdl.precision");
  return own ? own.getValue() : modulePrecision;
}

namespace {

struct LibraryToCallsPass
    : impl::LibraryToCallsPassBase<LibraryToCallsPass> {
  using LibraryToCallsPassBase::LibraryToCallsPassBase;

  void runOnOperation() final {
    SmallVector<std::pair<Operation *, RuntimeCall>> work;
    auto precisionAttr = getOperation()->getAttrOfType<StringAttr>("mdl.precision");
    StringRef modulePrecision = precisionAttr ? precisionAttr.getValue() : "f32";
    DenseMap<Operation *, Value> codes;
    SmallVector<FusedCall> fusedCalls;
    if (!gpu)
      codes = pairMaxPools(getOperation());
    if (!gpu && !cudaConvolutions)
      fusedCalls = fusedCallsOf(getOperation(), codes, modulePrecision);
    DenseSet<Operation *> fused;
    for (FusedCall &call : fusedCalls) {
      fused.insert(call.moved.begin(), call.moved.end());
      fused.insert(call.at);
    }
    WalkResult walk = getOperation().walk([&](Operation *op) {
      if (fused.contains(op))
        return WalkResult::advance();
      RuntimeCall c = describe(op);
      if (c.callee.empty())
        return WalkResult::advance();
      if ((c.codes = codes.lookup(op)))
        c.callee = isa<mdl::LibMaxPool2DOp>(op) ? kMaxPoolForwardCodesCall
                                                 : kMaxPoolBackwardCodesCall;
      StringRef precision = precisionOf(op, modulePrecision);
      bool bf16 = precision == "bf16";
      StringRef cudnn = gpu || cudaConvolutions ? cudaConvCallee(op, precision) : "";
      if (!cudnn.empty()) {
        c.callee = cudnn;
      } else if (gpu && (c = describeForGpu(op)).callee.empty()) {
        op->emitOpError("has no GPU entry point: the GPU pipeline expands "
                        "(or splits) it before bufferization");
        return WalkResult::interrupt();
      } else if (bf16 && !gpu) {
        c.callee = bf16Form(c.callee);
      }
      if (op->getNumResults() != 0) {
        op->emitOpError("is still on tensors: library calls are made after "
                        "bufferization");
        return WalkResult::interrupt();
      }
      work.emplace_back(op, c);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (auto &[op, c] : work)
      if (failed(declareLibraryFunction(getOperation(), c.callee,
                                        callType(&getContext(), op, c),
                                        "the runtime's")))
        return signalPassFailure();
    for (const FusedCall &call : fusedCalls)
      if (failed(declareLibraryFunction(getOperation(), call.callee,
                                        fusedCallType(&getContext(), call), "the runtime's")))
        return signalPassFailure();
    for (auto &[op, c] : work)
      rewriteToCall(op, c);
    for (FusedCall &call : fusedCalls)
      rewriteFused(call, codes.lookup(isa<mdl::LibMaxPool2DOp>(call.at) ? call.at
                                                                          : call.moved.front()));
  }
};

} // namespace

} // namespace modelc
