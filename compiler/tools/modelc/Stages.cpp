//===- Stages.cpp - The modelc driver's pipeline of stages ----------------===//
//
// The table of stages and their run/emit functions: tokens, ast, sema
// (semantic analysis), mlir (MLIR generation), the onnx export branching
// off there (ExportStages.cpp), then grad, linalg, fused, gpu, ptx, llvm and
// obj (code generation, CodegenStages.cpp), and lib (LibraryStage.cpp).
//
//===----------------------------------------------------------------------===//

#include "Stages.h"
#include "CodegenStages.h"
#include "LibraryStage.h"

#include "modelc/Frontend/ASTDump.h"
#include "modelc/Frontend/Lexer.h"
#include "modelc/Frontend/Parser.h"
#include "modelc/MLIRGen/MLIRGen.h"
#include "modelc/Sema/Sema.h"
#include "modelc/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include "mlir/IR/OperationSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/WithColor.h"

using namespace modelc;

static bool emitTokens(Compilation &c, llvm::raw_ostream &os) {
  Lexer lexer(c.diags, c.mainBuffer);
  std::vector<Token> tokens = lexer.lexAll();
  dumpTokens(tokens, c.sourceMgr, os);
  return !c.diags.hasErrors();
}

static bool runParse(Compilation &c) {
  c.module = parseModule(c.diags, c.mainBuffer);
  return !c.diags.hasErrors();
}

static bool emitAST(Compilation &c, llvm::raw_ostream &os) {
  dumpAST(*c.module, c.sourceMgr, os);
  return true;
}

/// Says, once, that tf32 means f32 for the CPU code (which every executable
/// has): at the train block's `precision`, or for `--precision`.
static void noteCpuPrecision(Compilation &c, const sema::TrainConfig &train) {
  if (train.precision != "tf32")
    return;
  const char *what = "precision tf32 applies to the GPU code's products and "
                     "convolutions; the CPU code runs them in f32";
  if (c.precisionOverride.empty() && train.precisionRange.isValid())
    c.diags.standaloneNote(train.precisionRange.Start, what, {train.precisionRange});
  else
    llvm::WithColor::note(llvm::errs(), "modelc") << "--precision=tf32: " << what << "\n";
}

/// True when \p g has a product (matmul or convolution) of f16 values.
static bool hasF16Product(const sema::Graph &g) {
  for (const sema::Node &n : g.nodes) {
    bool product = n.kind == sema::OpKind::MatMul ||
                   n.kind == sema::OpKind::BatchMatMul ||
                   n.kind == sema::OpKind::Conv2D;
    if (product && n.type.dtype == sema::DType::F16)
      return true;
  }
  return false;
}

/// Says, once, that precision bf16 rounds the operands of the model's f16
/// products to bf16 too (bf16 keeps 8 significant bits, f16 11).
static void noteF16Products(Compilation &c, const sema::TrainConfig &train) {
  const sema::Graph *g = c.program->getMainModel();
  if (train.precision != "bf16" || !g || !hasF16Product(*g))
    return;
  const char *what =
      "precision bf16 rounds the operands of every product to bf16, "
      "those of the model's f16 values too (8 significant bits "
      "against f16's 11); write those values bf16, or train at f32 "
      "to keep f16's bits";
  if (c.precisionOverride.empty() && train.precisionRange.isValid())
    c.diags.standaloneNote(train.precisionRange.Start, what,
                           {train.precisionRange});
  else
    llvm::WithColor::note(llvm::errs(), "modelc")
        << "--precision=bf16: " << what << "\n";
}

static bool runSema(Compilation &c) {
  SemaOptions options;
  size_t n = std::min(c.numIncludeDirs, c.importPath.size());
  options.includeDirs.assign(c.importPath.begin(), c.importPath.begin() + n);
  if (c.importPath.size() > n)
    options.stdlibDir = c.importPath.back();
  c.program = analyzeProgram(c.diags, *c.module, options);
  if (c.program && c.program->train && !c.precisionOverride.empty())
    c.program->train->precision = c.precisionOverride;
  if (c.program && c.program->train && !c.batchNormOverride.empty())
    c.program->train->batchNorm = c.batchNormOverride;
  if (c.program && c.program->train) {
    noteCpuPrecision(c, *c.program->train);
    noteF16Products(c, *c.program->train);
  }
  if (c.program && !c.program->train && !c.precisionOverride.empty())
    llvm::WithColor::warning(llvm::errs(), "modelc")
        << "--precision=" << c.precisionOverride
        << " has no effect: the program has no train block, and the precision "
           "is the training's\n";
  return c.program != nullptr;
}

static bool emitSema(Compilation &c, llvm::raw_ostream &os) {
  sema::printProgram(os, *c.program, c.sourceMgr);
  return true;
}

static llvm::cl::opt<bool>
    printDebugInfo("mlir-print-debuginfo",
                   llvm::cl::desc("Print source locations in --emit=mlir"));

llvm::raw_ostream &modelc::inputError(const Compilation &c) {
  return llvm::WithColor::error(llvm::errs(), "modelc")
         << (c.inputName == "-" ? "<stdin>" : c.inputName) << ": ";
}

static bool runMLIRGen(Compilation &c) {
  mlir::DialectRegistry registry;
  registerMLIRGenDialects(registry);
  c.mlirContext = std::make_unique<mlir::MLIRContext>(registry);
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      generateMLIR(*c.mlirContext, *c.program, c.sourceMgr);
  if (module) {
    c.mlirModule = std::move(*module);
    // The products' precision, visible in --emit=mlir (autodiff's
    // gradient products get theirs when the grad stage runs the pass
    // again).
    mlir::PassManager pm(c.mlirContext.get());
    pm.addPass(createMDLAssignPrecision());
    if (mlir::failed(pm.run(*c.mlirModule)))
      llvm::report_fatal_error("mdl-assign-precision failed on a checked program");
    return true;
  }
  llvm::handleAllErrors(
      module.takeError(),
      [](const InternalError &e) {
        // A compiler bug: the fatal-error handler exits with 2.
        llvm::report_fatal_error(llvm::Twine(e.message()));
      },
      [&](const llvm::ErrorInfoBase &e) {
        inputError(c) << e.message() << "\n";
      });
  return false;
}

static bool emitMLIR(Compilation &c, llvm::raw_ostream &os) {
  mlir::OpPrintingFlags flags;
  if (printDebugInfo)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
        .useLocalScope();
  c.mlirModule->print(os, flags);
  return true;
}

static const Stage kStages[] = {
    {"tokens", "the token stream, one token per line", "lexing", nullptr,
     emitTokens},
    {"ast", "the abstract syntax tree", "parsing", runParse, emitAST},
    {"sema",
     "the checked program: instances, every value's type, the parameter "
     "table",
     "semantic analysis", runSema, emitSema},
    {"mlir", "the mdl dialect module", "MLIR generation", runMLIRGen,
     emitMLIR},
    {"onnx",
     "the evaluation graph with the --checkpoint weights as an ONNX model "
     "(opset 17; use -o)",
     "ONNX export", runOnnx, emitOnnx, /*write=*/nullptr, /*branch=*/true},
    {"grad",
     "the mdl module after autodiff: @train_step, @eval_metrics, @predict",
     "autodiff", runGrad, emitGrad},
    {"linalg", "the module lowered to linalg (parameters as arguments)",
     "lowering to linalg", runLinalg, emitLinalg},
    {"fused",
     "the fused kernels: one function per fused group or sgemm call, "
     "bufferized, named after the mdl ops it computes",
     "fusion and bufferization", runFused, emitFused},
    {"gpu",
     "the GPU version: host functions launching one gpu.func kernel per "
     "fused group, sgemm calls into cuBLAS",
     "GPU kernel generation", runGpuKernels, emitGpuKernels},
    {"ptx", "the PTX of every GPU kernel, each after a `//--- NAME.ptx` line",
     "PTX generation", runPtx, emitPtx},
    {"llvm", "the LLVM IR: kernels, runtime adapters, modelc_program, main",
     "LLVM code generation", runLLVM, emitLLVM},
    {"obj", "an object file (use -o; never written to a terminal)",
     "object emission", nullptr, emitObject},
    {"lib",
     "the model as a library, -o libNAME.a or libNAME.so, with NAME.h "
     "beside it: NAME_load, NAME_predict, NAME_free (CPU only)",
     "library emission", nullptr, nullptr, writeLibrary},
};

llvm::ArrayRef<Stage> modelc::getStages() { return kStages; }

const Stage *modelc::findStage(llvm::StringRef name) {
  for (const Stage &stage : kStages)
    if (name == stage.name)
      return &stage;
  return nullptr;
}

std::string modelc::listStageNames() {
  std::vector<std::string> names;
  for (const Stage &stage : kStages)
    names.push_back(stage.name);
  return llvm::join(names, ", ");
}
