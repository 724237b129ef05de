//===- ProgramLayout.h - LLVM types of modelrt/core/Program.h -*- C++ -*-===//
//
// Declares the LLVM struct types the program emitter uses for the runtime's
// C ABI structures (ModelrtTensorDesc, ModelrtLayerInfo, the configuration
// structs and
// ModelrtProgram), field for field in declaration order. With the target's
// DataLayout their offsets equal the C compiler's; ProgramLayoutTest checks
// every field against offsetof() on the real header.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_CODEGEN_PROGRAMLAYOUT_H
#define MODELC_CODEGEN_PROGRAMLAYOUT_H

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"

namespace modelc {

/// The field types of the schema's ABI structs (TrainConfig.def); a list is
/// two fields, its count (i32) and its pointer.
enum class AbiFieldType { I32, I64, U64, F64, I64_LIST };

/// The runtime's ABI structures as LLVM types (created once per context).
struct ProgramLayout {
  llvm::StructType *tensorDesc;
  llvm::StructType *layerInfo;
  llvm::StructType *productOperands;
  llvm::StructType *optimizerConfig;
  llvm::StructType *scheduleConfig;
  llvm::StructType *dataConfig;
  llvm::StructType *augment;
  llvm::StructType *trainConfig;
  llvm::StructType *program;

  /// Builds (or finds) the named struct types in `ctx`.
  static ProgramLayout get(llvm::LLVMContext &ctx);
};

/// Field numbers of ModelrtProgram in `ProgramLayout::program`.
enum ProgramField : unsigned {
  PF_AbiVersion, PF_Name, PF_NumParams, PF_Params, PF_NumState, PF_State,
  PF_InputRank, PF_InputShape, PF_InputDType, PF_LabelDType, PF_NumClasses, PF_LabelRank,
  PF_LabelShape, PF_OutputRank, PF_OutputShape, PF_NumMetrics,
  PF_MetricNames, PF_Config, PF_Context, PF_TrainStep, PF_EvalStep,
  PF_Predict, PF_TrainFlops, PF_SetThreads, PF_GpuTrainStep, PF_GpuEvalStep,
  PF_GpuPredict, PF_GpuTrainEnqueue, PF_GpuTrainFinish, PF_NumClassNames,
  PF_ClassNames, PF_NumLayers, PF_Layers, PF_InputIdLimit,
  PF_HasIgnoreIndex, PF_IgnoreIndex, PF_NumVocab, PF_Vocab, PF_DecodeStep,
  PF_NumCaches, PF_Caches, PF_DecodeLength, PF_Precision, PF_NumBf16Products,
  PF_Bf16Products, PF_RoundedValues, PF_GpuConvolutions, PF_Count
};

} // namespace modelc

#endif // MODELC_CODEGEN_PROGRAMLAYOUT_H
