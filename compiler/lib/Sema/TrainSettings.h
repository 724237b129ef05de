//===- TrainSettings.h - Optimizer, schedule, stopping (internal) -*- C++ -*-===//
//
// Declares the folding of the call-like settings of a `train` block:
// `optimizer = adam(lr=1e-3)`, `schedule = multistep(milestones=[30, 60])`
// and `early_stopping = patience(5, min_delta=1e-3)`. Each is checked
// against a table of known names and settings with their valid ranges
// (TrainSettings.cpp); errors point at the offending argument.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_SEMA_TRAINSETTINGS_H
#define MODELC_LIB_SEMA_TRAINSETTINGS_H

#include "Config.h"

namespace modelc {
namespace sema {

/// Folds `optimizer = NAME(settings)` into cfg.optimizer/optimizerArgs
/// (every setting, defaults filled in, in table order).
bool foldOptimizer(DiagnosticEngine &diags, const Expr &e, TrainConfig &cfg);

/// Folds `schedule = NAME(settings)` into cfg.schedule/scheduleArgs; the
/// milestones of `multistep` go to cfg.milestones.
bool foldSchedule(DiagnosticEngine &diags, const Expr &e, TrainConfig &cfg);

/// Folds `early_stopping = N` or `early_stopping = patience(N,
/// min_delta=0)` into cfg.earlyStopPatience/earlyStopMinDelta.
bool foldEarlyStopping(DiagnosticEngine &diags, const Expr &e,
                       TrainConfig &cfg);

/// The value of the folded setting `name` in `args`, or `dflt` if absent.
double getSetting(const std::vector<std::pair<std::string, double>> &args,
                  llvm::StringRef name, double dflt = 0);

} // namespace sema
} // namespace modelc

#endif // MODELC_LIB_SEMA_TRAINSETTINGS_H
