//===- GradReduce.h - Bucketed sums of gradients over the ranks ------------===//
//
// Implements `GradReduce`: the parameters' gradients, weighted, summed over
// every rank of a Collective in buckets. The gradients are laid end to end
// in a fixed order (by default the reverse of the parameter table, the
// order in which a backward pass produces them) and cut into buckets of
// about `bucketBytes`. A step announces each gradient once it holds its
// final value (ready()); the gradient is copied (times the weight) into its
// place in a staging buffer, and every bucket whose gradients are all there
// has its sum started, in bucket order, so that the sums of the first
// buckets overlap the rest of the step. finishStep() announces the
// gradients the step did not and waits for every sum; copyBack() copies the
// staging buffer back, times a scale. reduce() is all of it at once, after
// a step.
//
// The buckets' sums start in bucket order whatever the order of the
// announcements, so every rank starts the same sums in the same order.
//
// modelrt_grad_ready(index) is what compiled training steps call after
// the last write of gradient `index` (compiler pass modelc-grad-ready-calls);
// it announces the gradient to the GradReduce whose step is under way on
// the calling thread (from beginStep to announceRest), and does nothing otherwise.
//
// Collectives during a step: from beginStep() until finishStep() returns,
// the sums may be in flight on the collective given to the constructor
// (with several ranks a CommThread, dist/CommThread.h, that alone calls
// MPI). Every other collective operation of the rank during that time (a
// sum from inside the step, or the step's figures after it) must go
// through that same collective, called in the same order on every rank;
// it then runs after the sums started before it. Code called from inside
// the step finds it with currentStepCollective(). Its waitAll waits for
// every sum started before, gradient buckets included.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DIST_GRADREDUCE_H
#define MODELRT_DIST_GRADREDUCE_H

#include "modelrt/dist/Collective.h"

#include <vector>

extern "C" {
/// Gradient \p index (in the parameter table) holds its final value for
/// this training step: the sums of its bucket may start.
void modelrt_grad_ready(int64_t index);
}

namespace modelrt {

/// The collective of the GradReduce whose step is under way on the calling
/// thread (from beginStep to announceRest); null outside a step.
Collective *currentStepCollective();

/// Sums gradients of fixed sizes over the ranks.
class GradReduce {
public:
  /// The default size of a bucket.
  static constexpr size_t kBucketBytes = size_t(512) << 10;
  /// Gradients of \p sizes elements each; buckets of about \p bucketBytes.
  GradReduce(Collective &collective, std::vector<int64_t> sizes,
             size_t bucketBytes = kBucketBytes);
  ~GradReduce();
  GradReduce(const GradReduce &) = delete;
  GradReduce &operator=(const GradReduce &) = delete;

  /// Lays the gradients end to end in \p order (every index once), instead
  /// of the reverse table order.
  void setOrder(const std::vector<int32_t> &order);
  /// Starts a step on the calling thread: grads[i] will be announced by
  /// ready(i) (or modelrt_grad_ready(i) on this thread) and then summed as
  /// grads[i] * \p weight.
  void beginStep(float *const *grads, float weight);
  /// Gradient \p index holds its final value (repeats are ignored).
  void ready(int64_t index);
  /// Announces the gradients not announced yet, in layout order: every
  /// bucket's sum is then started.
  void announceRest();
  /// announceRest(), then waits for every sum started on the collective
  /// (the caller's own included). The step's gradients are not copied back
  /// yet.
  Status finishStep();
  /// Replaces each grads[i] of the step by its sum times \p scale, and ends
  /// the step.
  void copyBack(float scale);
  /// Replaces every grads[i] by the sum over the ranks of weight *
  /// grads[i] (beginStep, finishStep, copyBack).
  Status reduce(float *const *grads, float weight);

  /// The number of buckets (each one sum per step).
  size_t buckets() const { return missingInit.size(); }
  /// The bytes of gradients each rank sends into the sums per step.
  size_t bytesPerStep() const { return total * sizeof(float); }
  /// The collective the sums run on.
  Collective &collective() { return coll; }

private:
  /// Lays the gradients out in order (slots) and counts each bucket's.
  void layOut(const std::vector<int32_t> &order);
  /// Copies slot \p k between its gradient and the staging buffer: in,
  /// times \p factor, or back (!\p in), times \p factor.
  void copySlot(size_t k, bool in, float factor);
  /// Starts, in order, the buckets whose gradients are all in staging.
  void startCompleteBuckets();

  Collective &coll;
  std::vector<int64_t> sizes;
  size_t total = 0, bucketElems = 1;
  std::vector<int32_t> slotParam; ///< the gradient at each slot
  std::vector<size_t> slotOf;     ///< each gradient's slot
  std::vector<size_t> slotStart;  ///< each slot's first element
  std::vector<int32_t> missingInit; ///< slots overlapping each bucket
  std::vector<float> staging;
  // The step under way.
  float *const *grads = nullptr;
  float weight = 1;
  std::vector<int32_t> missing; ///< slots each bucket still waits for
  std::vector<char> isReady;    ///< per gradient
  size_t nextBucket = 0;        ///< the first bucket not started
  Status failed;                ///< the first error starting a sum
};

} // namespace modelrt

#endif // MODELRT_DIST_GRADREDUCE_H
