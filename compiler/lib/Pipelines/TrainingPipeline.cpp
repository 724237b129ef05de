//===- TrainingPipeline.cpp - mdl module -> trained executable ------------===//
//
// Implements the named end-to-end pipeline (TrainingPipeline.h): the pass
// lists of the grad / linalg / llvm stages, and TrainingCompiler, which runs
// them, reads the program description between them, adds the runtime glue
// to the LLVM module, writes the object file and links the executable.
//
//===----------------------------------------------------------------------===//

#include "modelc/Pipelines/TrainingPipeline.h"

#include "modelc/Codegen/EntryPoints.h"
#include "modelc/Conversion/Passes.h"
#include "modelc/Target/Linker.h"
#include "modelc/Transforms/CPU/RuntimeCalls.h"
#include "modelc/Transforms/Passes.h"

#include "mdl/MDLDialect.h"
#include "modelrt/core/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"

#include <future>

using namespace modelc;

char CompileError::ID = 0;

void CompileError::log(llvm::raw_ostream &os) const {
  os << stage << ": " << message;
}

static llvm::Error internalError(llvm::StringRef stage, const llvm::Twine &msg) {
  return llvm::make_error<CompileError>(stage.str(), msg.str(), false);
}

static llvm::Error userError(llvm::StringRef stage, const llvm::Twine &msg) {
  return llvm::make_error<CompileError>(stage.str(), msg.str(), true);
}

/// Re-labels any error as an internal error of `stage`.
static llvm::Error inStage(llvm::StringRef stage, llvm::Error e) {
  if (!e)
    return e;
  return internalError(stage, llvm::toString(std::move(e)));
}

void modelc::buildTrainingStagePasses(mlir::OpPassManager &pm,
                                      TrainingStage stage,
                                      const TrainingOptions &options) {
  switch (stage) {
  case TrainingStage::MLIR:
    break;
  case TrainingStage::Grad: {
    pm.addPass(createMDLWidenLowPrecision());
    pm.addPass(createMDLPackAttention());
    pm.addPass(createMDLPoolBeforeRelu());
    MDLAutodiffOptions autodiff;
    autodiff.warnUnreached = !options.frontEndLinted;
    pm.addPass(createMDLAutodiff(autodiff));
    pm.addPass(createMDLSumThroughMaxPool());
    pm.addPass(createMDLWidenLowPrecision());
    pm.addPass(createMDLAssignPrecision());
    pm.addPass(createPrepareEntryPointsPass());
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
    break;
  }
  case TrainingStage::Linalg:
    pm.addPass(createConvertMDLToLinalg());
    break;
  case TrainingStage::Fused: {
    if (options.emulateGpu) {
      buildGpuEmulationPipeline(pm, options.gpuPipeline);
      break;
    }
    CpuPipelineOptions cpu = options.cpu;
    cpu.stopAfter = CpuStage::Kernels;
    buildCpuLoweringPipeline(pm, cpu);
    break;
  }
  case TrainingStage::LLVMDialect: {
    CpuPipelineOptions cpu = options.cpu;
    cpu.resumeAfterKernels = true;
    buildCpuLoweringPipeline(pm, cpu);
    break;
  }
  }
}

void modelc::buildTrainingPipeline(mlir::OpPassManager &pm,
                                   const TrainingOptions &options) {
  for (TrainingStage s : {TrainingStage::Grad, TrainingStage::Linalg,
                          TrainingStage::Fused, TrainingStage::LLVMDialect})
    buildTrainingStagePasses(pm, s, options);
}

void modelc::registerTrainingPipelineDependencies(
    mlir::DialectRegistry &registry) {
  registerCpuPipelineDependencies(registry);
  registerGpuPipelineDependencies(registry);
  registry.insert<mlir::mdl::MDLDialect>();
}

static const char *stageName(TrainingStage stage) {
  switch (stage) {
  case TrainingStage::MLIR:
    return "MLIR generation";
  case TrainingStage::Grad:
    return "autodiff";
  case TrainingStage::Linalg:
    return "lowering to linalg";
  case TrainingStage::Fused:
    return "fusion and bufferization";
  case TrainingStage::LLVMDialect:
    return "CPU lowering";
  }
  return "?";
}

/// Drops the mdl attributes the ProgramSpec has already read (the module's
/// configuration and layer table, the table symbols and cache numbers on
/// arguments and results, the decoded length), which LLVM translation would
/// not know.
static void dropMdlAttributes(mlir::ModuleOp module) {
  module->removeAttr("mdl.config");
  module->removeAttr("mdl.layers");
  module.walk([](mlir::func::FuncOp fn) {
    llvm::StringRef keys[] = {"mdl.param", "mdl.state",
                              mlir::mdl::kCacheAttrName};
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      for (llvm::StringRef key : keys)
        fn.removeArgAttr(i, key);
    for (unsigned i = 0; i < fn.getNumResults(); ++i)
      for (llvm::StringRef key : llvm::ArrayRef(keys).drop_front())
        fn.removeResultAttr(i, mlir::StringAttr::get(fn.getContext(), key));
    fn->removeAttr(mlir::mdl::kDecodeLengthAttrName);
  });
}

/// Removes the decoding step, which only the CPU code has (and, with
/// `spec`, its caches from the program description).
static void dropDecodeStep(mlir::ModuleOp module, ProgramSpec *spec) {
  if (auto fn = module.lookupSymbol<mlir::func::FuncOp>(
          mlir::mdl::kDecodeStepName))
    fn.erase();
  if (spec) {
    spec->caches.clear();
    spec->decodeLength = 0;
  }
}

/// Marks the gradient results of the CPU training step with their
/// parameter's index, for modelc-grad-ready-calls (after bufferization the
/// marks are on the out-params).
static void markGradients(mlir::ModuleOp module, const EntryAbi &trainStep) {
  auto fn = module.lookupSymbol<mlir::func::FuncOp>(trainStep.symbol);
  if (!fn)
    return;
  mlir::Builder b(module.getContext());
  for (auto [i, slot] : llvm::enumerate(trainStep.results))
    if (slot.kind == SlotKind::Grad && i < fn.getNumResults())
      fn.setResultAttr(unsigned(i), kGradAttrName,
                       b.getI64IntegerAttr(slot.index));
}

llvm::Error TrainingCompiler::runStage(TrainingStage stage) {
  const char *name = stageName(stage);
  if (stage == TrainingStage::Fused) {
    dropMdlAttributes(module);
    if (!options.emulateGpu) // the GPU path sums after its step
      markGradients(module, spec.trainStep);
  }
  if (stage == TrainingStage::LLVMDialect) // read by the fused stage's calls
    module->removeAttr("mdl.precision");
  mlir::PassManager pm(module->getContext());
  buildTrainingStagePasses(pm, stage, options);
  if (mlir::failed(pm.run(module))) {
    if (module->hasAttr(mlir::mdl::kProgramErrorAttrName))
      return userError(name, "the loss cannot be differentiated (see the "
                             "errors above)");
    return internalError(name, "the pass pipeline failed (see the errors "
                               "above)");
  }
  if (stage == TrainingStage::Grad) {
    llvm::Expected<ProgramSpec> s = extractProgramSpec(module);
    if (!s)
      return inStage(name, s.takeError());
    spec = std::move(*s);
    if (options.gpu)
      spec.gpuConvolutions = options.gpuPipeline.cudnnConvolutions
                                 ? MODELRT_GPU_CONV_CUDNN
                                 : MODELRT_GPU_CONV_IM2COL;
  }
  if (stage == TrainingStage::Linalg) {
    if (options.emulateGpu)
      dropDecodeStep(module, &spec);
    if (llvm::Error e = bindEntryAbis(module, spec))
      return inStage(name, std::move(e));
    if (options.gpu) {
      gpuModule = module.clone();
      dropDecodeStep(*gpuModule, nullptr);
      dropMdlAttributes(*gpuModule); // mdl.precision stays for the products
    }
  }
  return llvm::Error::success();
}

llvm::Error TrainingCompiler::runUntil(TrainingStage stage) {
  while (done < stage) {
    auto next = TrainingStage(int(done) + 1);
    if (llvm::Error e = runStage(next))
      return e;
    done = next;
  }
  return llvm::Error::success();
}

llvm::Expected<mlir::ModuleOp> TrainingCompiler::runGpu(GpuStage stage) {
  if (llvm::Error e = runUntil(TrainingStage::Linalg))
    return std::move(e);
  return runGpuPipeline(stage);
}

llvm::Expected<mlir::ModuleOp>
TrainingCompiler::runGpuPipeline(GpuStage stage) {
  if (!gpuModule)
    return internalError("GPU lowering", "compiled without GPU code");
  if (gpuDone && *gpuDone >= stage)
    return *gpuModule;
  GpuPipelineOptions gpuOptions = options.gpuPipeline;
  gpuOptions.stopAfter = stage;
  if (gpuDone)
    gpuOptions.resumeAfterKernels = true;
  mlir::PassManager pm(gpuModule->getContext());
  buildGpuLoweringPipeline(pm, gpuOptions);
  if (mlir::failed(pm.run(*gpuModule)))
    return internalError("GPU lowering", "the pass pipeline failed (see the "
                                         "errors above)");
  gpuDone = stage;
  // Read by the products' lowering (and shown by --emit=gpu); the LLVM
  // translation would not know it.
  if (stage == GpuStage::LLVM)
    gpuModule->getOperation()->removeAttr("mdl.precision");
  return *gpuModule;
}

/// Translates the GPU module and links it into `llvmModule`.
static llvm::Error linkGpuModule(mlir::ModuleOp gpu, llvm::Module &llvmModule,
                                 llvm::TargetMachine &machine,
                                 const TargetOptions &target) {
  // The host side of the GPU code only orders launches, copies and sgemm
  // calls, in long straight-line functions (a ResNet's train step is tens of
  // thousands of instructions): optimising them gains nothing at run time
  // and cost seconds (superlinear register allocation), so they are kept
  // unoptimised (optnone: also the fast instruction selector).
  TargetOptions hostOptions = target;
  hostOptions.optLevel = 0;
  auto gpuLL = translateAndOptimize(gpu, llvmModule.getContext(), machine,
                                    hostOptions);
  if (!gpuLL)
    return inStage("GPU translation", gpuLL.takeError());
  for (llvm::Function &f : **gpuLL)
    if (!f.isDeclaration()) {
      f.addFnAttr(llvm::Attribute::NoInline);
      f.addFnAttr(llvm::Attribute::OptimizeNone);
    }
  if (llvm::Linker::linkModules(llvmModule, std::move(*gpuLL)))
    return internalError("GPU translation", "cannot link the GPU code into "
                                            "the CPU code (see above)");
  return llvm::Error::success();
}

llvm::Error TrainingCompiler::getMachine() {
  if (machine)
    return llvm::Error::success();
  auto tm = createTargetMachine(options.target);
  if (!tm)
    return userError("target selection", llvm::toString(tm.takeError()));
  machine = std::move(*tm);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::Module>>
TrainingCompiler::translateCpuModule(llvm::LLVMContext &context) {
  if (llvm::Error e = runUntil(TrainingStage::LLVMDialect))
    return std::move(e);
  if (llvm::Error e = getMachine())
    return std::move(e);
  // The program calls only the entry points' C-interface wrappers.
  TargetOptions cpuOptions = options.target;
  cpuOptions.inlineIntoWrappers = true;
  auto llvmModule = translateAndOptimize(module, context, *machine, cpuOptions);
  if (!llvmModule)
    return inStage("LLVM translation", llvmModule.takeError());
  return llvmModule;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
TrainingCompiler::buildLLVMModule(llvm::LLVMContext &context) {
  // The GPU pipeline (mostly the NVPTX back end) runs on its own thread
  // while the CPU pipeline and its LLVM translation run on this one: the
  // two modules share only the MLIRContext, whose uniquing is thread-safe,
  // and every dialect is loaded before (registerTrainingPipelineDependencies
  // + loadAllAvailableDialects).
  std::future<llvm::Error> gpuJob;
  if (options.gpu) {
    if (llvm::Error e = runUntil(TrainingStage::Linalg))
      return std::move(e);
    gpuJob = std::async(std::launch::async, [this] {
      return runGpuPipeline(GpuStage::LLVM).takeError();
    });
  }
  auto llvmModule = translateCpuModule(context);
  llvm::Error gpu = gpuJob.valid() ? gpuJob.get() : llvm::Error::success();
  if (!llvmModule) {
    llvm::consumeError(std::move(gpu));
    return llvmModule.takeError();
  }
  if (gpu)
    return std::move(gpu);
  ProgramEmitOptions programOptions = options.program;
  if (options.gpu) {
    llvm::Expected<mlir::ModuleOp> gpuCode = runGpu(GpuStage::LLVM);
    if (!gpuCode)
      return gpuCode.takeError();
    if (llvm::Error e = linkGpuModule(*gpuCode, **llvmModule, *machine,
                                      options.target))
      return std::move(e);
    programOptions.withGpu = true;
  }
  if (llvm::Error e = emitProgram(**llvmModule, spec, programOptions))
    return inStage("program emission", std::move(e));
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(**llvmModule, &os))
    return internalError("program emission", "invalid LLVM IR: " + problems);
  return llvmModule;
}

llvm::Error TrainingCompiler::writeObject(llvm::Module &llvmModule,
                                         llvm::raw_pwrite_stream &os) {
  if (llvm::Error e = getMachine())
    return e;
  if (llvm::Error e =
          emitObject(llvmModule, *machine, os, options.target.split))
    return userError("object emission", llvm::toString(std::move(e)));
  return llvm::Error::success();
}

llvm::Error TrainingCompiler::linkProgram(llvm::Module &llvmModule,
                                          llvm::StringRef outputPath,
                                          llvm::StringRef runtimeLibDir) {
  llvm::SmallString<128> objectPath;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "modelc", "o", fd, objectPath))
    return userError("object emission",
                     "cannot create a temporary file: " + ec.message());
  llvm::FileRemover remover(objectPath);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (llvm::Error e = writeObject(llvmModule, os))
      return e;
    os.flush();
    if (std::error_code ec = os.error()) {
      os.clear_error(); // else the stream's destructor reports it as fatal
      return userError("object emission",
                       "cannot write '" + objectPath + "': " + ec.message());
    }
  }
  if (!llvm::sys::fs::exists(llvm::Twine(runtimeLibDir) + "/libmodelrt.a"))
    return userError("linking", "the runtime library libmodelrt.a is not in '" +
                                    runtimeLibDir +
                                    "' (expected next to modelc, in "
                                    "<bindir>/../lib)");
  if (llvm::Expected<std::string> driver = findCxxDriver(); !driver)
    return userError("linking", llvm::toString(driver.takeError()));
  LinkOptions link;
  link.inputs = {objectPath.str().str()};
  link.runtimeLibDir = runtimeLibDir.str();
  link.outputPath = outputPath.str();
  // An output that cannot be written is the user's (a full disk); any
  // other failed link of the compiler's object is the compiler's.
  return llvm::handleErrors(
      linkExecutable(link),
      [](const OutputError &e) { return userError("linking", e.message()); },
      [](const llvm::ErrorInfoBase &e) {
        return internalError("linking", e.message());
      });
}
