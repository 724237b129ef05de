//===- Model.h - A program's parameters, state and data, seen from C++ -----===//
//
// Implements the bridge between the C ABI (Program.h) and the C++ runtime:
// `ModelState` owns the parameter and state buffers and initialises them from
// the program's initialisers (seeded, one stream per tensor); the program's
// tables give the fingerprint used by checkpoints; `loadTrainingData` reads
// and validates the train/validation sets named by the data configuration;
// the converters build OptimizerConfig/ScheduleConfig/LoaderConfig from it.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_MODEL_H
#define MODELRT_CORE_MODEL_H

#include "modelrt/core/Program.h"
#include "modelrt/data/DataLoader.h"
#include "modelrt/io/Checkpoint.h"
#include "modelrt/train/Optimizer.h"
#include "modelrt/train/Schedule.h"

#include <optional>

namespace modelrt {

/// Checks the program's tables and entry points (ABI version, f32 tensors,
/// shapes, initialiser kinds).
Status validateProgram(const ModelrtProgram &program);

/// The parameter and state tables as TensorInfo lists.
std::vector<TensorInfo> paramTable(const ModelrtProgram &program);
std::vector<TensorInfo> stateTable(const ModelrtProgram &program);
/// modelFingerprint of the program's tables.
uint64_t programFingerprint(const ModelrtProgram &program);

/// Owned parameter and state buffers with pointer arrays for the ABI.
struct ModelState {
  std::vector<std::vector<float>> params, state;
  std::vector<float *> paramPtrs, statePtrs;
  /// Element counts of the parameters.
  std::vector<int64_t> paramSizes() const;
  /// Recomputes the pointer arrays (after the vectors changed).
  void bind();
};

/// Allocates and initialises every tensor from its initialiser with \p seed.
ModelState initModelState(const ModelrtProgram &program, uint64_t seed);
/// The program's class names (empty when it has none).
std::vector<std::string> classNames(const ModelrtProgram &program);
/// Copies parameters and state from a checkpoint (names and sizes checked,
/// and the class names when both have them).
Status restoreModelState(ModelState &model, const CheckpointData &ckpt,
                         const ModelrtProgram &program, const std::string &path);
/// Stores parameters and state (and the class names) into a checkpoint.
void saveModelState(const ModelState &model, const ModelrtProgram &program,
                    CheckpointData &ckpt);

/// The train set and the optional validation set (test files, else a split).
struct TrainingData {
  Dataset train;
  std::optional<Dataset> validation;
};
/// Reads, normalises and validates the data named by \p config.
Expected<TrainingData> loadTrainingData(const ModelrtProgram &program,
                                        const ModelrtTrainConfig &config);
/// The set `eval` evaluates: the test files (read alone), else the
/// validation split of the training set, else the training set.
Expected<Dataset> loadEvaluationData(const ModelrtProgram &program,
                                     const ModelrtTrainConfig &config);
/// What \p program accepts of a data set: its sample shape, classes, ids'
/// limit and ignored label.
DataRules dataRules(const ModelrtProgram &program);
/// The program's input element type: F32, or I32/I64 ids.
DType inputType(const ModelrtProgram &program);
/// The program's chars vocabulary: token i is code point [i] (empty: none).
std::vector<uint32_t> vocabulary(const ModelrtProgram &program);
/// Applies the data configuration's scale/mean/std to \p data.
Status applyInputTransforms(Dataset &data, const ModelrtDataConfig &config);

OptimizerConfig toOptimizerConfig(const ModelrtOptimizerConfig &c);
/// The schedule of a run of \p epochs epochs of \p stepsPerEpoch optimizer
/// steps: the annealing lasts total_steps, else total_epochs (a length the
/// source fixed), else the run's epochs, each of the run's steps per epoch.
ScheduleConfig toScheduleConfig(const ModelrtScheduleConfig &c, int64_t epochs,
                                int64_t stepsPerEpoch);

} // namespace modelrt

#endif // MODELRT_CORE_MODEL_H
