//===- Adapters.cpp - Runtime entry points calling the compiled kernels ---===//
//
// Emits, with IRBuilder, `modelc_train_step`, `modelc_eval_step`,
// `modelc_predict` and `modelc_decode_step` (CPU only, when the model has a
// decoding step) with the exact signatures of ModelrtTrainStepFn,
// ModelrtEvalStepFn, ModelrtPredictFn and ModelrtDecodeStepFn
// (modelrt/core/Program.h).
// Each builds one memref descriptor {allocated, aligned, offset, sizes[R],
// strides[R]} per kernel argument/result on its stack (dense row-major,
// dimension 0 = `batch` where dynamic), calls `_mlir_ciface_<fn>`, then
// converts: a loss sum becomes the batch mean, a correct count is added to
// metric_sums[0], state outputs (written to scratch buffers so they never
// alias the state inputs) are copied back into the runtime's state. A
// decoding step's caches are the runtime's buffers for both the argument
// and the result: the lowered step writes the position's rows into the
// argument in place and copies it onto the result, i.e. onto itself.
//
// The GPU adapters (`modelc_gpu_*`, calling `_mlir_ciface_gpu_<fn>`) take
// device pointers for tensors. Their scalar results live in the runtime's
// device scratch cells (modelrt_cuda_scratch), all fetched with one copy and
// one wait (modelrt_cuda_fetch_scratch) before the same conversions; state
// outputs go through a device buffer; the seed is written into its own
// device cell (modelrt_cuda_seed_cell), which the kernels read; the adapter
// returns modelrt_cuda_status(), non-zero after any CUDA error. The GPU
// training step also comes in two halves for CUDA graphs:
// `modelc_gpu_train_enqueue` (the kernel call and the state copies: device
// work only, nothing waited for) and `modelc_gpu_train_finish` (the fetch of
// the scalar cells and the conversions); `modelc_gpu_train_step` calls both.
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/ProgramEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/IRBuilder.h"

using namespace modelc;

namespace {
/// Device scratch cells for a program's scalar results (modelrt/cuda/GpuAbi.h:
/// 64 cells, the last two the runtime's: the gradients' norm and the seed).
constexpr int32_t kProgramScratchCells = 62;

/// The runtime's raw arguments available to one adapter (null if absent).
struct RawArgs {
  llvm::Value *params = nullptr, *state = nullptr, *inputs = nullptr,
              *labels = nullptr, *batch = nullptr, *seed = nullptr,
              *loss = nullptr, *grads = nullptr, *metrics = nullptr,
              *outputs = nullptr, *caches = nullptr, *position = nullptr;
};

/// Work to do after the kernel returns.
struct Fixup {
  SlotKind kind;
  llvm::Value *scratch;   ///< the kernel's result buffer (device on the GPU)
  llvm::Value *dest;      ///< state pointer for StateOut
  llvm::Value *bytes;     ///< size for StateOut
  int32_t slot = -1;      ///< the scratch cell's index (GPU scalars)
};

class AdapterBuilder {
public:
  AdapterBuilder(llvm::Module &m, llvm::IRBuilder<> &b, bool gpu)
      : m(m), b(b), gpu(gpu) {}

  /// Emits the kernel call for `abi` with `raw` and the copies of its state
  /// outputs; fails when a slot has nothing to read from. The conversions
  /// of the scalar results are left in `scalars` for emitScalarFixups.
  llvm::Error emitCall(const EntryAbi &abi, const RawArgs &raw,
                       std::vector<Fixup> &scalars);
  /// Fetches the scalar results (GPU: one copy of the scratch cells) and
  /// converts them into the runtime's loss and metric sums.
  void emitScalarFixups(const std::vector<Fixup> &scalars, const RawArgs &raw);
  /// The number of device scratch cells used so far.
  int32_t scratchCells() const { return nextScratch; }

private:
  llvm::Module &m;
  llvm::IRBuilder<> &b;
  bool gpu;                 ///< device pointers, `gpu_` kernels
  int32_t nextScratch = 0;  ///< next device scratch cell (GPU)
  llvm::Type *i64() { return b.getInt64Ty(); }
  /// A device scratch cell for one scalar result (GPU).
  llvm::Value *deviceScratch();
  llvm::Value *slotData(const AbiSlot &s, const RawArgs &raw,
                        std::vector<Fixup> &fixups);
  llvm::Value *descriptor(const AbiSlot &s, llvm::Value *data,
                          llvm::Value *batch);
  llvm::Value *elementCount(const AbiSlot &s, llvm::Value *batch);
  llvm::Value *tableEntry(llvm::Value *table, unsigned index) {
    llvm::Value *p = b.CreateConstGEP1_64(b.getPtrTy(), table, index);
    return b.CreateLoad(b.getPtrTy(), p);
  }
  /// Copies the state outputs into the runtime's state and frees their
  /// buffers.
  void emitStateFixups(const std::vector<Fixup> &fixups, const RawArgs &raw);
};
} // namespace

static unsigned elementBytes(AbiType t) {
  return t == AbiType::F32 || t == AbiType::I32 ? 4 : 8;
}

llvm::Value *AdapterBuilder::elementCount(const AbiSlot &s,
                                          llvm::Value *batch) {
  int64_t n = 1;
  bool dynamic = false;
  for (int64_t d : s.shape)
    d < 0 ? void(dynamic = true) : void(n *= d);
  llvm::Value *count = b.getInt64(n);
  return dynamic ? b.CreateMul(count, batch) : count;
}

llvm::Value *AdapterBuilder::descriptor(const AbiSlot &s, llvm::Value *data,
                                        llvm::Value *batch) {
  llvm::SmallVector<llvm::Type *> fields{b.getPtrTy(), b.getPtrTy(), i64()};
  if (s.rank > 0) {
    fields.push_back(llvm::ArrayType::get(i64(), s.rank));
    fields.push_back(llvm::ArrayType::get(i64(), s.rank));
  }
  auto *type = llvm::StructType::get(b.getContext(), fields);
  llvm::Value *desc = b.CreateAlloca(type);
  b.CreateStore(data, b.CreateStructGEP(type, desc, 0));
  b.CreateStore(data, b.CreateStructGEP(type, desc, 1));
  b.CreateStore(b.getInt64(0), b.CreateStructGEP(type, desc, 2));
  llvm::Value *stride = b.getInt64(1);
  for (int d = int(s.rank) - 1; d >= 0; --d) {
    llvm::Value *size = s.shape[d] < 0 ? batch : b.getInt64(s.shape[d]);
    b.CreateStore(size, b.CreateInBoundsGEP(type, desc,
                                            {b.getInt32(0), b.getInt32(3),
                                             b.getInt32(d)}));
    b.CreateStore(stride, b.CreateInBoundsGEP(type, desc,
                                              {b.getInt32(0), b.getInt32(4),
                                               b.getInt32(d)}));
    stride = b.CreateMul(stride, size);
  }
  return desc;
}

llvm::Value *AdapterBuilder::slotData(const AbiSlot &s, const RawArgs &raw,
                                      std::vector<Fixup> &fixups) {
  switch (s.kind) {
  case SlotKind::Input:
    return raw.inputs;
  case SlotKind::Labels:
    return raw.labels;
  case SlotKind::Seed: {
    if (gpu) // a device cell, which the kernels read (modelc-gpu-sink-scalars)
      return b.CreateCall(m.getOrInsertFunction("modelrt_cuda_seed_cell", b.getPtrTy(), i64()),
                          {raw.seed ? raw.seed : b.getInt64(0)});
    llvm::Value *cell = b.CreateAlloca(i64());
    b.CreateStore(raw.seed ? raw.seed : b.getInt64(0), cell);
    return cell;
  }
  case SlotKind::Param:
    return raw.params ? tableEntry(raw.params, s.index) : nullptr;
  case SlotKind::StateIn:
    return raw.state ? tableEntry(raw.state, s.index) : nullptr;
  case SlotKind::Loss:
    if (gpu && raw.loss) {
      int32_t slot = nextScratch;
      llvm::Value *cell = deviceScratch();
      fixups.push_back({s.kind, cell, nullptr, nullptr, slot});
      return cell;
    }
    return raw.loss;
  case SlotKind::Grad:
    return raw.grads ? tableEntry(raw.grads, s.index) : nullptr;
  case SlotKind::Output:
    return raw.outputs;
  case SlotKind::Position: {
    if (!raw.position)
      return nullptr;
    llvm::Value *cell = b.CreateAlloca(i64());
    b.CreateStore(raw.position, cell);
    return cell;
  }
  case SlotKind::CacheIn:
  case SlotKind::CacheOut: // the same buffer: the step updates it in place
    return raw.caches ? tableEntry(raw.caches, s.index) : nullptr;
  case SlotKind::LossSum:
  case SlotKind::Correct: {
    llvm::Type *t = s.kind == SlotKind::LossSum
                        ? static_cast<llvm::Type *>(b.getFloatTy())
                        : i64();
    if (s.type != (s.kind == SlotKind::LossSum ? AbiType::F32 : AbiType::I64))
      return nullptr;
    int32_t slot = gpu ? nextScratch : -1;
    llvm::Value *cell = gpu ? deviceScratch() : b.CreateAlloca(t);
    fixups.push_back({s.kind, cell, nullptr, nullptr, slot});
    return cell;
  }
  case SlotKind::StateOut: {
    if (!raw.state)
      return nullptr;
    llvm::Value *bytes = b.getInt64(int64_t(elementBytes(s.type)));
    bytes = b.CreateMul(bytes, elementCount(s, raw.batch));
    llvm::FunctionCallee mallocFn =
        gpu ? m.getOrInsertFunction("modelrt_cuda_alloc", b.getPtrTy(), i64())
            : m.getOrInsertFunction("malloc", b.getPtrTy(), i64());
    llvm::Value *scratch = b.CreateCall(mallocFn, {bytes});
    fixups.push_back({s.kind, scratch, tableEntry(raw.state, s.index), bytes});
    return scratch;
  }
  }
  return nullptr;
}

llvm::Value *AdapterBuilder::deviceScratch() {
  llvm::FunctionCallee fn = m.getOrInsertFunction(
      "modelrt_cuda_scratch", b.getPtrTy(), b.getInt32Ty());
  return b.CreateCall(fn, {b.getInt32(nextScratch++)});
}

void AdapterBuilder::emitStateFixups(const std::vector<Fixup> &fixups,
                                     const RawArgs &raw) {
  llvm::FunctionCallee freeFn =
      gpu ? m.getOrInsertFunction("modelrt_cuda_free", b.getVoidTy(),
                                  b.getPtrTy())
          : m.getOrInsertFunction("free", b.getVoidTy(), b.getPtrTy());
  for (const Fixup &f : fixups) {
    if (f.kind != SlotKind::StateOut)
      continue;
    if (gpu)
      b.CreateCall(m.getOrInsertFunction("modelrt_cuda_copy", b.getVoidTy(),
                                         b.getPtrTy(), b.getPtrTy(), i64()),
                   {f.dest, f.scratch, f.bytes});
    else
      b.CreateMemCpy(f.dest, llvm::MaybeAlign(4), f.scratch,
                     llvm::MaybeAlign(4), f.bytes);
    b.CreateCall(freeFn, {f.scratch});
  }
}

void AdapterBuilder::emitScalarFixups(const std::vector<Fixup> &scalars,
                                      const RawArgs &raw) {
  // GPU scalars: every cell comes back with one copy and one wait.
  llvm::Value *mirror = nullptr;
  if (gpu && !scalars.empty())
    mirror = b.CreateCall(m.getOrInsertFunction("modelrt_cuda_fetch_scratch",
                                                b.getPtrTy(), b.getInt32Ty()),
                          {b.getInt32(nextScratch)});
  for (Fixup f : scalars) {
    if (mirror)
      f.scratch = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), mirror, uint64_t(f.slot) * 64);
    if (f.kind == SlotKind::Loss) {
      b.CreateStore(b.CreateLoad(b.getFloatTy(), f.scratch), raw.loss);
    } else if (f.kind == SlotKind::LossSum && raw.loss) {
      llvm::Value *sum = b.CreateLoad(b.getFloatTy(), f.scratch);
      llvm::Value *n = b.CreateSIToFP(raw.batch, b.getFloatTy());
      b.CreateStore(b.CreateFDiv(sum, n), raw.loss);
    } else if (f.kind == SlotKind::Correct && raw.metrics) {
      llvm::Value *count = b.CreateLoad(i64(), f.scratch);
      llvm::Value *old = b.CreateLoad(b.getDoubleTy(), raw.metrics);
      llvm::Value *add = b.CreateSIToFP(count, b.getDoubleTy());
      b.CreateStore(b.CreateFAdd(old, add), raw.metrics);
    }
  }
}

static const char *slotName(SlotKind k) {
  static const char *names[] = {"input",  "labels",   "seed",    "parameter",
                                "state",  "loss",     "loss sum", "gradient",
                                "correct count", "output", "state output",
                                "position", "cache", "cache"};
  return names[unsigned(k)];
}

llvm::Error AdapterBuilder::emitCall(const EntryAbi &abi, const RawArgs &raw,
                                     std::vector<Fixup> &scalars) {
  std::vector<Fixup> fixups;
  llvm::SmallVector<llvm::Value *> descs;
  for (const AbiSlot &s : llvm::concat<const AbiSlot>(abi.args, abi.results)) {
    llvm::Value *data = slotData(s, raw, fixups);
    if (!data)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "@" + abi.symbol + ": the runtime provides no " + slotName(s.kind) +
              " for this entry point");
    descs.push_back(descriptor(s, data, raw.batch));
  }
  llvm::SmallVector<llvm::Type *> ptrs(descs.size(), b.getPtrTy());
  llvm::FunctionCallee kernel = m.getOrInsertFunction(
      (gpu ? "_mlir_ciface_gpu_" : "_mlir_ciface_") + abi.symbol,
      llvm::FunctionType::get(b.getVoidTy(), ptrs, false));
  b.CreateCall(kernel, descs);
  emitStateFixups(fixups, raw);
  for (const Fixup &f : fixups)
    if (f.kind != SlotKind::StateOut)
      scalars.push_back(f);
  return llvm::Error::success();
}

/// The adapters of one entry point: the whole call and, for the GPU training
/// step, its two halves (enqueue, finish).
struct AdapterFns {
  llvm::Function *whole = nullptr, *enqueue = nullptr, *finish = nullptr;
};

/// Ends an adapter: returns 0 (CPU) or modelrt_cuda_status() (GPU).
static void emitReturn(llvm::Module &m, llvm::IRBuilder<> &b, bool gpu) {
  if (!gpu) {
    b.CreateRet(b.getInt32(0));
    return;
  }
  llvm::FunctionCallee status =
      m.getOrInsertFunction("modelrt_cuda_status", b.getInt32Ty());
  b.CreateRet(b.CreateCall(status));
}

/// `whole` calls `enqueue`, then (when it returned 0) `finish`, with its own
/// arguments.
static void emitWholeStep(llvm::Function *whole, llvm::Function *enqueue,
                          llvm::Function *finish) {
  llvm::LLVMContext &ctx = whole->getContext();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", whole));
  llvm::SmallVector<llvm::Value *> args;
  for (llvm::Argument &a : whole->args())
    args.push_back(&a);
  llvm::Value *rc = b.CreateCall(enqueue, args);
  auto *failed = llvm::BasicBlock::Create(ctx, "failed", whole);
  auto *ok = llvm::BasicBlock::Create(ctx, "ok", whole);
  b.CreateCondBr(b.CreateICmpNE(rc, b.getInt32(0)), failed, ok);
  b.SetInsertPoint(failed);
  b.CreateRet(rc);
  b.SetInsertPoint(ok);
  b.CreateRet(b.CreateCall(finish, args));
}

/// Creates the internal adapter(s) with runtime signature `type`; `bind`
/// binds their parameters into a RawArgs. With `split`, also the enqueue and
/// finish halves, which the whole adapter calls.
static llvm::Expected<AdapterFns>
makeAdapter(llvm::Module &m, llvm::StringRef name, llvm::FunctionType *type,
            const EntryAbi &abi, bool gpu, bool split,
            llvm::function_ref<RawArgs(llvm::Function *)> bind) {
  std::string prefix = (gpu ? "modelc_gpu_" : "modelc_") + name.str();
  auto create = [&](llvm::StringRef suffix) {
    return llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage,
                                  prefix + suffix, m);
  };
  AdapterFns fns;
  fns.whole = create("");
  llvm::Function *callFn = split ? (fns.enqueue = create("_enqueue")) : fns.whole;
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(m.getContext(), "entry", callFn));
  AdapterBuilder builder(m, b, gpu);
  std::vector<Fixup> scalars;
  if (llvm::Error err = builder.emitCall(abi, bind(callFn), scalars))
    return std::move(err);
  if (gpu && builder.scratchCells() > kProgramScratchCells)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "@" + abi.symbol + ": " + std::to_string(builder.scratchCells()) +
            " scalar results; the GPU runtime has cells for " +
            std::to_string(kProgramScratchCells));
  if (split) {
    emitReturn(m, b, gpu);
    fns.finish = create("_finish");
    b.SetInsertPoint(llvm::BasicBlock::Create(m.getContext(), "entry", fns.finish));
  }
  builder.emitScalarFixups(scalars, bind(split ? fns.finish : callFn));
  emitReturn(m, b, gpu);
  if (split)
    emitWholeStep(fns.whole, fns.enqueue, fns.finish);
  return fns;
}

/// (ctx, params, state, inputs, labels, batch, seed, step, loss, grads,
/// metric_sums) of ModelrtTrainStepFn.
static RawArgs trainArgs(llvm::Function *f) {
  RawArgs r;
  r.params = f->getArg(1);
  r.state = f->getArg(2);
  r.inputs = f->getArg(3);
  r.labels = f->getArg(4);
  r.batch = f->getArg(5);
  r.seed = f->getArg(6);
  r.loss = f->getArg(8);
  r.grads = f->getArg(9);
  r.metrics = f->getArg(10);
  return r;
}

/// (ctx, params, state, inputs, labels, batch, loss, metric_sums) of
/// ModelrtEvalStepFn.
static RawArgs evalArgs(llvm::Function *f) {
  RawArgs r;
  r.params = f->getArg(1);
  r.state = f->getArg(2);
  r.inputs = f->getArg(3);
  r.labels = f->getArg(4);
  r.batch = f->getArg(5);
  r.loss = f->getArg(6);
  r.metrics = f->getArg(7);
  return r;
}

/// (ctx, params, state, inputs, batch, outputs) of ModelrtPredictFn.
static RawArgs predictArgs(llvm::Function *f) {
  RawArgs r;
  r.params = f->getArg(1);
  r.state = f->getArg(2);
  r.inputs = f->getArg(3);
  r.batch = f->getArg(4);
  r.outputs = f->getArg(5);
  return r;
}

/// (ctx, params, state, caches, input, pos, output) of ModelrtDecodeStepFn;
/// the batch is 1.
static RawArgs decodeArgs(llvm::Function *f) {
  RawArgs r;
  r.params = f->getArg(1);
  r.state = f->getArg(2);
  r.caches = f->getArg(3);
  r.inputs = f->getArg(4);
  r.position = f->getArg(5);
  r.outputs = f->getArg(6);
  r.batch = llvm::ConstantInt::get(llvm::Type::getInt64Ty(f->getContext()), 1);
  return r;
}

llvm::Expected<EntryAdapters>
modelc::emitAdapters(llvm::Module &m, const ProgramSpec &spec, bool gpu) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *p = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  auto fnType = [&](llvm::ArrayRef<llvm::Type *> params) {
    return llvm::FunctionType::get(i32, params, false);
  };
  llvm::Expected<AdapterFns> train = makeAdapter(
      m, "train_step", fnType({p, p, p, p, p, i64, i64, i64, p, p, p}),
      spec.trainStep, gpu, /*split=*/gpu, trainArgs);
  if (!train)
    return train.takeError();
  llvm::Expected<AdapterFns> eval =
      makeAdapter(m, "eval_step", fnType({p, p, p, p, p, i64, p, p}),
                  spec.evalStep, gpu, false, evalArgs);
  if (!eval)
    return eval.takeError();
  llvm::Expected<AdapterFns> predict =
      makeAdapter(m, "predict", fnType({p, p, p, p, i64, p}), spec.predict,
                  gpu, false, predictArgs);
  if (!predict)
    return predict.takeError();
  EntryAdapters out{};
  if (!gpu && spec.decodeStep.present()) {
    llvm::Expected<AdapterFns> decode =
        makeAdapter(m, "decode_step", fnType({p, p, p, p, p, i64, p}),
                    spec.decodeStep, gpu, false, decodeArgs);
    if (!decode)
      return decode.takeError();
    out.decodeStep = decode->whole;
  }
  out.trainStep = train->whole;
  out.evalStep = eval->whole;
  out.predict = predict->whole;
  out.trainEnqueue = train->enqueue;
  out.trainFinish = train->finish;
  return out;
}
