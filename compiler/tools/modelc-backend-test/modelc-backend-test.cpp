//===- modelc-backend-test.cpp - Test driver of the CPU back end ----------===//
//
// Reads a .mlir module written with func/linalg/tensor/arith/math, runs the
// CPU lowering pipeline (optionally stopping after a stage) and writes MLIR,
// LLVM IR, an object file, or an executable linked with extra inputs (a test
// harness) and optionally the runtime. Used by test/Pipelines and
// test/Target.
//
//===----------------------------------------------------------------------===//
#include "modelc/Pipelines/CpuPipeline.h"
#include "modelc/Target/Linker.h"
#include "modelc/Target/ObjectEmitter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

namespace {
enum class EmitKind { MLIR, LLVMIR, Object, Executable };

cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input.mlir>"),
                               cl::init("-"));
cl::opt<std::string> outputPath("o", cl::desc("Output file"), cl::init("-"));
cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to write"), cl::init(EmitKind::MLIR),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir", "MLIR after the pipeline"),
               clEnumValN(EmitKind::LLVMIR, "llvm", "optimised LLVM IR"),
               clEnumValN(EmitKind::Object, "obj", "an object file"),
               clEnumValN(EmitKind::Executable, "exe",
                          "an executable (with --link-input files)")));
cl::opt<modelc::CpuStage> stopAfter(
    "last-stage", cl::desc("Last pipeline stage (with --emit=mlir)"),
    cl::init(modelc::CpuStage::LLVM),
    cl::values(clEnumValN(modelc::CpuStage::Fusion, "fusion", ""),
               clEnumValN(modelc::CpuStage::Bufferization, "bufferization", ""),
               clEnumValN(modelc::CpuStage::Blas, "blas", ""),
               clEnumValN(modelc::CpuStage::Kernels, "kernels", ""),
               clEnumValN(modelc::CpuStage::LLVM, "llvm", "")));
cl::opt<std::string> pipelineText(
    "pass-pipeline",
    cl::desc("Run this textual pipeline on the module (its contents, e.g. "
             "'modelc-cpu-lowering{stop-after=fusion}') instead of the "
             "built one"));
cl::opt<bool> noBlas("no-blas", cl::desc("Lower matmuls to loops"));
cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimisation level 0..3"),
                           cl::Prefix, cl::init(3));
cl::opt<std::string> targetCpu("target-cpu", cl::desc("Target CPU (default: host)"));
cl::list<std::string> linkInputs("link-input",
                                 cl::desc("Extra link input (object/source)"));
cl::list<std::string> linkArgs("link-arg",
                               cl::desc("Flag for the link driver"));
cl::opt<std::string> runtimeLibDir(
    "runtime-lib-dir",
    cl::desc("Link libmodelrt.a from this directory (default: <bindir>/../lib, "
             "as modelc does: generated code calls the runtime's buffer pool "
             "and profiling hooks)"));

/// The runtime library directory: --runtime-lib-dir or <bindir>/../lib
/// (Linux finds the executable through /proc/self/exe).
std::string defaultRuntimeLibDir() {
  if (!runtimeLibDir.empty())
    return runtimeLibDir;
  static int anchor;
  std::string exe = sys::fs::getMainExecutable("modelc-backend-test", &anchor);
  SmallString<256> dir(sys::path::parent_path(sys::path::parent_path(exe)));
  sys::path::append(dir, "lib");
  return std::string(dir);
}

/// Runs the pipeline on `module`; diagnostics go to stderr.
mlir::LogicalResult lower(mlir::ModuleOp module, modelc::CpuStage stage) {
  mlir::PassManager pm(module->getContext());
  if (!pipelineText.empty()) {
    if (failed(mlir::parsePassPipeline(pipelineText, pm, errs())))
      return mlir::failure();
    return pm.run(module);
  }
  modelc::CpuPipelineOptions options;
  options.useBlas = !noBlas;
  options.stopAfter = stage;
  modelc::buildCpuLoweringPipeline(pm, options);
  return pm.run(module);
}

/// Writes the object for `module` to `path`.
Error writeObject(mlir::ModuleOp module, StringRef path) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return createStringError(ec, "cannot open '" + path + "'");
  modelc::TargetOptions target;
  target.optLevel = optLevel;
  target.cpu = targetCpu;
  return modelc::emitObjectFile(module, target, os);
}

/// Emits `module` (already lowered to the LLVM dialect) as requested.
Error emitLowered(mlir::ModuleOp module) {
  modelc::TargetOptions target;
  target.optLevel = optLevel;
  target.cpu = targetCpu;
  if (emitKind == EmitKind::Object)
    return writeObject(module, outputPath);
  if (emitKind == EmitKind::LLVMIR) {
    std::error_code ec;
    ToolOutputFile out(outputPath, ec, sys::fs::OF_Text);
    if (ec)
      return createStringError(ec, "cannot open '" + outputPath + "'");
    if (Error err = modelc::emitLLVMIR(module, target, out.os()))
      return err;
    out.keep();
    return Error::success();
  }
  SmallString<128> objPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("modelc-backend", "o", objPath))
    return createStringError(ec, "cannot create a temporary object file");
  FileRemover remover(objPath);
  if (Error err = writeObject(module, objPath))
    return err;
  modelc::LinkOptions link;
  link.inputs.push_back(std::string(objPath));
  link.inputs.insert(link.inputs.end(), linkInputs.begin(), linkInputs.end());
  link.driverFlags.assign(linkArgs.begin(), linkArgs.end());
  link.runtimeLibDir = defaultRuntimeLibDir();
  link.outputPath = outputPath;
  return modelc::linkExecutable(link);
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  modelc::registerModelcPipelines();
  cl::ParseCommandLineOptions(argc, argv, "modelc CPU back-end test driver\n");
  mlir::DialectRegistry registry;
  modelc::registerCpuPipelineDependencies(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  auto file = mlir::openInputFile(inputPath, &error);
  if (!file) {
    errs() << "modelc-backend-test: " << error << "\n";
    return 1;
  }
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  bool full = emitKind != EmitKind::MLIR;
  if (failed(lower(*module, full ? modelc::CpuStage::LLVM : stopAfter.getValue())))
    return 1;
  if (!full) {
    std::error_code ec;
    ToolOutputFile out(outputPath, ec, sys::fs::OF_Text);
    if (ec) {
      errs() << "modelc-backend-test: cannot open '" << outputPath << "'\n";
      return 1;
    }
    module->print(out.os());
    out.keep();
    return 0;
  }
  if (Error err = emitLowered(*module)) {
    logAllUnhandledErrors(std::move(err), errs(), "modelc-backend-test: ");
    return 1;
  }
  return 0;
}
