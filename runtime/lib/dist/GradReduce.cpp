//===- GradReduce.cpp - Bucketed sums of gradients over the ranks ----------===//
//
// GradReduce.h: the slots (the gradients in layout order, end to end), the
// buckets' counts of slots still missing, and the thread's current step
// that modelrt_grad_ready announces gradients to.
//
//===----------------------------------------------------------------------===//
#include "modelrt/dist/GradReduce.h"

#include <algorithm>
#include <numeric>

namespace {
/// The GradReduce whose step is under way on this thread, if any.
thread_local modelrt::GradReduce *currentStep = nullptr;
} // namespace

extern "C" void modelrt_grad_ready(int64_t index) {
  if (currentStep)
    currentStep->ready(index);
}

namespace modelrt {

Collective *currentStepCollective() {
  return currentStep ? &currentStep->collective() : nullptr;
}

GradReduce::GradReduce(Collective &collective, std::vector<int64_t> sizesIn, size_t bucketBytes)
    : coll(collective), sizes(std::move(sizesIn)) {
  for (int64_t n : sizes)
    total += size_t(n);
  bucketElems = std::max<size_t>(bucketBytes / sizeof(float), 1);
  staging.resize(total);
  std::vector<int32_t> order(sizes.size());
  std::iota(order.rbegin(), order.rend(), 0); // the last parameter first
  layOut(order);
}

GradReduce::~GradReduce() {
  if (currentStep == this)
    currentStep = nullptr;
}

void GradReduce::setOrder(const std::vector<int32_t> &order) { layOut(order); }

void GradReduce::layOut(const std::vector<int32_t> &order) {
  slotParam = order;
  slotOf.assign(sizes.size(), 0);
  slotStart.clear();
  size_t buckets = (total + bucketElems - 1) / bucketElems;
  missingInit.assign(buckets, 0);
  size_t at = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    size_t n = size_t(sizes[size_t(order[k])]);
    slotOf[size_t(order[k])] = k;
    slotStart.push_back(at);
    for (size_t b = at / bucketElems; n > 0 && b * bucketElems < at + n; ++b)
      ++missingInit[b];
    at += n;
  }
}

void GradReduce::copySlot(size_t k, bool in, float factor) {
  float *g = grads[slotParam[k]];
  float *s = staging.data() + slotStart[k];
  size_t n = size_t(sizes[size_t(slotParam[k])]);
  if (in && factor == 0) // no counted labels: nothing, even from a non-finite step
    std::fill_n(s, n, 0.0f);
  else if (in)
    for (size_t i = 0; i < n; ++i)
      s[i] = g[i] * factor;
  else
    for (size_t i = 0; i < n; ++i)
      g[i] = s[i] * factor;
}

void GradReduce::beginStep(float *const *gradsIn, float weightIn) {
  grads = gradsIn, weight = weightIn;
  missing = missingInit;
  isReady.assign(sizes.size(), 0);
  nextBucket = 0;
  failed = Status::ok();
  currentStep = this;
}

void GradReduce::ready(int64_t index) {
  if (!grads || index < 0 || size_t(index) >= sizes.size() || isReady[size_t(index)])
    return;
  isReady[size_t(index)] = 1;
  size_t k = slotOf[size_t(index)], n = size_t(sizes[size_t(index)]);
  copySlot(k, true, weight);
  for (size_t b = slotStart[k] / bucketElems; n > 0 && b * bucketElems < slotStart[k] + n; ++b)
    --missing[b];
  startCompleteBuckets();
}

void GradReduce::startCompleteBuckets() {
  for (; nextBucket < missing.size() && missing[nextBucket] == 0; ++nextBucket) {
    size_t from = nextBucket * bucketElems, to = std::min(total, from + bucketElems);
    Status st = coll.startSum(staging.data() + from, to - from);
    if (!st.isOk() && failed.isOk())
      failed = st;
  }
}

void GradReduce::announceRest() {
  if (currentStep == this)
    currentStep = nullptr;
  for (int32_t p : slotParam)
    ready(p);
}

Status GradReduce::finishStep() {
  announceRest();
  Status waited = coll.waitAll("the sum of the gradients");
  MODELRT_TRY(failed);
  return waited;
}

void GradReduce::copyBack(float scale) {
  for (size_t k = 0; grads && k < slotParam.size(); ++k)
    copySlot(k, false, scale);
  grads = nullptr; // later announcements are ignored
}

Status GradReduce::reduce(float *const *g, float w) {
  beginStep(g, w);
  MODELRT_TRY(finishStep());
  copyBack(1.0f);
  return Status::ok();
}

} // namespace modelrt
