//===- FusedCalls.cpp - Runtime calls that replace several library ops ----===//
//
// Implements FusedCalls.h. Each call's arguments are the element pointers
// of its inputs (dense copies of strided ones), of its outputs (dense
// buffers, copied back after the call), then the convolution's sizes
// (RuntimeCalls.h):
//   a convolution and its pooling      (x, w, bias, y, pooled, codes|null)
//   a convolution's two gradients      (dy, x, w, dx, dw)
//   a pooling's gradient and the       (pooled dy, codes, x, w, dy, dx, dw),
//   convolution's gradients            or (pooled dy, codes, x, dy, dw)
// where y and the convolution's dy are scratch the runtime may leave
// unwritten.
//
//===----------------------------------------------------------------------===//
#include "FusedCalls.h"
#include "ConvBackward.h"
#include "ConvFromMaxPool.h"
#include "ConvMaxPool.h"
#include "LibraryToCalls.h"
#include "modelc/Transforms/CPU/RuntimeCalls.h"
#include "modelc/Transforms/Linalg/LibraryCalls.h"

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace modelc {
namespace {

/// Emits one call of \p callee: the element pointers of \p inputs (dense
/// copies of strided ones) and \p outputs (dense buffers, copied back
/// after the call), then those of \p extra (dense memrefs; a null pointer
/// for a null value), then \p sizes; frees the copies.
void emitCall(OpBuilder &b, Location loc, StringRef callee, ValueRange inputs,
              ValueRange outputs, ArrayRef<Value> extra, ValueRange sizes) {
  SmallVector<Value> args, dense;
  for (Value v : inputs)
    dense.push_back(denseBuffer(b, loc, v, /*copyIn=*/true));
  for (Value v : outputs)
    dense.push_back(denseBuffer(b, loc, v, /*copyIn=*/false));
  for (Value v : dense)
    args.push_back(elementPointer(b, loc, v));
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  for (Value v : extra)
    args.push_back(v ? elementPointer(b, loc, v) : LLVM::ZeroOp::create(b, loc, ptr).getResult());
  llvm::append_range(args, sizes);
  func::CallOp::create(b, loc, callee, TypeRange{}, args);
  for (auto [i, original] : llvm::enumerate(llvm::concat<Value>(inputs, outputs))) {
    if (dense[i] == original)
      continue;
    if (i >= inputs.size())
      memref::CopyOp::create(b, loc, dense[i], original);
    memref::DeallocOp::create(b, loc, dense[i]);
  }
}

/// The input gradient among \p call's moved ops, or null.
mdl::LibConv2DGradInputOp inputGradientOf(const FusedCall &call) {
  for (Operation *op : call.moved)
    if (auto data = dyn_cast<mdl::LibConv2DGradInputOp>(op))
      return data;
  return {};
}

/// The memrefs whose element pointers a fused call passes, in order.
struct CallOperands {
  SmallVector<Value> inputs;  ///< copied in when strided
  SmallVector<Value> outputs; ///< copied back when strided
  SmallVector<Value> extra;   ///< passed as they are; null for a null pointer
};

/// \p call's operands (FusedCalls.cpp's header lists them), with \p codes
/// (a max pooling's, or null).
CallOperands operandsOf(const FusedCall &call, Value codes) {
  if (auto pool = dyn_cast<mdl::LibMaxPool2DOp>(call.at))
    return {llvm::to_vector(call.moved.front()->getOperands()), {pool.getInit()}, {codes}};
  auto weights = cast<mdl::LibConv2DGradWeightOp>(call.at);
  mdl::LibConv2DGradInputOp data = inputGradientOf(call);
  if (!isa<mdl::LibMaxPool2DGradOp>(call.moved.front()))
    return {{data.getGrad(), weights.getInput(), data.getWeight()},
            {data.getInit(), weights.getInit()},
            {}};
  CallOperands ops{{call.moved.front()->getOperand(0), codes, weights.getInput()},
                   {weights.getInit()},
                   {}};
  if (data) {
    ops.inputs.push_back(data.getWeight());
    ops.outputs.insert(ops.outputs.begin(), data.getInit());
  }
  ops.inputs.push_back(weights.getGrad()); // the convolution's dy: scratch
  return ops;
}

} // namespace

FunctionType fusedCallType(MLIRContext *ctx, const FusedCall &call) {
  CallOperands ops = operandsOf(call, Value());
  SmallVector<Type> args(ops.inputs.size() + ops.outputs.size() + ops.extra.size(),
                         LLVM::LLVMPointerType::get(ctx));
  args.append(ConvNumSizes, IntegerType::get(ctx, 64));
  return FunctionType::get(ctx, args, {});
}

void rewriteFused(const FusedCall &call, Value codes) {
  OpBuilder b(call.at);
  SmallVector<Location> locs;
  for (Operation *op : call.moved)
    locs.push_back(op->getLoc());
  locs.push_back(call.at->getLoc());
  Location loc = FusedLoc::get(b.getContext(), locs);
  Operation *sized = isa<mdl::LibMaxPool2DOp>(call.at) ? call.moved.front() : call.at;
  SmallVector<Value> sizes = callSizes(b, loc, sized, describe(sized));
  CallOperands ops = operandsOf(call, codes);
  emitCall(b, loc, call.callee, ops.inputs, ops.outputs, ops.extra, sizes);
  if (codes && isa<mdl::LibMaxPool2DGradOp>(call.moved.front()))
    for (Operation *user : llvm::make_early_inc_range(codes.getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->moveBefore(call.at); // after the call: it reads the codes
  call.at->erase();
  for (Operation *op : call.moved)
    op->erase();
}

SmallVector<FusedCall> fusedCallsOf(ModuleOp module, const DenseMap<Operation *, Value> &codes,
                                    StringRef modulePrecision) {
  DenseMap<Operation *, mdl::LibConv2DBiasOp> convs = pairConvPools(module, codes);
  DenseMap<Operation *, mdl::LibConv2DGradInputOp> grads = pairConvGrads(module);
  auto precision = [&](Operation *op) { return precisionOf(op, modulePrecision); };
  DenseMap<Operation *, mdl::LibMaxPool2DGradOp> pools =
      pairPoolGradConvs(module, codes, grads, precision);
  SmallVector<FusedCall> ordered;
  module.walk([&](Operation *op) {
    if (mdl::LibConv2DBiasOp conv = convs.lookup(op)) {
      bool bf16 = precisionOf(conv, modulePrecision) == "bf16";
      ordered.push_back({{conv}, op, bf16 ? kConvForwardBiasMaxPoolBf16Call
                                          : kConvForwardBiasMaxPoolCall});
      return;
    }
    bool bf16 = precisionOf(op, modulePrecision) == "bf16";
    mdl::LibConv2DGradInputOp data = grads.lookup(op);
    if (mdl::LibMaxPool2DGradOp pool = pools.lookup(op)) {
      StringRef callee = data ? (bf16 ? kConvBackwardFromMaxPoolBf16Call
                                      : kConvBackwardFromMaxPoolCall)
                              : (bf16 ? kConvBackwardWeightsFromMaxPoolBf16Call
                                      : kConvBackwardWeightsFromMaxPoolCall);
      FusedCall call{{pool}, op, callee};
      if (data)
        call.moved.push_back(data);
      ordered.push_back(call);
    } else if (data) {
      ordered.push_back({{data}, op, bf16 ? kConvBackwardBf16Call : kConvBackwardCall});
    }
  });
  return ordered;
}

} // namespace modelc
