//===- Checkpoint.h - Checkpoints in the safetensors layout ----------------===//
//
// Implements the checkpoint file (format in docs/checkpoints.md): the
// safetensors layout (u64 header length, a JSON header naming every tensor's
// dtype, shape and byte range, then the raw little-endian tensors) holding
// parameters (`param/NAME`), state (`state/NAME`) and optimizer moments
// (`optim/NAME/m`, `optim/NAME/v`), with the training position, schedule,
// RNG, metrics, parameter schema and ABI fingerprint in `__metadata__`.
// Every metadata field is validated on reading (CheckpointMetadata.h) and a
// whole-file checksum is kept. Files are written atomically
// (AtomicFile.h).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_CHECKPOINT_H
#define MODELRT_IO_CHECKPOINT_H

#include "modelrt/core/Status.h"
#include "modelrt/core/Tensor.h"
#include "modelrt/data/DataLoader.h"
#include "modelrt/io/AtomicFile.h"
#include "modelrt/io/Safetensors.h"
#include "modelrt/train/LossSums.h"
#include "modelrt/train/Schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace modelrt {

/// The current checkpoint format version (`__metadata__.format_version`).
/// Version 6 added the run's seed (`data.seed`), version 7 the sums of an
/// epoch in progress (`partial.*`); the runtime reads every version from
/// kOldestCheckpointVersion on.
constexpr uint32_t kCheckpointVersion = 7;
/// The oldest format version the runtime reads.
constexpr uint32_t kOldestCheckpointVersion = 5;

/// One entry of a model's parameter or state table.
struct TensorInfo {
  std::string name;
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
};

/// FNV-1a 64, the hash behind both the model fingerprint and the file
/// checksum (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
struct Fnv1a {
  uint64_t hash = 0xcbf29ce484222325ULL;
  /// Mixes one byte.
  void mixByte(unsigned char c) { hash = (hash ^ c) * 0x100000001b3ULL; }
  /// Mixes \p n bytes at \p p.
  void mix(const void *p, size_t n) {
    for (size_t i = 0; i < n; ++i)
      mixByte(static_cast<const unsigned char *>(p)[i]);
  }
};

/// FNV-1a 64 over the parameter and state tables (names, dtypes, shapes), so
/// two programs with the same fingerprint have interchangeable checkpoints.
uint64_t modelFingerprint(const std::vector<TensorInfo> &params,
                          const std::vector<TensorInfo> &state);
/// "0x" followed by 16 hex digits.
std::string fingerprintToString(uint64_t fingerprint);

/// The window of training steps.csv's next row averages (RunOptions::
/// logEverySteps): the sum of its batches' losses and their count, so that
/// a resumed run logs the rows an uninterrupted one does.
struct StepWindow {
  double loss = 0;
  int64_t batches = 0;
};

/// Everything a checkpoint holds.
struct CheckpointData {
  std::string modelName;
  uint64_t fingerprint = 0;
  uint32_t abiVersion = 1;
  int64_t epoch = 0;  ///< epochs completed
  int64_t step = 0;   ///< optimizer steps completed
  std::vector<std::pair<std::string, Tensor>> params;
  std::vector<std::pair<std::string, Tensor>> state;
  int32_t optimizerKind = 0;
  int64_t optimizerSteps = 0;
  /// Per parameter (same order as params); empty when unused.
  std::vector<std::vector<float>> firstMoments, secondMoments;
  ScheduleState schedule;
  double earlyBest = 0;
  int64_t earlyBad = 0;
  bool earlyHasBest = false;
  double bestLoss = 0;      ///< best monitored loss so far (best.safetensors)
  bool hasBestLoss = false;
  LoaderPosition loader;
  /// The training sums of the epoch in progress (loader.batchIndex batches
  /// of it). A checkpoint written mid-epoch (a run stopped by a signal)
  /// carries them, so that the resumed epoch reports the loss and metrics of
  /// all its batches; all zero (and no metrics) at an epoch's start, and in
  /// checkpoints of formats 5 and 6.
  LossSums epochSums;
  /// The steps.csv window in progress; zero in formats 5 and 6.
  StepWindow stepWindow;
  /// The run's seed, which chose its validation split (`eval` holds out
  /// the same rows, `--resume` requires the same seed); empty in a format
  /// 5 checkpoint: `eval` then uses the compiled seed, and `--resume`
  /// accepts any.
  std::optional<uint64_t> seed;
  std::vector<std::pair<std::string, double>> metrics;
  /// The program's class names (ModelrtProgram::class_names); empty: none.
  std::vector<std::string> classNames;
  /// The program's text vocabulary, code points in id order
  /// (ModelrtProgram::vocab); empty: none.
  std::vector<uint32_t> vocab;
};

/// Serialises \p data into safetensors bytes.
std::string encodeCheckpoint(const CheckpointData &data);
/// Parses safetensors checkpoint bytes; \p path is used in messages.
Expected<CheckpointData> decodeCheckpoint(const std::string &bytes, const std::string &path);

/// Writes a checkpoint atomically.
Status writeCheckpoint(const std::string &path, const CheckpointData &data);
/// Reads and decodes a checkpoint file.
Expected<CheckpointData> readCheckpoint(const std::string &path);
/// The tensors and metadata of the checkpoint file \p path, checked as a
/// whole as readCheckpoint checks it before it decodes the training state:
/// a regular file, a safetensors layout whose tensors tile the data once
/// each, this format's version, an intact checksum, and parameters and
/// state without NaN or infinity.
Expected<SafetensorsFile> readCheckpointFile(const std::string &path);

/// Checks that \p data fits a model with tables \p params and \p state: the
/// error (naming \p path and both model names) lists EVERY missing,
/// unexpected or mis-shaped tensor, optimizer moments included.
Status checkCheckpointFits(const CheckpointData &data, const std::vector<TensorInfo> &params,
                           const std::vector<TensorInfo> &state, const std::string &modelName,
                           const std::string &path);

} // namespace modelrt

#endif // MODELRT_IO_CHECKPOINT_H
