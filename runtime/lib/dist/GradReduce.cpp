//===- GradReduce.cpp - Bucketed sums of gradients over the ranks ----------===//
#include "modelrt/dist/GradReduce.h"

#include <algorithm>

namespace modelrt {

GradReduce::GradReduce(Collective &collective, std::vector<int64_t> sizesIn, size_t bucketBytes)
    : coll(collective), sizes(std::move(sizesIn)) {
  for (int64_t n : sizes) {
    starts.push_back(total);
    total += size_t(n);
  }
  bucketElems = std::max<size_t>(bucketBytes / sizeof(float), 1);
  staging.resize(total);
}

void GradReduce::copyRange(float *const *grads, size_t from, size_t to, float weight, bool in) {
  // The first gradient that overlaps [from, to).
  size_t i = size_t(std::upper_bound(starts.begin(), starts.end(), from) - starts.begin()) - 1;
  for (; i < sizes.size() && starts[i] < to; ++i) {
    size_t lo = std::max(from, starts[i]), hi = std::min(to, starts[i] + size_t(sizes[i]));
    float *g = grads[i] + (lo - starts[i]);
    float *s = staging.data() + lo;
    if (in)
      for (size_t k = 0; k < hi - lo; ++k)
        s[k] = g[k] * weight;
    else
      std::copy(s, s + (hi - lo), g);
  }
}

Status GradReduce::reduce(float *const *grads, float weight) {
  if (total == 0)
    return Status::ok();
  for (size_t from = 0; from < total; from += bucketElems) {
    size_t to = std::min(total, from + bucketElems);
    copyRange(grads, from, to, weight, true);
    MODELRT_TRY(coll.startSum(staging.data() + from, to - from));
  }
  MODELRT_TRY(coll.waitAll("the sum of the gradients"));
  copyRange(grads, 0, total, 1.0f, false);
  return Status::ok();
}

} // namespace modelrt
