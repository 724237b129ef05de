//===- ParallelKernelCalls.cpp - Part calls -> modelrt_parallel_for -------===//
//
// Implements the `modelc-parallel-kernel-calls` pass, on the LLVM dialect.
// Every call
//   llvm.call @P(%begin, %end, %work, %a0, ..., %an)
// to a function marked `modelc.parallel_part` (modelc-parallel-kernel-loops)
// becomes
//   store %a0..%an into a stack struct %ctx (its alloca in the entry block)
//   llvm.call @modelrt_parallel_for(@P.run, %ctx, %begin, %end, %work)
// where the new internal function
//   @P.run(%ctx: !llvm.ptr, %begin: i64, %end: i64)
// loads the arguments back and calls @P over [begin, end). The runtime
// (runtime/include/modelrt/core/Parallel.h) runs @P.run once over the whole
// range, or over two halves on two cores. The part loses its mark, so the
// pass does nothing when it runs again.
//
//===----------------------------------------------------------------------===//
#include "ParallelKernels.h"
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_PARALLELKERNELCALLSPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// The runtime function that runs a part over a range (Parallel.h).
constexpr const char *kRuntimeEntry = "modelrt_parallel_for";

/// `void modelrt_parallel_for(ptr fn, ptr ctx, i64 begin, i64 end, i64 work)`,
/// declared in \p module if it is not yet.
LLVM::LLVMFuncOp runtimeEntry(ModuleOp module) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kRuntimeEntry))
    return fn;
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, ptr, i64, i64, i64});
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), kRuntimeEntry, type);
}

/// `@<part>.run(ctx, begin, end)`: loads the captured arguments of \p part
/// (their struct type \p frame) from ctx and calls it.
LLVM::LLVMFuncOp trampoline(LLVM::LLVMFuncOp part, LLVM::LLVMStructType frame) {
  MLIRContext *ctx = part.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  Location loc = part.getLoc();
  OpBuilder b(part);
  b.setInsertionPointAfter(part);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, i64, i64});
  auto run = LLVM::LLVMFuncOp::create(b, loc, (part.getSymName() + ".run").str(), type,
                                      LLVM::Linkage::Internal);
  Block *body = run.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  SmallVector<Value> args = {body->getArgument(1), body->getArgument(2)};
  Value zeroWork = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0));
  args.push_back(zeroWork);
  for (auto [i, t] : llvm::enumerate(frame.getBody())) {
    Value field = LLVM::GEPOp::create(b, loc, ptr, frame, body->getArgument(0),
                                      ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
    args.push_back(LLVM::LoadOp::create(b, loc, t, field));
  }
  LLVM::CallOp::create(b, loc, part, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return run;
}

/// Rewrites one call to a part function; see the file comment.
LogicalResult rewriteCall(LLVM::CallOp call, LLVM::LLVMFuncOp part, ModuleOp module,
                          SymbolTable &symbols) {
  OperandRange operands = call.getArgOperands();
  if (operands.size() < 3)
    return call.emitError("a parallel part takes (begin, end, work, ...), this call has ")
           << operands.size() << " operands";
  MLIRContext *ctx = call.getContext();
  Location loc = call.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> fields;
  for (Value v : operands.drop_front(3))
    fields.push_back(v.getType());
  auto frame = LLVM::LLVMStructType::getLiteral(ctx, fields);
  auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&caller.getBody().front());
  Value one = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
  Value frameMem = LLVM::AllocaOp::create(b, loc, ptr, frame, one);
  b.setInsertionPoint(call);
  for (auto [i, v] : llvm::enumerate(operands.drop_front(3))) {
    Value field = LLVM::GEPOp::create(b, loc, ptr, frame, frameMem,
                                      ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
    LLVM::StoreOp::create(b, loc, v, field);
  }
  std::string runName = (part.getSymName() + ".run").str();
  auto run = symbols.lookup<LLVM::LLVMFuncOp>(runName);
  if (!run) {
    run = trampoline(part, frame);
    symbols.insert(run);
  }
  Value fn = LLVM::AddressOfOp::create(b, loc, ptr, run.getSymName());
  ValueRange range = operands.take_front(3);
  LLVM::CallOp::create(b, loc, runtimeEntry(module),
                       ValueRange{fn, frameMem, range[0], range[1], range[2]});
  call.erase();
  return success();
}

/// The pass: see the file comment.
struct ParallelKernelCallsPass
    : impl::ParallelKernelCallsPassBase<ParallelKernelCallsPass> {
  using ParallelKernelCallsPassBase::ParallelKernelCallsPassBase;
  void runOnOperation() final {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<LLVM::CallOp, LLVM::LLVMFuncOp>> calls;
    module.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee)
        return;
      auto fn = symbols.lookup<LLVM::LLVMFuncOp>(*callee);
      if (fn && fn->hasAttr(kParallelPartAttr))
        calls.push_back({call, fn});
    });
    for (auto [call, fn] : calls)
      if (failed(rewriteCall(call, fn, module, symbols)))
        return signalPassFailure();
    // Rewritten parts are ordinary functions now: a second run of the pass
    // must not turn their trampolines' calls into parallel calls again.
    for (auto [call, fn] : calls)
      fn->removeAttr(kParallelPartAttr);
  }
};

} // namespace

} // namespace modelc
