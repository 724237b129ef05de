//===- ProgramSpec.h - What a compiled model tells the runtime --*- C++ -*-===//
//
// Declares ProgramSpec: everything the generated `ModelrtProgram` constant
// and the entry-point adapters need, read from the `mdl` module before it is
// lowered (parameter/state tables, the `mdl.config` attribute, the input,
// label and output signatures) and completed after lowering with the exact
// argument/result layout of each generated entry function (EntryAbi).
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_CODEGEN_PROGRAMSPEC_H
#define MODELC_CODEGEN_PROGRAMSPEC_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace modelc {

/// Element types at the ABI boundary (values of the runtime's MODELRT_*).
enum class AbiType : int32_t { F32 = 0, F64 = 1, I32 = 2, I64 = 3 };

/// One parameter or state tensor of the table (ModelrtTensorDesc).
struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape;
  int32_t initKind = 0; ///< MODELRT_INIT_*
  double initArgs[2] = {0, 0};
  int64_t fanIn = 0, fanOut = 0;
};

/// One training augmentation (ModelrtAugment): a MODELRT_AUG_* kind and
/// its arguments, unused ones 0.
struct AugmentSpec {
  int32_t kind = 0;
  std::vector<double> args;
};

/// One top-level layer of the model for `info` (ModelrtLayerInfo), per
/// sample.
struct LayerSpec {
  std::string name;
  std::vector<int64_t> shape; ///< the output without the batch dimension
  int64_t params = 0;
  double flops = 0;           ///< forward FLOPs
  int64_t activationBytes = 0;
};

/// The operands of one bf16 product of train_step
/// (ModelrtProductOperands): each operand's elements are fixed[i] +
/// batch * perSample[i].
struct ProductOperandsSpec {
  int32_t kind = 0; ///< MODELRT_PRODUCT_*
  int64_t fixed[2] = {0, 0};
  int64_t perSample[2] = {0, 0};
};

/// The C++ types of the schema's ABI field types (TrainConfig.def).
namespace abi {
using I32 = int32_t;
using I64 = int64_t;
using U64 = uint64_t;
using F64 = double;
using I64_LIST = std::vector<int64_t>;
} // namespace abi

/// ModelrtOptimizerConfig by value: the schema's fields, zero by default.
struct OptimizerDefaults {
#define MODELRT_ABI_OPTIMIZER(TYPE, NAME, READ, CXX) abi::TYPE NAME{};
#include "modelsupport/TrainConfig.def"
};

/// ModelrtScheduleConfig by value (a list holds its own count).
struct ScheduleDefaults {
#define MODELRT_ABI_SCHEDULE(TYPE, NAME, READ, CXX) abi::TYPE NAME{};
#include "modelsupport/TrainConfig.def"
};

/// The default training configuration (ModelrtTrainConfig, by value). The
/// options' fields mirror the ABI's names; the data set's are written here.
struct TrainDefaults {
  OptimizerDefaults optimizer;
  ScheduleDefaults schedule;
  int32_t dataFormat = 0; ///< MODELRT_DATA_*
  std::string trainInputs, trainLabels, testInputs, testLabels;
  std::vector<std::string> labelColumns; ///< CSV: the label columns
  std::vector<std::string> columns;      ///< CSV: the feature columns
  double scale = 1;         ///< (x * scale ...
  std::vector<double> mean; ///< ... - mean[c]) / stddev[c]; empty: none,
  std::vector<double> stddev; ///< one entry: global, else per feature
  double valFraction = 0;
  /// The training augmentations in order (ModelrtAugment by value).
  std::vector<AugmentSpec> augment;
  int64_t resizeHeight = 0, resizeWidth = 0; ///< images: 0 = no resize
  int32_t centerCrop = 0;                    ///< images: cut the centre out
  /// Token streams: the window length (0: none), MODELRT_TOKENS_* (text)
  /// and the chars vocabulary (code points; the program's `vocab`).
  int64_t seqLen = 0;
  int32_t tokens = 0;
  std::vector<int32_t> vocab;
  /// Integer inputs: ids must lie in [0, inputIdLimit) (0: unchecked).
  int64_t inputIdLimit = 0;
#define MODELRT_ABI_TRAIN(TYPE, NAME) abi::TYPE NAME{};
#include "modelsupport/TrainConfig.def"
};

/// What one argument or result of a generated entry function carries.
enum class SlotKind {
  Input,    ///< the batch of inputs [B, input...]
  Labels,   ///< the batch of labels
  Seed,     ///< tensor<i64> dropout seed
  Param,    ///< parameter `index` (argument)
  StateIn,  ///< state `index` read (argument)
  Loss,     ///< tensor<f32>: the mean loss (train_step)
  LossSum,  ///< tensor<f32>: the summed loss (eval_metrics)
  Grad,     ///< gradient of parameter `index`
  Correct,  ///< tensor<i64>: number of correctly classified samples
  Output,   ///< [B, output...] f32 (predict)
  StateOut, ///< new value of state `index` (result)
  Position, ///< tensor<i64>: the position a decoding step computes
  CacheIn,  ///< cache `index` of the decoding step (argument) ...
  CacheOut, ///< ... and its update (result), both the runtime's buffer
};

/// One memref argument/result slot of an entry function.
struct AbiSlot {
  SlotKind kind;
  unsigned index = 0; ///< table index for Param/StateIn/Grad/StateOut/Cache*
  unsigned rank = 0;
  AbiType type = AbiType::F32;
  std::vector<int64_t> shape; ///< -1 for the dynamic batch dimension
};

/// The C interface of one generated entry function: `_mlir_ciface_<symbol>`
/// takes one descriptor pointer per argument, then one per result.
struct EntryAbi {
  std::string symbol;
  std::vector<AbiSlot> args, results;
  bool present() const { return !symbol.empty(); }
};

/// Everything the program emitter needs.
struct ProgramSpec {
  std::string name;
  std::vector<TensorSpec> params, states;
  std::vector<int64_t> inputShape;  ///< one sample
  AbiType inputType = AbiType::F32; ///< F32, or I32/I64 ids
  AbiType labelType = AbiType::I64; ///< I64 classes or F32 targets
  int64_t numClasses = 0;
  /// Per sample: F32 targets' shape, or I64 class indices' ([]: one per
  /// sample, [T]: one per token).
  std::vector<int64_t> labelShape;
  /// cross_entropy's ignore_index, when it has one.
  std::optional<int64_t> ignoreIndex;
  std::vector<int64_t> outputShape; ///< one sample
  std::vector<std::string> metrics; ///< extra metrics ("accuracy")
  std::vector<std::string> classNames; ///< empty, or one per class
  TrainDefaults config;
  double trainFlopsPerSample = 0;
  std::vector<LayerSpec> layers; ///< from `mdl.layers`; empty = unknown
  bool bf16 = false; ///< the module's `mdl.precision` is bf16
  bool tf32 = false; ///< the module's `mdl.precision` is tf32 (GPU products)
  bool roundedValues = false; ///< train_step rounds values to bf16 or f16
  /// What the GPU code's convolutions call (MODELRT_GPU_CONV_*); set by the
  /// training compiler, which knows whether it emits GPU code.
  int32_t gpuConvolutions = 0;
  std::vector<ProductOperandsSpec> bf16Products; ///< train_step's, in order
  EntryAbi trainStep, evalStep, predict;
  /// The decoding step (@decode_step), absent when the model has none; its
  /// key/value caches ("cache<c>.key", "cache<c>.value", zeros) and the
  /// positions of a sequence.
  EntryAbi decodeStep;
  std::vector<TensorSpec> caches;
  int64_t decodeLength = 0;
};

/// Names of the entry functions the pipeline prepares in the mdl module.
inline constexpr const char *kTrainStepName = "train_step";
inline constexpr const char *kEvalStepName = "eval_metrics";
inline constexpr const char *kPredictName = "predict";

/// Reads the tables, signatures and `mdl.config` of an `mdl` module (after
/// the entry points were prepared, before lowering). Errors name what is
/// missing or unsupported.
llvm::Expected<ProgramSpec> extractProgramSpec(mlir::ModuleOp module);

/// Fills `spec.trainStep/evalStep/predict` (and `decodeStep` when the spec
/// has caches) from the lowered module (linalg on tensors, before
/// bufferization): one slot per argument and result, the parameter/state
/// slots identified by their `mdl.param`/`mdl.state` argument and result
/// attributes (docs/lowering.md), the caches by `mdl.cache`.
llvm::Error bindEntryAbis(mlir::ModuleOp lowered, ProgramSpec &spec);

} // namespace modelc

#endif // MODELC_CODEGEN_PROGRAMSPEC_H
