//===- KernelProfile.cpp - Profiling hooks around outlined kernels --------===//
//
// Implements the instrumentation half of `modelc-outline-kernels`: the
// declarations of the runtime hooks (runtime/include/modelrt/core/Profile.h),
// the per-call FLOP and byte counts of a kernel, and the enter/exit calls
// around a kernel call. The hooks return at once unless the executable runs
// with `--profile`, so instrumented code costs two calls per kernel.
//
//===----------------------------------------------------------------------===//
#include "KernelProfile.h"
#include "modelc/Transforms/CPU/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace modelc {

static constexpr StringLiteral EnterName = "modelrt_kernel_enter";
static constexpr StringLiteral ExitName = "modelrt_kernel_exit";

/// Arithmetic operations in one iteration of a linalg payload: arith and
/// math ops other than constants, casts and index computations.
static int64_t payloadOps(linalg::LinalgOp op) {
  int64_t n = 0;
  op->walk([&](Operation *inner) {
    if (inner == op.getOperation())
      return;
    if (!isa<arith::ArithDialect, math::MathDialect>(inner->getDialect()))
      return;
    if (isa<arith::ConstantOp, arith::IndexCastOp, arith::IndexCastUIOp,
            arith::BitcastOp>(inner))
      return;
    if (llvm::all_of(inner->getResultTypes(),
                     [](Type t) { return t.isIndex(); }))
      return;
    ++n;
  });
  return n;
}

/// Multiplies `value` (index or integer) into the i64 `acc`.
static Value mulInto(OpBuilder &b, Location loc, Value acc, Value value) {
  if (value.getType().isIndex())
    value = arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
  else if (value.getType() != b.getI64Type())
    value = arith::ExtSIOp::create(b, loc, b.getI64Type(), value);
  return arith::MulIOp::create(b, loc, acc, value);
}

namespace {
/// A library call's FLOP count: `factor` times the product of the operands
/// at `sizes`; no sizes for a call of anything else.
struct CallFlops {
  int64_t factor = 0;
  SmallVector<unsigned> sizes;
};

/// cblas_sgemm: 2 M N K; a convolution: 2 N O OH OW C KH KW (a multiply
/// and an add each), twice that for both gradients in one call; a pooling
/// op: N C OH OW KH KW (one operation per window element); attention: 4 B
/// H Tq Tk D forward (two products), 10 backward (five), not halved by a
/// causal mask (packed: Tq = Tk = T).
CallFlops callFlops(func::CallOp call) {
  StringRef callee = call.getCallee();
  unsigned pointers = llvm::count_if(call.getOperandTypes(), [](Type t) {
    return isa<LLVM::LLVMPointerType>(t);
  });
  auto after = [&](int64_t factor, std::initializer_list<unsigned> sizes) {
    CallFlops f{factor, {}};
    for (unsigned s : sizes)
      f.sizes.push_back(pointers + s);
    return f;
  };
  if ((callee == "cblas_sgemm" || callee == kGemmBf16Call) &&
      call.getNumOperands() >= 6)
    return {2, {3, 4, 5}};
  if (callee.starts_with(kConvCallPrefix) &&
      call.getNumOperands() == pointers + ConvNumSizes)
    return after(callee == kConvBackwardCall || callee == kConvBackwardBf16Call ||
                         callee == kConvBackwardFromMaxPoolCall ||
                         callee == kConvBackwardFromMaxPoolBf16Call
                     ? 4
                     : 2,
                 {ConvN, ConvO, ConvOH, ConvOW, ConvC, ConvKH, ConvKW});
  if ((callee.starts_with(kMaxPoolCallPrefix) ||
       callee.starts_with(kAvgPoolCallPrefix)) &&
      call.getNumOperands() == pointers + PoolNumSizes)
    return after(1, {PoolN, PoolC, PoolOH, PoolOW, PoolKH, PoolKW});
  if ((callee == kAttentionPackedForwardCall ||
       callee == kAttentionPackedBackwardCall) &&
      call.getNumOperands() == pointers + PackedNumSizes)
    return after(callee == kAttentionPackedForwardCall ? 4 : 10,
                 {PackedBatch, PackedHeads, PackedLength, PackedLength,
                  PackedWidth});
  if (callee.starts_with(kAttentionCallPrefix) &&
      call.getNumOperands() == pointers + AttentionNumSizes)
    return after(callee == kAttentionForwardCall ? 4 : 10,
                 {AttentionBatch, AttentionHeads, AttentionQueries,
                  AttentionKeys, AttentionWidth});
  return {};
}
} // namespace

Value emitKernelFlops(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  };
  if (auto call = dyn_cast<func::CallOp>(op)) {
    CallFlops flops = callFlops(call);
    if (flops.sizes.empty())
      return constant(0);
    Value acc = constant(flops.factor);
    for (unsigned i : flops.sizes)
      acc = mulInto(b, loc, acc, call.getOperand(i));
    return acc;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  int64_t perPoint = linalgOp ? payloadOps(linalgOp) : 0;
  if (perPoint == 0)
    return constant(0);
  Value acc = constant(perPoint);
  for (Range range : linalgOp.createLoopRanges(b, loc)) {
    Value size = getValueOrCreateConstantIndexOp(b, loc, range.size);
    acc = mulInto(b, loc, acc, size);
  }
  return acc;
}

/// The memref whose element pointer \p v is (LibraryCalls.cpp's
/// elementPointer: extract_aligned_pointer_as_index, an offset, a cast and
/// inttoptr), searched a few definitions back; null when none.
static Value pointerSource(Value v, unsigned depth = 5) {
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0)
    return {};
  if (auto aligned = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(def))
    return aligned.getSource();
  for (Value operand : def->getOperands())
    if (Value source = pointerSource(operand, depth - 1))
      return source;
  return {};
}

/// The buffers kernel \p op reads or writes, each once: its memref operands
/// and the memrefs its regions use from above; for a library call, the
/// memrefs its pointer arguments point into.
static llvm::SetVector<Value> kernelBuffers(Operation *op) {
  llvm::SetVector<Value> used, buffers;
  for (Value v : op->getOperands())
    used.insert(v);
  for (Region &r : op->getRegions())
    getUsedValuesDefinedAbove(r, used);
  for (Value v : used) {
    if (isa<MemRefType>(v.getType()))
      buffers.insert(v);
    else if (isa<LLVM::LLVMPointerType>(v.getType()))
      if (Value source = pointerSource(v))
        buffers.insert(source);
  }
  return buffers;
}

Value emitKernelBytes(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  Value total;
  for (Value buffer : kernelBuffers(op)) {
    auto type = cast<MemRefType>(buffer.getType());
    int64_t fixed = std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
    for (int64_t d : type.getShape())
      fixed *= ShapedType::isDynamic(d) ? 1 : d;
    Value bytes =
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), fixed);
    for (unsigned i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        bytes = mulInto(b, loc, bytes,
                        memref::DimOp::create(b, loc, buffer, i));
    total = total ? arith::AddIOp::create(b, loc, total, bytes).getResult()
                  : bytes;
  }
  if (!total) // no buffer
    total = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  return total;
}

void declareProfileHooks(ModuleOp module) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  auto declare = [&](StringRef name, TypeRange args) {
    if (module.lookupSymbol(name))
      return;
    auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                   b.getFunctionType(args, {}));
    fn.setPrivate();
  };
  declare(EnterName, {ptr});
  declare(ExitName, {ptr, b.getI64Type(), b.getI64Type()});
}

void instrumentKernelCall(func::CallOp call, StringRef site, StringRef label,
                          Value flops, Value bytes) {
  OpBuilder b(call);
  Location loc = call.getLoc();
  std::string global = ("__modelc_kernel_" + site).str();
  for (char &c : global)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  std::string text = label.str();
  text.push_back('\0'); // the runtime reads a C string
  Value name = LLVM::createGlobalString(loc, b, global, text,
                                        LLVM::Linkage::Internal);
  func::CallOp::create(b, loc, EnterName, TypeRange{}, ValueRange{name});
  b.setInsertionPointAfter(call);
  func::CallOp::create(b, loc, ExitName, TypeRange{},
                       ValueRange{name, flops, bytes});
}

} // namespace modelc
