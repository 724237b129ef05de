//===- MetricsLog.h - Per-epoch and per-step metrics as CSV and JSON ------===//
//
// Implements the metrics log: OUT/metrics.csv (a header row, then one row per
// epoch) and OUT/metrics.jsonl (one JSON object per epoch), both appended to
// so a resumed run continues the same files. Columns: epoch, step, lr,
// train_loss, train_<metric>..., and val_loss, val_<metric>... when there is
// a validation set. OUT/steps.csv holds one row per logged optimizer step
// (train --log-every N): epoch (1-based, the one in progress), step, lr (the
// rate that step used), train_loss (the mean over the steps since the last
// row) and samples_per_s.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_METRICSLOG_H
#define MODELRT_IO_METRICSLOG_H

#include "modelrt/core/Program.h"
#include "modelrt/core/Status.h"
#include "modelrt/train/LossSums.h"

#include <optional>
#include <string>

namespace modelrt {

/// Whether \p name is one of the logs above (metrics.csv, metrics.jsonl,
/// steps.csv).
bool isMetricsLogName(const std::string &name);

/// Appends one epoch's line to OUT/metrics.csv and OUT/metrics.jsonl.
Status appendMetricsLog(const std::string &dir, const ModelrtProgram &program, int64_t epoch,
                        int64_t step, double lr, const EvalResult &train,
                        const std::optional<EvalResult> &validation);

/// Appends one logged step's row to OUT/steps.csv.
Status appendStepLog(const std::string &dir, int64_t epoch, int64_t step, double lr,
                     double loss, double samplesPerSecond);

/// Before a resumed run appends: removes from OUT/metrics.csv and
/// OUT/metrics.jsonl the rows of epochs after \p epoch, and from
/// OUT/steps.csv the rows of steps after \p step (an interrupted run logged
/// them but died before the checkpoint), rewriting each file atomically;
/// returns how many rows went from metrics.csv.
Expected<int> trimMetricsLog(const std::string &dir, int64_t epoch, int64_t step);

} // namespace modelrt

#endif // MODELRT_IO_METRICSLOG_H
