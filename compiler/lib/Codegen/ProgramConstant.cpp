//===- ProgramConstant.cpp - The ModelrtProgram constant and main ---------===//
//
// Emits `modelc_program`, a constant ModelrtProgram (layout from
// ProgramLayout.h; the options' fields from the schema
// modelsupport/TrainConfig.def) with its tables, shapes and strings as
// private globals,
// pointing to the adapters of Adapters.cpp; and `main`, which hands it to
// `modelrt_main`.
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/ProgramEmitter.h"
#include "modelc/Codegen/ProgramLayout.h"

#include "modelrt/core/Program.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

using namespace modelc;

namespace {
/// Builds the constant pieces in one module.
class ConstantBuilder {
public:
  ConstantBuilder(llvm::Module &m)
      : m(m), ctx(m.getContext()), layout(ProgramLayout::get(ctx)) {}

  llvm::Module &m;
  llvm::LLVMContext &ctx;
  ProgramLayout layout;

  llvm::Constant *i32(int64_t v) {
    return llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), v);
  }
  llvm::Constant *i64(int64_t v) {
    return llvm::ConstantInt::get(llvm::Type::getInt64Ty(ctx), v);
  }
  llvm::Constant *f64(double v) {
    return llvm::ConstantFP::get(llvm::Type::getDoubleTy(ctx), v);
  }
  llvm::Constant *null() {
    return llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx));
  }
  /// A private global holding `init`; returns its address.
  llvm::Constant *global(llvm::Constant *init, llvm::StringRef name) {
    return new llvm::GlobalVariable(m, init->getType(), /*isConstant=*/true,
                                    llvm::GlobalValue::PrivateLinkage, init,
                                    name);
  }
  llvm::Constant *str(llvm::StringRef s) {
    return global(llvm::ConstantDataArray::getString(ctx, s), "modelc.str");
  }
  /// NULL for an empty string (optional paths).
  llvm::Constant *optStr(llvm::StringRef s) { return s.empty() ? null() : str(s); }
  llvm::Constant *i64Array(llvm::ArrayRef<int64_t> v) {
    if (v.empty())
      return null();
    return global(llvm::ConstantDataArray::get(ctx, v), "modelc.shape");
  }
  llvm::Constant *i32Array(llvm::ArrayRef<int32_t> v) {
    if (v.empty())
      return null();
    return global(llvm::ConstantDataArray::get(ctx, v), "modelc.vocab");
  }
  llvm::Constant *ptrArray(llvm::ArrayRef<llvm::Constant *> v) {
    if (v.empty())
      return null();
    auto *t = llvm::ArrayType::get(llvm::PointerType::getUnqual(ctx), v.size());
    return global(llvm::ConstantArray::get(t, v), "modelc.ptrs");
  }
  llvm::Constant *table(const std::vector<TensorSpec> &tensors);
  /// The ModelrtAugment array, or NULL when there is none.
  llvm::Constant *augments(const std::vector<AugmentSpec> &augment);
  /// The ModelrtLayerInfo array (NULL when empty).
  llvm::Constant *layerTable(const std::vector<LayerSpec> &layers);
  /// The ModelrtProductOperands array (NULL when empty).
  llvm::Constant *productTable(const std::vector<ProductOperandsSpec> &products);
  /// The ModelrtTrainConfig constant; its option fields follow the schema.
  llvm::Constant *config(const TrainDefaults &c);

private:
  using Fields = std::vector<llvm::Constant *>;
  /// Appends the constant of one ABI field (two for a list).
  void put(Fields &f, int32_t v);
  void put(Fields &f, int64_t v);
  void put(Fields &f, uint64_t v);
  void put(Fields &f, double v);
  void put(Fields &f, const std::vector<int64_t> &v);
};
} // namespace

llvm::Constant *ConstantBuilder::table(const std::vector<TensorSpec> &tensors) {
  if (tensors.empty())
    return null();
  std::vector<llvm::Constant *> descs;
  auto *argsType = llvm::ArrayType::get(llvm::Type::getDoubleTy(ctx), 2);
  for (const TensorSpec &t : tensors) {
    llvm::Constant *args = llvm::ConstantArray::get(
        argsType, {f64(t.initArgs[0]), f64(t.initArgs[1])});
    descs.push_back(llvm::ConstantStruct::get(
        layout.tensorDesc,
        {str(t.name), i32(MODELRT_F32), i32(int64_t(t.shape.size())),
         i64Array(t.shape), i32(t.initKind), args, i64(t.fanIn),
         i64(t.fanOut)}));
  }
  auto *type = llvm::ArrayType::get(layout.tensorDesc, descs.size());
  return global(llvm::ConstantArray::get(type, descs), "modelc.table");
}

llvm::Constant *
ConstantBuilder::augments(const std::vector<AugmentSpec> &augment) {
  if (augment.empty())
    return null();
  auto *argsType =
      llvm::ArrayType::get(llvm::Type::getDoubleTy(ctx), MODELRT_AUGMENT_ARGS);
  std::vector<llvm::Constant *> entries;
  for (const AugmentSpec &a : augment) {
    std::vector<llvm::Constant *> args(MODELRT_AUGMENT_ARGS, f64(0));
    for (size_t i = 0; i < a.args.size() && i < args.size(); ++i)
      args[i] = f64(a.args[i]);
    entries.push_back(llvm::ConstantStruct::get(
        layout.augment, {i32(a.kind), llvm::ConstantArray::get(argsType, args)}));
  }
  auto *type = llvm::ArrayType::get(layout.augment, entries.size());
  return global(llvm::ConstantArray::get(type, entries), "modelc.augment");
}

llvm::Constant *ConstantBuilder::layerTable(const std::vector<LayerSpec> &layers) {
  if (layers.empty())
    return null();
  std::vector<llvm::Constant *> infos;
  for (const LayerSpec &l : layers)
    infos.push_back(llvm::ConstantStruct::get(
        layout.layerInfo,
        {str(l.name), i32(int64_t(l.shape.size())), i64Array(l.shape),
         i64(l.params), f64(l.flops), i64(l.activationBytes)}));
  auto *type = llvm::ArrayType::get(layout.layerInfo, infos.size());
  return global(llvm::ConstantArray::get(type, infos), "modelc.layers");
}

llvm::Constant *
ConstantBuilder::productTable(const std::vector<ProductOperandsSpec> &products) {
  if (products.empty())
    return null();
  auto *pairType = llvm::ArrayType::get(llvm::Type::getInt64Ty(ctx), 2);
  auto pair = [&](const int64_t (&v)[2]) {
    return llvm::ConstantArray::get(pairType, {i64(v[0]), i64(v[1])});
  };
  std::vector<llvm::Constant *> entries;
  for (const ProductOperandsSpec &p : products)
    entries.push_back(llvm::ConstantStruct::get(
        layout.productOperands, {i32(p.kind), pair(p.fixed), pair(p.perSample)}));
  auto *type = llvm::ArrayType::get(layout.productOperands, entries.size());
  return global(llvm::ConstantArray::get(type, entries), "modelc.bf16_products");
}

void ConstantBuilder::put(Fields &f, int32_t v) { f.push_back(i32(v)); }
void ConstantBuilder::put(Fields &f, int64_t v) { f.push_back(i64(v)); }
void ConstantBuilder::put(Fields &f, uint64_t v) {
  f.push_back(i64(int64_t(v)));
}
void ConstantBuilder::put(Fields &f, double v) { f.push_back(f64(v)); }
void ConstantBuilder::put(Fields &f, const std::vector<int64_t> &v) {
  f.push_back(i32(int64_t(v.size())));
  f.push_back(i64Array(v));
}

llvm::Constant *ConstantBuilder::config(const TrainDefaults &c) {
  Fields opt, sched, train;
#define MODELRT_ABI_OPTIMIZER(TYPE, NAME, READ, CXX) put(opt, c.optimizer.NAME);
#define MODELRT_ABI_SCHEDULE(TYPE, NAME, READ, CXX) put(sched, c.schedule.NAME);
#include "modelsupport/TrainConfig.def"
  std::vector<llvm::Constant *> cols, labelCols;
  for (const std::string &col : c.columns)
    cols.push_back(str(col));
  for (const std::string &col : c.labelColumns)
    labelCols.push_back(str(col));
  auto f64Array = [&](llvm::ArrayRef<double> v, llvm::StringRef name) {
    return v.empty() ? null()
                     : global(llvm::ConstantDataArray::get(ctx, v), name);
  };
  llvm::Constant *data = llvm::ConstantStruct::get(
      layout.dataConfig,
      {i32(c.dataFormat), optStr(c.trainInputs), optStr(c.trainLabels),
       optStr(c.testInputs), optStr(c.testLabels), i32(int64_t(cols.size())),
       ptrArray(cols), i32(int64_t(labelCols.size())), ptrArray(labelCols),
       f64(c.scale),
       i32(int64_t(c.mean.size())), f64Array(c.mean, "modelc.mean"),
       f64Array(c.stddev, "modelc.std"), i32(0), f64(c.valFraction),
       i32(int64_t(c.augment.size())), augments(c.augment), i32(0),
       i64(c.resizeHeight), i64(c.resizeWidth), i32(c.centerCrop),
       i64(c.seqLen), i32(c.tokens)});
  train = {llvm::ConstantStruct::get(layout.optimizerConfig, opt),
           llvm::ConstantStruct::get(layout.scheduleConfig, sched), data};
#define MODELRT_ABI_TRAIN(TYPE, NAME) put(train, c.NAME);
#include "modelsupport/TrainConfig.def"
  return llvm::ConstantStruct::get(layout.trainConfig, train);
}

llvm::GlobalVariable *modelc::emitTrainConfig(llvm::Module &m,
                                              const TrainDefaults &config,
                                              llvm::StringRef name) {
  ConstantBuilder c(m);
  llvm::Constant *init = c.config(config);
  return new llvm::GlobalVariable(m, init->getType(), /*isConstant=*/true,
                                  llvm::GlobalValue::ExternalLinkage, init,
                                  name);
}

static void emitMain(llvm::Module &m, llvm::GlobalVariable *program) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *p = llvm::PointerType::getUnqual(ctx);
  llvm::FunctionCallee rtMain = m.getOrInsertFunction(
      "modelrt_main", llvm::FunctionType::get(i32, {i32, p, p}, false));
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(i32, {i32, p}, false),
                                    llvm::GlobalValue::ExternalLinkage, "main", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  b.CreateRet(b.CreateCall(rtMain, {fn->getArg(0), fn->getArg(1), program}));
}

/// PREFIX_load(path) -> modelrt_embed_load(&program, path), and
/// PREFIX_predict / _input_shape / _output_shape / _free / _last_error
/// forwarding their arguments.
static void emitLibraryApi(llvm::Module &m, llvm::GlobalVariable *program,
                           llvm::StringRef prefix) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *p = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *voidTy = llvm::Type::getVoidTy(ctx);
  auto forward = [&](llvm::StringRef name, llvm::FunctionType *type,
                     bool withProgram) {
    llvm::SmallVector<llvm::Type *> calleeParams;
    if (withProgram)
      calleeParams.push_back(p);
    calleeParams.append(type->param_begin(), type->param_end());
    llvm::FunctionCallee callee = m.getOrInsertFunction(
        ("modelrt_embed_" + name).str(),
        llvm::FunctionType::get(type->getReturnType(), calleeParams, false));
    auto *fn = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                      prefix + "_" + name, m);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
    llvm::SmallVector<llvm::Value *> args;
    if (withProgram)
      args.push_back(program);
    for (llvm::Argument &a : fn->args())
      args.push_back(&a);
    llvm::CallInst *call = b.CreateCall(callee, args);
    if (type->getReturnType()->isVoidTy())
      b.CreateRetVoid();
    else
      b.CreateRet(call);
  };
  forward("load", llvm::FunctionType::get(p, {p}, false), true);
  forward("predict", llvm::FunctionType::get(i32, {p, p, i64, p}, false),
          false);
  forward("input_shape", llvm::FunctionType::get(i32, {p, p, i32}, false),
          false);
  forward("output_shape", llvm::FunctionType::get(i32, {p, p, i32}, false),
          false);
  forward("free", llvm::FunctionType::get(voidTy, {p}, false), false);
  forward("last_error", llvm::FunctionType::get(p, {}, false), false);
}

llvm::Error modelc::emitProgram(llvm::Module &m, const ProgramSpec &spec,
                                const ProgramEmitOptions &options) {
  llvm::Expected<EntryAdapters> adapters = emitAdapters(m, spec);
  if (!adapters)
    return adapters.takeError();
  ConstantBuilder c(m);
  auto orNull = [&](llvm::Function *f) -> llvm::Constant * {
    return f ? static_cast<llvm::Constant *>(f) : c.null();
  };
  EntryAdapters gpu{};
  if (options.withGpu) {
    llvm::Expected<EntryAdapters> gpuAdapters =
        emitAdapters(m, spec, /*gpu=*/true);
    if (!gpuAdapters)
      return gpuAdapters.takeError();
    gpu = *gpuAdapters;
  }
  std::vector<llvm::Constant *> metricNames, classNames;
  for (const std::string &name : spec.metrics)
    metricNames.push_back(c.str(name));
  for (const std::string &name : spec.classNames)
    classNames.push_back(c.str(name));
  bool f32Labels = spec.labelType == AbiType::F32;
  llvm::Constant *fields[PF_Count] = {
      c.i32(MODELRT_ABI_VERSION), c.str(spec.name),
      c.i32(int64_t(spec.params.size())), c.table(spec.params),
      c.i32(int64_t(spec.states.size())), c.table(spec.states),
      c.i32(int64_t(spec.inputShape.size())), c.i64Array(spec.inputShape),
      c.i32(int32_t(spec.inputType)),
      c.i32(f32Labels ? MODELRT_F32 : MODELRT_I64), c.i64(spec.numClasses),
      c.i32(int64_t(spec.labelShape.size())), c.i64Array(spec.labelShape),
      c.i32(int64_t(spec.outputShape.size())), c.i64Array(spec.outputShape),
      c.i32(int64_t(metricNames.size())), c.ptrArray(metricNames),
      c.config(spec.config), c.null(), adapters->trainStep,
      adapters->evalStep, adapters->predict, c.f64(spec.trainFlopsPerSample),
      c.null(), orNull(gpu.trainStep), orNull(gpu.evalStep),
      orNull(gpu.predict), orNull(gpu.trainEnqueue), orNull(gpu.trainFinish),
      c.i32(int64_t(classNames.size())), c.ptrArray(classNames),
      c.i32(int64_t(spec.layers.size())), c.layerTable(spec.layers),
      c.i64(spec.config.inputIdLimit), c.i32(spec.ignoreIndex ? 1 : 0),
      c.i64(spec.ignoreIndex.value_or(0)),
      c.i32(int64_t(spec.config.vocab.size())), c.i32Array(spec.config.vocab),
      orNull(adapters->decodeStep), c.i32(int64_t(spec.caches.size())),
      c.table(spec.caches), c.i64(spec.decodeLength),
      c.i32(spec.bf16   ? MODELRT_PRECISION_BF16
            : spec.tf32 ? MODELRT_PRECISION_TF32
                        : MODELRT_PRECISION_F32),
      c.i32(int64_t(spec.bf16Products.size())), c.productTable(spec.bf16Products),
      c.i32(spec.roundedValues ? 1 : 0), c.i32(spec.gpuConvolutions)};
  auto *program = new llvm::GlobalVariable(
      m, c.layout.program, /*isConstant=*/true,
      llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantStruct::get(c.layout.program, fields), kProgramSymbol);
  if (options.emitMain)
    emitMain(m, program);
  if (!options.libraryPrefix.empty())
    emitLibraryApi(m, program, options.libraryPrefix);
  return llvm::Error::success();
}
