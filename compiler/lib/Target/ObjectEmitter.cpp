//===- ObjectEmitter.cpp - LLVM dialect -> LLVM IR -> object file ---------===//
//
// Implements the in-process back end declared in ObjectEmitter.h: target
// machine creation (host or requested CPU), translation of the LLVM dialect
// to LLVM IR, on request the inlining of entry functions into their
// C-interface wrappers, the -O0..-O3 optimisation pipeline, and emission of
// textual IR or an object file through the legacy codegen pass manager.
//
//===----------------------------------------------------------------------===//
#include "modelc/Target/ObjectEmitter.h"
#include "modelc/Target/SplitLongCode.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

namespace modelc {
namespace {

/// Returns the "+f,-g" feature string of the host CPU.
std::string hostFeatures() {
  std::string features;
  for (const auto &feature : sys::getHostCPUFeatures()) {
    if (!features.empty())
      features += ',';
    features += (feature.second ? "+" : "-") + feature.first().str();
  }
  return features;
}

/// Maps 0..3 to LLVM's codegen optimisation level.
CodeGenOptLevel codeGenLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return CodeGenOptLevel::None;
  case 1:
    return CodeGenOptLevel::Less;
  case 2:
    return CodeGenOptLevel::Default;
  default:
    return CodeGenOptLevel::Aggressive;
  }
}

} // namespace

Expected<std::unique_ptr<TargetMachine>>
createTargetMachine(const TargetOptions &options) {
  if (options.optLevel > 3)
    return createStringError(inconvertibleErrorCode(),
                             "optimisation level must be 0..3, got " +
                                 std::to_string(options.optLevel));
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  Triple triple(options.triple.empty() ? sys::getDefaultTargetTriple()
                                       : options.triple);
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "unknown target '" + triple.str() + "': " + error);
  bool host = options.cpu.empty();
  std::string cpu = host ? sys::getHostCPUName().str() : options.cpu;
  std::unique_ptr<MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, cpu, ""));
  if (!host && (!subtarget || !subtarget->isCPUStringValid(cpu)))
    return createStringError(inconvertibleErrorCode(),
                             "unknown target CPU '" + cpu + "' for " +
                                 triple.str());
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, cpu, host ? hostFeatures() : "", llvm::TargetOptions(),
      Reloc::PIC_, CodeModel::Small, codeGenLevel(options.optLevel)));
  if (!machine)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for " +
                                 triple.str() + " / " + cpu);
  return machine;
}

/// Makes \p callee internal and always inlined when its one use is a direct
/// call in the module.
static void inlineIntoSoleCaller(Function *callee) {
  if (!callee || callee->isDeclaration() || !callee->hasOneUse())
    return;
  auto *call = dyn_cast<CallBase>(callee->user_back());
  if (!call || call->getCalledFunction() != callee)
    return;
  callee->setLinkage(GlobalValue::InternalLinkage);
  callee->removeFnAttr(Attribute::NoInline);
  callee->addFnAttr(Attribute::AlwaysInline);
}

/// Inlines each F whose one caller is its wrapper `_mlir_ciface_F` (which
/// calls it with every memref descriptor expanded into scalars), and the
/// wrapper where a function of the module is its one caller; a wrapper
/// nothing in the module calls stays, for hosts that look it up by name.
static void inlineIntoWrappers(Module &module) {
  constexpr StringLiteral prefix = "_mlir_ciface_";
  std::vector<Function *> wrappers;
  for (Function &fn : module)
    if (!fn.isDeclaration() && fn.getName().starts_with(prefix))
      wrappers.push_back(&fn);
  for (Function *wrapper : wrappers) {
    inlineIntoSoleCaller(
        module.getFunction(wrapper->getName().drop_front(prefix.size())));
    inlineIntoSoleCaller(wrapper);
  }
}

Expected<std::unique_ptr<Module>>
translateAndOptimize(mlir::ModuleOp module, LLVMContext &context,
                     TargetMachine &machine, const TargetOptions &options) {
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);
  std::unique_ptr<Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return createStringError(inconvertibleErrorCode(),
                             "cannot translate the module to LLVM IR (it must "
                             "contain only LLVM dialect operations)");
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());
  // Record the CPU on each definition so that the textual IR is
  // self-describing (llc/opt on it then target the same CPU).
  for (Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    if (!function.hasFnAttribute("target-cpu"))
      function.addFnAttr("target-cpu", machine.getTargetCPU());
    if (!function.hasFnAttribute("target-features") &&
        !machine.getTargetFeatureString().empty())
      function.addFnAttr("target-features", machine.getTargetFeatureString());
  }
  if (options.inlineIntoWrappers)
    inlineIntoWrappers(*llvmModule);
  auto optimize =
      mlir::makeOptimizingTransformer(options.optLevel, 0, &machine);
  if (Error err = optimize(llvmModule.get()))
    return std::move(err);
  return llvmModule;
}

Error emitLLVMIR(mlir::ModuleOp module, const TargetOptions &options,
                 raw_ostream &os) {
  auto machine = createTargetMachine(options);
  if (!machine)
    return machine.takeError();
  LLVMContext context;
  auto llvmModule = translateAndOptimize(module, context, **machine, options);
  if (!llvmModule)
    return llvmModule.takeError();
  (*llvmModule)->print(os, nullptr);
  return Error::success();
}

Error emitObjectFile(mlir::ModuleOp module, const TargetOptions &options,
                     raw_pwrite_stream &os) {
  auto machine = createTargetMachine(options);
  if (!machine)
    return machine.takeError();
  LLVMContext context;
  auto llvmModule = translateAndOptimize(module, context, **machine, options);
  if (!llvmModule)
    return llvmModule.takeError();
  return emitObject(**llvmModule, **machine, os, options.split);
}

Error emitObject(Module &module, TargetMachine &machine, raw_pwrite_stream &os,
                 const CodeSplitLimits &limits) {
  splitLongCode(module, limits);
  compileGlueFast(module);
  legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  CodeGenFileType::ObjectFile))
    return createStringError(inconvertibleErrorCode(),
                             "the target cannot emit object files");
  codegen.run(module);
  return Error::success();
}

} // namespace modelc
