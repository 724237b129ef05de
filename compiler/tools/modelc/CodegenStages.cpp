//===- CodegenStages.cpp - The driver's stages after MLIR generation ------===//
//
// Runs TrainingCompiler stage by stage for the driver and prints each
// stage's product. A user error (bad -O or --target-cpu, missing C++
// driver or runtime library, a terminal as the object's destination) is
// reported as `modelc: error: <stage>: ...` and exits with 1; a compiler
// failure goes through report_fatal_error, i.e. `modelc: internal error:
// <stage>: ...` and exit status 2.
//
//===----------------------------------------------------------------------===//

#include "CodegenStages.h"
#include "Stages.h"

#include "modelc/Pipelines/TrainingPipeline.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

using namespace modelc;

/// Driver-side state of the code generation stages.
struct modelc::CodegenState {
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
  std::unique_ptr<TrainingCompiler> compiler;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
};

/// Reports `e`: user errors return false (exit 1), compiler errors are fatal
/// (exit 2).
static bool report(const Compilation &c, llvm::Error e) {
  if (!e)
    return true;
  bool user = false;
  std::string message;
  llvm::handleAllErrors(
      std::move(e),
      [&](const CompileError &ce) {
        user = ce.userError;
        message = ce.stage + ": " + ce.message;
      },
      [&](const llvm::ErrorInfoBase &other) { message = other.message(); });
  if (!user)
    llvm::report_fatal_error(llvm::Twine(message));
  inputError(c) << message << "\n";
  return false;
}

static CodegenState &state(Compilation &c) {
  if (!c.codegen) {
    c.codegen = std::make_shared<CodegenState>();
    mlir::MLIRContext &ctx = *c.mlirContext;
    mlir::DialectRegistry registry;
    registerTrainingPipelineDependencies(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    c.codegen->diagnostics =
        std::make_unique<mlir::SourceMgrDiagnosticHandler>(c.sourceMgr, &ctx);
    TrainingOptions options;
    options.target.optLevel = c.codegenSettings.optLevel;
    options.target.cpu = c.codegenSettings.targetCpu;
    options.target.split = c.codegenSettings.split;
    options.program.emitMain = c.codegenSettings.emitMain;
    options.program.libraryPrefix = c.codegenSettings.libraryPrefix;
    options.gpu = c.codegenSettings.gpu;
    options.frontEndLinted = true;
    options.emulateGpu = c.codegenSettings.emulateGpu;
    options.gpuPipeline.emulateCudaProducts = c.codegenSettings.emulateCudaProducts;
    options.gpuPipeline.cudnnConvolutions = c.codegenSettings.cudnnConvolutions;
    c.codegen->compiler =
        std::make_unique<TrainingCompiler>(*c.mlirModule, options);
  }
  return *c.codegen;
}

bool modelc::runGrad(Compilation &c) {
  if (!c.mlirModule->lookupSymbol("train_loss")) {
    inputError(c)
        << "nothing to train: the program has no `train` block (an "
           "executable needs one; --emit=mlir shows the model alone)\n";
    return false;
  }
  return report(c, state(c).compiler->runUntil(TrainingStage::Grad));
}

bool modelc::emitGrad(Compilation &c, llvm::raw_ostream &os) {
  c.mlirModule->print(os);
  return true;
}

bool modelc::runLinalg(Compilation &c) {
  return report(c, state(c).compiler->runUntil(TrainingStage::Linalg));
}

bool modelc::emitLinalg(Compilation &c, llvm::raw_ostream &os) {
  c.mlirModule->print(os);
  return true;
}

bool modelc::runFused(Compilation &c) {
  return report(c, state(c).compiler->runUntil(TrainingStage::Fused));
}

bool modelc::emitFused(Compilation &c, llvm::raw_ostream &os) {
  c.mlirModule->print(os);
  return true;
}

bool modelc::runGpuKernels(Compilation &c) {
  // Nothing to do before its own --emit: emitGpuKernels runs the stage, and
  // a full compilation runs the GPU pipeline beside the CPU one
  // (TrainingCompiler::buildLLVMModule).
  return true;
}

/// Refuses the GPU stages' output when they did not run.
static bool checkGpuEnabled(Compilation &c, llvm::StringRef stage) {
  if (c.codegenSettings.gpu)
    return true;
  inputError(c)
      << "--emit=" << stage << " shows GPU code, but --no-gpu was given\n";
  return false;
}

bool modelc::emitGpuKernels(Compilation &c, llvm::raw_ostream &os) {
  if (!checkGpuEnabled(c, "gpu"))
    return false;
  auto module = state(c).compiler->runGpu(GpuStage::Kernels);
  if (!module)
    return report(c, module.takeError());
  module->print(os);
  return true;
}

bool modelc::runPtx(Compilation &c) {
  return true; // as runGpuKernels: emitPtx or buildLLVMModule run it
}

bool modelc::emitPtx(Compilation &c, llvm::raw_ostream &os) {
  if (!checkGpuEnabled(c, "ptx"))
    return false;
  auto module = state(c).compiler->runGpu(GpuStage::LLVM);
  if (!module)
    return report(c, module.takeError());
  module->walk([&](mlir::gpu::BinaryOp binary) {
    for (mlir::Attribute a : binary.getObjects())
      if (auto object = llvm::dyn_cast<mlir::gpu::ObjectAttr>(a))
        os << "//--- " << binary.getSymName() << ".ptx\n"
           << object.getObject().getValue() << "\n";
  });
  return true;
}

bool modelc::runLLVM(Compilation &c) {
  CodegenState &s = state(c);
  auto module = s.compiler->buildLLVMModule(s.llvmContext);
  if (!module)
    return report(c, module.takeError());
  s.llvmModule = std::move(*module);
  return true;
}

bool modelc::emitLLVM(Compilation &c, llvm::raw_ostream &os) {
  c.codegen->llvmModule->print(os, nullptr);
  return true;
}

bool modelc::emitObject(Compilation &c, llvm::raw_ostream &os) {
  if (os.is_displayed()) {
    inputError(c)
        << "refusing to write an object file to a terminal (use -o FILE)\n";
    return false;
  }
  CodegenState &s = state(c);
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream object(buffer);
  if (!report(c, s.compiler->writeObject(*s.llvmModule, object)))
    return false;
  os.write(buffer.data(), buffer.size());
  return true;
}

bool modelc::writeObjectFile(Compilation &c, llvm::StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    inputError(c) << "cannot write '" << path << "': " << ec.message() << "\n";
    return false;
  }
  return report(c, state(c).compiler->writeObject(*state(c).llvmModule, os));
}

bool modelc::linkProgramExecutable(Compilation &c, llvm::StringRef outputPath) {
  CodegenState &s = state(c);
  return report(c, s.compiler->linkProgram(*s.llvmModule, outputPath,
                                        c.codegenSettings.runtimeLibDir));
}
