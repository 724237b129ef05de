//===- Shard.h - Each rank's slice of a global batch -----------------------===//
//
// Implements `shardSlice`, the rule by which the ranks of a data-parallel
// run split every global batch (docs/distributed.md): the batch's samples,
// in the epoch's order, are cut into `ranks` contiguous slices; the first
// `batch mod ranks` ranks take one sample more than the others. A partial
// last batch is split by the same rule, so a rank's slice may be empty.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DATA_SHARD_H
#define MODELRT_DATA_SHARD_H

#include <cstdint>

namespace modelrt {

/// Where one rank's samples lie within a batch.
struct ShardSlice {
  int64_t offset = 0; ///< the first sample, counted from the batch's start
  int64_t count = 0;  ///< the rank's samples (may be 0)
};

/// Rank \p rank's slice of a batch of \p batch samples split over \p ranks.
ShardSlice shardSlice(int64_t batch, int64_t rank, int64_t ranks);

} // namespace modelrt

#endif // MODELRT_DATA_SHARD_H
