//===- ExportStages.cpp - The driver's export stages
//-----------------------===//
//
// The `onnx` stage: names the graph after the main model's signature, reads
// the checkpoint, notes that a bf16-precision program's products are
// exported on f32 operands, computes bf16/f16 ops in f32 between casts
// (mdl-widen-low-precision), exports @forward_eval, and reports an op without
// an ONNX form at its place in the source (the outermost call site, the user's
// line, for an op inside an imported function).
//
//===----------------------------------------------------------------------===//
#include "ExportStages.h"
#include "Stages.h"

#include "modelc/Export/OnnxExport.h"
#include "modelc/Transforms/Passes.h"
#include "modelsupport/CheckpointModel.h"

#include "mlir/Pass/PassManager.h"

#include "mlir/IR/Location.h"

#include "llvm/Support/WithColor.h"

using namespace modelc;

/// The source location of \p loc: the outermost caller's file position.
static llvm::SMLoc sourceLoc(llvm::SourceMgr &sm, mlir::Location loc) {
  while (auto call = mlir::dyn_cast<mlir::CallSiteLoc>(loc))
    loc = call.getCaller();
  auto file = mlir::dyn_cast<mlir::FileLineColLoc>(loc);
  if (!file)
    return llvm::SMLoc();
  for (unsigned id = 1; id <= sm.getNumBuffers(); ++id)
    if (sm.getMemoryBuffer(id)->getBufferIdentifier() ==
        file.getFilename().getValue())
      return sm.FindLocForLineAndColumn(id, file.getLine(),
                                        file.getColumn());
  return llvm::SMLoc();
}

/// The graph's input and output names from the main model's signature.
static OnnxExportOptions exportOptions(const Compilation &c) {
  OnnxExportOptions options;
  options.includeTransform = c.exportSettings.includeTransform;
  options.producerVersion = c.exportSettings.version;
  const sema::Graph *g = c.program->getMainModel();
  if (g && !g->inputNames.empty())
    options.inputName = g->inputNames[0];
  if (g && !g->inputs.empty()) {
    const auto &shape = g->nodes[g->inputs[0]].type.shape;
    if (!shape.empty() && shape[0].isSymbolic())
      options.batchName = shape[0].symbol;
  }
  return options;
}

bool modelc::runOnnx(Compilation &c) {
  if (c.exportSettings.checkpoint.empty()) {
    inputError(c) << "--emit=onnx needs the trained weights: "
                     "--checkpoint FILE.safetensors\n";
    return false;
  }
  llvm::Expected<SafetensorsContents> ck =
      readSafetensors(c.exportSettings.checkpoint);
  if (!ck) {
    inputError(c) << llvm::toString(ck.takeError()) << "\n";
    return false;
  }
  auto config =
      (*c.mlirModule)->getAttrOfType<mlir::DictionaryAttr>("mdl.config");
  auto model = config ? config.getAs<mlir::StringAttr>("model") : nullptr;
  auto written = ck->metadata.find("model");
  std::string otherModel =
      model && written != ck->metadata.end()
          ? modelsupport::otherModelNote(c.exportSettings.checkpoint,
                                         written->second, model.str())
          : std::string();
  if (c.program && c.program->train && c.program->train->precision == "bf16")
    llvm::WithColor::note(llvm::errs(), "modelc")
        << "--emit=onnx: this program trains at precision bf16; the ONNX graph "
           "computes its products on f32 operands, so its outputs differ from "
           "predict's by the bf16 rounding of those operands\n";
  // bf16 and f16 ops become f32 ops between casts, which every ONNX
  // runtime computes (a CPU runtime may have no bf16 MatMul).
  mlir::PassManager widen(c.mlirModule->getContext());
  widen.addPass(createMDLWidenLowPrecision());
  if (mlir::failed(widen.run(*c.mlirModule)))
    return false;
  llvm::raw_string_ostream os(c.exported);
  llvm::Error e = exportOnnx(*c.mlirModule, *ck, exportOptions(c), os);
  bool ok = true;
  llvm::handleAllErrors(
      std::move(e),
      [&](const OnnxExportError &err) {
        c.diags.error(sourceLoc(c.sourceMgr, err.loc),
                      "cannot export to ONNX: " + err.text);
        ok = false;
      },
      [&](const llvm::ErrorInfoBase &err) {
        inputError(c) << c.exportSettings.checkpoint << ": " << err.message()
                      << "\n";
        ok = false;
      });
  if (ok && !otherModel.empty()) // said once the tensors are known to fit
    llvm::WithColor::note(llvm::errs(), "modelc") << otherModel << "\n";
  return ok;
}

bool modelc::emitOnnx(Compilation &c, llvm::raw_ostream &os) {
  if (os.is_displayed()) {
    inputError(c) << "refusing to write an ONNX model to a terminal "
                     "(use -o FILE)\n";
    return false;
  }
  os << c.exported;
  return true;
}
