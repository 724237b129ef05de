//===- modelc-opt.cpp - Runs passes on .mlir files with the mdl dialect ---===//
//
// modelc's counterpart of mlir-opt: parses, verifies, transforms and prints
// IR containing the mdl dialect and every upstream dialect and pass that
// the later stages (lowering to linalg, bufferization, LLVM, GPU) use.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"
#include "modelc/Codegen/EntryPoints.h"
#include "modelc/Conversion/Passes.h"
#include "modelc/Pipelines/CpuPipeline.h"
#include "modelc/Pipelines/GpuPipeline.h"
#include "modelc/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  modelc::registerModelcConversionPasses();
  // The named pipelines, with the passes of compiler/lib/Transforms/{Linalg,
  // CPU,GPU} they run.
  modelc::registerModelcPipelines();
  modelc::registerGpuPipelines();
  modelc::registerModelcTransformsPasses();
  modelc::registerModelcCodegenPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::mdl::MDLDialect>();
  // func, arith, tensor, linalg, math, scf, memref, bufferization, llvm,
  // gpu, ... with their interface models (bufferization, inlining, ...).
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  modelc::registerGpuPipelineDependencies(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "modelc optimizer driver (mdl dialect)\n", registry));
}
