//===- CheckpointStore.h - A run's checkpoint directory --------------------===//
//
// Implements the per-epoch checkpoint policy of a training run: each epoch's
// checkpoint is written atomically as DIR/epoch-NNNNNN.safetensors, then
// DIR/last.safetensors (and DIR/best.safetensors when the monitored loss
// improved) are atomically replaced by hard links to it (a copy where links
// are unsupported), and epoch files beyond the newest `keep` are removed.
// A run stopped within an epoch writes DIR/last.safetensors alone.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_CHECKPOINTSTORE_H
#define MODELRT_IO_CHECKPOINTSTORE_H

#include "modelrt/io/Checkpoint.h"

#include <string>
#include <vector>

namespace modelrt {

/// Where checkpoints go and how many epoch files are kept (0 = all).
struct CheckpointPolicy {
  std::string dir = ".";
  int64_t keep = 3;
};

/// The file name of epoch \p epoch's checkpoint ("epoch-000003.safetensors").
std::string epochCheckpointName(int64_t epoch);

/// Saves \p data (its `epoch` names the file) under \p policy; \p isBest also
/// replaces best.safetensors.
Status saveEpochCheckpoint(const CheckpointPolicy &policy, const CheckpointData &data,
                           bool isBest);

/// Saves \p data, a run stopped within an epoch, as last.safetensors alone
/// (atomically; the epoch files it linked to stay as they are).
Status saveMidEpochCheckpoint(const CheckpointPolicy &policy, const CheckpointData &data);

/// The epoch checkpoint files in \p dir, oldest first (names only).
std::vector<std::string> listEpochCheckpoints(const std::string &dir);

/// Whether \p name is a checkpoint a run writes in its directory:
/// last.safetensors, best.safetensors or an epoch checkpoint.
bool isRunCheckpointName(const std::string &name);

} // namespace modelrt

#endif // MODELRT_IO_CHECKPOINTSTORE_H
