//===- DataParallel.h - Data-parallel training over the ranks of a run -----===//
//
// Implements what the training loop adds when it runs on several ranks
// (docs/distributed.md): `DataParallel` sums each step's figures (loss,
// counted labels, samples, metric sums) and gradients over the ranks so
// that every rank holds the gradient of the global batch's mean loss and
// takes the same optimizer step, the gradients' sums starting during the
// step as it announces them (GradReduce, on a CommThread when the
// collective allows one); it averages the model's state (running
// statistics) over the ranks before evaluation and checkpoints.
// `checkSameRun` refuses, before the first step, ranks that do not run the
// same executable, model, command line and data (compared by hash).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_DATAPARALLEL_H
#define MODELRT_TRAIN_DATAPARALLEL_H

#include "modelrt/core/Model.h"
#include "modelrt/data/Dataset.h"
#include "modelrt/dist/CommThread.h"
#include "modelrt/dist/GradReduce.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace modelrt {

/// One training step's figures on one rank; after DataParallel::reduceStep,
/// the global batch's.
struct StepFigures {
  float loss = 0;              ///< the mean loss over the counted labels
  int64_t counted = 0;         ///< the labels the loss averages over
  int64_t samples = 0;         ///< the samples of the batch
  std::vector<double> metrics; ///< the metrics' sums over the batch
  int64_t stops = 0;           ///< the ranks asked to stop (SIGINT/SIGTERM) by the step's start
};

/// The gradient and figure sums of data-parallel training.
class DataParallel {
public:
  /// Sums over \p collective's ranks gradients of \p paramSizes elements;
  /// the generated step's own sums (synchronised batch norm) run over the
  /// same ranks while it lives (setStepCollective).
  DataParallel(Collective &collective, std::vector<int64_t> paramSizes);
  ~DataParallel();
  DataParallel(const DataParallel &) = delete;
  DataParallel &operator=(const DataParallel &) = delete;
  int rank() const { return coll.rank(); }
  int size() const { return coll.size(); }
  Collective &collective() { return coll; }
  /// The collective of the operations during a step (from beginStep to
  /// reduceStep): the CommThread when there is one (GradReduce.h).
  Collective &stepCollective() { return thread ? *thread : coll; }
  /// Before this rank's step on \p counted labels: its gradients \p grads
  /// are summed as the step announces them (modelrt_grad_ready on this
  /// thread).
  void beginStep(float *const *grads, int64_t counted);
  /// Sums \p figures over the ranks, and replaces \p grads (this rank's
  /// gradient of its mean loss) by the gradient of the global batch's mean
  /// loss: the sum over ranks of grads * counted, divided by the global
  /// count. Begins the step first if beginStep was not called.
  Status reduceStep(StepFigures &figures, float *const *grads);
  /// The first half of reduceStep: sums \p figures over the ranks and
  /// returns the weight of this rank's gradients (counted / the global
  /// count), for gradients summed elsewhere (StepRunner::sumGradients).
  Expected<float> reduceFigures(StepFigures &figures);
  /// Replaces the model's state (batch norm's running statistics, which
  /// each rank updates from its own slices) by its mean over the ranks.
  Status averageState(ModelState &model);
  /// The bytes of gradients each rank sends into the sums of one step.
  size_t gradientBytes() const { return grads.bytesPerStep(); }

private:
  Collective &coll;
  std::unique_ptr<CommThread> thread; ///< with several ranks, if allowed
  GradReduce grads;
  /// Lays \p figures out in scratch for their sum over the ranks.
  void packFigures(const StepFigures &figures);
  /// Replaces \p figures by the summed ones in scratch (the global batch's).
  void unpackFigures(StepFigures &figures) const;

  bool begun = false; ///< beginStep was called for the step under way
  std::vector<double> scratch;
};

/// A 64-bit hash of \p bytes (FNV-style, over 8-byte words), continuing
/// from \p seed.
uint64_t hashBytes(const void *bytes, size_t n, uint64_t seed = 0);
/// The hash of a file's contents; an error naming it when unreadable.
Expected<uint64_t> hashFile(const std::string &path);
/// The hash of a dataset's samples and labels (read from their files when
/// mapped).
Expected<uint64_t> hashDataset(const Dataset &data);

/// What every rank must agree on, by name: (what, hash).
using RunIdentity = std::vector<std::pair<std::string, uint64_t>>;
/// Compares \p mine with rank 0's on every rank; an error naming the first
/// rank and item that differ (the same error on every rank).
Status checkSameRun(Collective &collective, const RunIdentity &mine);

} // namespace modelrt

#endif // MODELRT_TRAIN_DATAPARALLEL_H
