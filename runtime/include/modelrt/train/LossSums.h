//===- LossSums.h - Loss and metric sums over labelled samples -------------===//
//
// Implements the figures an epoch of training or an evaluation reports: the
// running sums of the loss and the metrics over a data set's batches
// (LossSums), which a checkpoint written mid-epoch keeps and several ranks
// add up, and their means (EvalResult), which the logs and the console
// show.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_LOSSSUMS_H
#define MODELRT_TRAIN_LOSSSUMS_H

#include <cstdint>
#include <vector>

namespace modelrt {

/// Loss and metric means over a data set.
struct EvalResult {
  double loss = 0;             ///< the mean loss over the counted labels
  std::vector<double> metrics; ///< the metrics' means, in the program's order
  int64_t samples = 0;         ///< the samples they cover
};

/// The sums the loss and the metrics average over. What they average over
/// is `counted`: the samples, or for class labels per position (or with an
/// ignore index) the labels that count (Evaluate.h's countedLabels).
struct LossSums {
  double loss = 0;             ///< the sum over the batches of mean loss x counted labels
  int64_t samples = 0;         ///< the samples summed over
  int64_t counted = 0;         ///< the labels the loss averages over
  std::vector<double> metrics; ///< the metrics' sums, in the program's order

  /// Adds one batch: \p batchLoss, the sum of its loss over its \p batchCounted
  /// labels, its \p batchSamples samples and its metrics' sums \p batchMetrics
  /// (one per metric: as many as metrics holds).
  void add(double batchLoss, int64_t batchSamples, int64_t batchCounted,
           const std::vector<double> &batchMetrics);
  /// The mean loss so far (0 before any counted label).
  double meanLoss() const;
  /// The means of the loss and the metrics over the counted labels.
  EvalResult means() const;
};

} // namespace modelrt

#endif // MODELRT_TRAIN_LOSSSUMS_H
