//===- DataLoader.h - Shuffled batches with augmentation and prefetch ------===//
//
// Implements `DataLoader`. Each training epoch draws a fresh full random
// permutation (Fisher-Yates with the loader's xoshiro256** stream), so every
// sample appears exactly once per epoch; batches are assembled on a worker
// thread into a bounded queue. Training-only augmentation (the list of
// Augment.h, in order) draws from one stream per sample derived from
// (seed, epoch, sample index), and may be split over several threads per
// batch, so neither prefetching nor the thread count changes results. The
// worker fills the queue and then sleeps until it has drained to half, so
// it is woken once per half queue rather than once per batch (a wake-up, a
// futex wake and then an inter-processor interrupt, costs about as much as
// a small model's whole data phase of a batch).
// The loader's position (epoch, batch index, RNG state at the start of the
// epoch) can be saved and restored exactly, also in the middle of an epoch.
// A token stream (Dataset::window > 0) has no permutation: each training
// epoch draws its windows' starts from the same stream (uniform over every
// start, with replacement), evaluation takes the non-overlapping windows;
// the windows are copied out of the stream batch by batch. Samples of
// mapped NPY files (Dataset::mapped) are likewise read from the mapping,
// converted and normalised as each batch is assembled. A sharded loader
// (data-parallel training) draws the same permutation on every rank and
// assembles only its rank's slice of each batch (data/Shard.h).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DATA_DATALOADER_H
#define MODELRT_DATA_DATALOADER_H

#include "modelrt/core/Rng.h"
#include "modelrt/data/Augment.h"
#include "modelrt/data/Dataset.h"

#include <array>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace modelrt {

/// How batches are drawn.
struct LoaderConfig {
  int64_t batchSize = 32;
  bool shuffle = true;         ///< fresh permutation each epoch (training)
  bool dropLast = false;       ///< drop the last incomplete batch
  uint64_t seed = 0;
  std::vector<ModelrtAugment> augment; ///< applied in order (training)
  ChannelTransform transform;  ///< the samples' input transform (pixel args)
  int64_t workers = 1;         ///< threads that augment one batch's samples
  int64_t oneHotClasses = 0;   ///< > 0: labels become one-hot F32 [b, classes]
  int64_t prefetch = 2;        ///< bounded queue depth; 0 = no worker thread
  /// Data parallelism: every batch is this rank's slice (data/Shard.h) of
  /// the global batch of batchSize samples split over shardCount ranks.
  int64_t shardRank = 0, shardCount = 1;
};

/// One batch: inputs [b, sample...] F32 (or I32/I64 ids), labels I64
/// [b, ...] or F32 [b, ...]. With sharding, b is this rank's part of the
/// global batch (possibly 0) and globalSize the whole.
struct Batch {
  Tensor inputs;
  Tensor labels;
  int64_t size = 0;
  int64_t globalSize = 0;
};

/// A prefetch depth for batches of \p batchBytes: as many as fit in 8 MiB,
/// between 2 and 8 (the consumer wakes the worker once per depth / 2
/// batches).
int64_t prefetchDepthFor(int64_t batchBytes);

/// Where the loader is; enough to restore it exactly.
struct LoaderPosition {
  int64_t epoch = 0;
  int64_t batchIndex = 0;              ///< batches already consumed this epoch
  std::array<uint64_t, 4> rngState{};  ///< RNG state before this epoch's shuffle
};

/// Iterates over a dataset in batches.
class DataLoader {
public:
  /// \p data must outlive the loader. Augmentation applies only when
  /// \p config.augment is not empty (training loaders).
  DataLoader(const Dataset &data, LoaderConfig config);
  ~DataLoader();
  DataLoader(const DataLoader &) = delete;
  DataLoader &operator=(const DataLoader &) = delete;

  /// Checks the configuration against the data (batch size, crop rank...).
  Status validate() const;
  /// Number of batches in one epoch.
  int64_t batchesPerEpoch() const;
  /// Starts (or resumes) the current epoch from position().batchIndex.
  void beginEpoch();
  /// The next batch of the current epoch; false at its end, after which the
  /// position is the start of the next epoch.
  bool next(Batch &batch);

  LoaderPosition position() const { return pos; }
  /// Restores a saved position (stops any epoch in progress); an error,
  /// leaving the loader as it was, when the epoch is negative, the batch
  /// index is outside [0, batchesPerEpoch()) or the RNG state is all zero.
  Status restore(const LoaderPosition &position);
  /// The order of samples of the current epoch (after beginEpoch()); for a
  /// token stream, its windows' first tokens.
  const std::vector<int64_t> &order() const { return perm; }

private:
  Batch makeBatch(int64_t batchIndex) const;
  /// Writes samples [from, to) of a batch starting at \p start to \p out
  /// (inputs augmented, labels).
  void fillSamples(Batch &out, int64_t start, int64_t from, int64_t to) const;
  void workerLoop(int64_t from, int64_t to);
  void stopWorker();

  const Dataset &data;
  LoaderConfig cfg;
  LoaderPosition pos;
  std::array<uint64_t, 4> nextEpochState{};
  std::vector<int64_t> perm;
  bool inEpoch = false;
  ImageShape image; ///< the samples' planes, when augmenting

  std::thread worker;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Batch> queue;
  bool stopping = false;
  bool workerWaiting = false; ///< the worker sleeps until the queue drains
};

} // namespace modelrt

#endif // MODELRT_DATA_DATALOADER_H
