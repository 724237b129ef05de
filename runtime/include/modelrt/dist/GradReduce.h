//===- GradReduce.h - Bucketed sums of gradients over the ranks ------------===//
//
// Implements `GradReduce`: the parameters' gradients, weighted, summed over
// every rank of a Collective in buckets. The gradients are laid end to end
// and cut into buckets of about `bucketBytes`; each bucket is copied
// (times the weight) into a staging buffer and its sum started at once, so
// that copying the next bucket overlaps the sums in flight; once every sum
// has completed the staging buffer is copied back.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DIST_GRADREDUCE_H
#define MODELRT_DIST_GRADREDUCE_H

#include "modelrt/dist/Collective.h"

#include <vector>

namespace modelrt {

/// Sums gradients of fixed sizes over the ranks.
class GradReduce {
public:
  /// Gradients of \p sizes elements each; buckets of about \p bucketBytes.
  GradReduce(Collective &collective, std::vector<int64_t> sizes,
             size_t bucketBytes = size_t(4) << 20);
  /// Replaces every grads[i] by the sum over the ranks of weight * grads[i].
  Status reduce(float *const *grads, float weight);
  /// The number of buckets (each one sum per step).
  size_t buckets() const { return (total + bucketElems - 1) / bucketElems; }
  /// The bytes of gradients each rank sends into the sums per step.
  size_t bytesPerStep() const { return total * sizeof(float); }

private:
  /// Copies elements [from, to) of the gradients laid end to end into the
  /// staging buffer (\p in) or back (!\p in), times \p weight.
  void copyRange(float *const *grads, size_t from, size_t to, float weight, bool in);

  Collective &coll;
  std::vector<int64_t> sizes;
  std::vector<size_t> starts; ///< each gradient's first element end to end
  size_t total = 0, bucketElems = 1;
  std::vector<float> staging;
};

} // namespace modelrt

#endif // MODELRT_DIST_GRADREDUCE_H
