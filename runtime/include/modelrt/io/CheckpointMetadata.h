//===- CheckpointMetadata.h - A checkpoint's __metadata__ fields -----------===//
//
// Implements the `__metadata__` fields of a checkpoint (docs/checkpoints.md):
// writing them, and reading them back with every value validated before it
// is used -- its syntax (canonical decimal integers, `%.17g` doubles, 0/1
// flags, hex words), its range (non-negative counters, a known optimizer
// kind, a finite learning rate...), its relations to the other fields (the
// step counts agree, the schema and fingerprint describe the file's
// tensors) and the whole-file checksum. A checkpoint that lies is refused
// with an error naming the file, the field and its value. What depends on
// the run (the program's fingerprint, the configured epochs, the data set's
// batches per epoch) is checked by checkResumeTarget.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_CHECKPOINTMETADATA_H
#define MODELRT_IO_CHECKPOINTMETADATA_H

#include "modelrt/core/Status.h"
#include "modelrt/io/Checkpoint.h"
#include "modelrt/io/Safetensors.h"

#include <string>
#include <utility>
#include <vector>

namespace modelrt {

/// The `__metadata__` key of the whole-file checksum.
constexpr const char *kChecksumKey = "checksum";

/// The metadata of \p data in file order; the checksum's value is a
/// placeholder ("0x" and 16 zeros) that sealCheckpointChecksum fills in.
std::vector<std::pair<std::string, std::string>> encodeCheckpointMetadata(const CheckpointData &data);

/// FNV-1a 64 over the file \p bytes with the checksum's 16 hex digits read
/// as '0'; \p digitsAt is their offset (from findChecksumDigits).
uint64_t checkpointChecksum(const std::string &bytes, size_t digitsAt);
/// The offset of the checksum's 16 hex digits in the header of \p bytes, or
/// std::string::npos when `"checksum":"0x` does not occur exactly once
/// followed by 16 hex digits and a quote.
size_t findChecksumDigits(const std::string &bytes);
/// Writes the checksum of \p bytes (encoded with a checksum field) into it.
void sealCheckpointChecksum(std::string &bytes);

/// Checks `format` and `format_version` of \p file (read from \p path).
Status checkCheckpointFormat(const SafetensorsFile &file, const std::string &path);
/// Checks the checksum of the checkpoint \p bytes, whose metadata is in \p file.
Status verifyCheckpointChecksum(const std::string &bytes, const SafetensorsFile &file,
                                const std::string &path);
/// Reads and validates every metadata field of \p file into \p data, whose
/// tensors are already set (the schema and fingerprint must describe them).
Status decodeCheckpointMetadata(const SafetensorsFile &file, const std::string &path,
                                CheckpointData &data);

/// What a run resuming from a checkpoint requires of it.
struct ResumeTarget {
  uint64_t fingerprint = 0;     ///< the program's fingerprint
  uint32_t abiVersion = 0;      ///< the program's ABI version
  int32_t optimizerKind = 0;    ///< the configured optimizer
  int64_t epochs = 0;           ///< the configured number of epochs
  int64_t batchesPerEpoch = 0;  ///< of the training set with the configured batch size
  uint64_t seed = 0;            ///< the run's seed (checked when the checkpoint has one)
  int64_t numMetrics = 0;       ///< the program's metrics (an epoch in progress has their sums)
  int64_t batchSize = 0;        ///< the configured (global) batch size
  int64_t accumulate = 1;       ///< batches per optimizer step
  /// The labels the loss averages over per sample (countedLabels), and
  /// whether some may be ignored (an ignore index): what an epoch's
  /// partial.counted must agree with.
  int64_t labelsPerSample = 1;
  bool labelsMayBeIgnored = false;
};

/// Checks that \p data (read from \p path) can continue the run \p target.
Status checkResumeTarget(const CheckpointData &data, const ResumeTarget &target,
                         const std::string &path);

} // namespace modelrt

#endif // MODELRT_IO_CHECKPOINTMETADATA_H
