//===- TrainSettings.h - Optimizer, schedule, stopping (internal) -*- C++ -*-===//
//
// Declares the folding of the options of a `train` block: the scalar ones
// (`epochs = 10`) and the call-like `optimizer = adam(lr=1e-3)`,
// `schedule = multistep(milestones=[30, 60])` and `early_stopping =
// patience(5, min_delta=1e-3)`. Each is checked against the schema's names,
// settings and valid ranges (modelsupport/TrainConfig.def); errors point at
// the offending value.
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
/// min_delta=0)` into cfg.earlyStopping/earlyStoppingArgs.
bool foldEarlyStopping(DiagnosticEngine &diags, const Expr &e,
                       TrainConfig &cfg);

/// True when `name` is one of the schema's scalar options (`epochs`, ...).
bool isOption(llvm::StringRef name);

/// Checks the scalar option `f` (isOption) against its range and stores it
/// in its field of `cfg`.
bool checkOption(DiagnosticEngine &diags, const Field &f, TrainConfig &cfg);

/// The fields of a train block for messages: "loss, optimizer, ... or
/// accumulate".
std::string trainFieldList();

/// The value of the folded setting `name` in `args`, or `dflt` if absent.
double getSetting(const std::vector<std::pair<std::string, double>> &args,
                  llvm::StringRef name, double dflt = 0);

} // namespace sema
} // namespace modelc

#endif // MODELC_LIB_SEMA_TRAINSETTINGS_H
