//===- LossSums.cpp - Loss and metric sums over labelled samples -----------===//
//
// Implements LossSums (LossSums.h): a batch's sums added, and the means
// over the counted labels (none counted: zero).
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/LossSums.h"

#include <algorithm>

namespace modelrt {

void LossSums::add(double batchLoss, int64_t batchSamples, int64_t batchCounted,
                   const std::vector<double> &batchMetrics) {
  loss += batchLoss;
  samples += batchSamples;
  counted += batchCounted;
  for (size_t i = 0; i < metrics.size() && i < batchMetrics.size(); ++i)
    metrics[i] += batchMetrics[i];
}

double LossSums::meanLoss() const { return loss / double(std::max<int64_t>(counted, 1)); }

EvalResult LossSums::means() const {
  EvalResult r{meanLoss(), metrics, samples};
  for (double &m : r.metrics)
    m /= double(std::max<int64_t>(counted, 1));
  return r;
}

} // namespace modelrt
