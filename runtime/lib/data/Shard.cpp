//===- Shard.cpp - Each rank's slice of a global batch ---------------------===//
#include "modelrt/data/Shard.h"

#include <algorithm>

namespace modelrt {

ShardSlice shardSlice(int64_t batch, int64_t rank, int64_t ranks) {
  ranks = std::max<int64_t>(ranks, 1);
  int64_t base = batch / ranks, extra = batch % ranks;
  ShardSlice s;
  s.offset = rank * base + std::min(rank, extra);
  s.count = base + (rank < extra ? 1 : 0);
  return s;
}

} // namespace modelrt
