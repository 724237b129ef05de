//===- Config.h - Checking data and train blocks (internal) -----*- C++ -*-===//
//
// The configuration blocks are not evaluated like model bodies: their fields
// are compile-time values (strings, numbers, calls naming a reader, an
// optimizer, a schedule...). This header declares the small constant
// evaluator they share, the block checkers, the IDX header reader and the
// warnings pass over a checked graph.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_SEMA_CONFIG_H
#define MODELC_LIB_SEMA_CONFIG_H

#include "Elaborator.h"

#include <map>

namespace modelc {
namespace sema {

/// Compile-time constants visible in a data block (e.g. `root`).
using ConstEnv = std::map<std::string, Value>;

/// Evaluates a constant expression: literals, names of `env`, `+` on
/// strings, arithmetic on numbers, lists. Reports errors; Kind::Error then.
Value evalConst(DiagnosticEngine &diags, const Expr &e, const ConstEnv &env);

/// The header of an IDX file (optionally gzip-compressed).
struct IdxHeader {
  /// 0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64.
  unsigned typeCode = 0;
  std::vector<int64_t> dims;
};
/// Reads the header of `path`; on failure returns std::nullopt and sets
/// `error` to a readable reason.
std::optional<IdxHeader> readIdxHeader(const std::string &path,
                                       std::string &error);
/// Scans a 1-D u8/i8/i32 IDX label file; returns the largest label.
std::optional<int64_t> scanIdxLabels(const std::string &path,
                                     const IdxHeader &header,
                                     std::string &error);

/// Splits one CSV line on commas (no quoting); cells are trimmed and lose
/// surrounding double quotes.
std::vector<std::string> splitCsvLine(llvm::StringRef line);

/// Computes the mean and population standard deviation of each feature
/// column of the CSV `split` over all its rows. On failure (unreadable
/// file, a cell that is not a number, a constant column) returns false and
/// sets `why`.
bool csvColumnStats(const DataSplit &split, std::vector<double> &mean,
                    std::vector<double> &stdev, std::string &why);

/// Checks a data block; `baseDir` resolves relative paths.
std::optional<DataConfig> checkData(DiagnosticEngine &diags,
                                    const DataDecl &decl,
                                    llvm::StringRef baseDir);

/// Checks a train block against its (already checked) model graph and data
/// set, adds the label and loss nodes to `graph`, and folds the settings.
std::optional<TrainConfig>
checkTrain(DiagnosticEngine &diags, const TrainDecl &decl, Graph &graph,
           const FuncDecl &modelDecl, const DataConfig *data,
           const ModuleInfo &module,
           const std::vector<const ModuleInfo *> &allModules);

/// Warnings over a checked graph: unused layer outputs, parameters the loss
/// never reaches, dropout right before the output.
void lintGraph(DiagnosticEngine &diags, const Graph &graph);

} // namespace sema
} // namespace modelc

#endif // MODELC_LIB_SEMA_CONFIG_H
