//===- Config.h - Checking data and train blocks (internal) -----*- C++ -*-===//
//
// The configuration blocks are not evaluated like model bodies: their fields
// are compile-time values (strings, numbers, calls naming a reader, an
// optimizer, a schedule...). This header declares the small constant
// evaluator they share, the block checkers, the IDX and CSV readers and the
// warnings pass over a checked graph.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_SEMA_CONFIG_H
#define MODELC_LIB_SEMA_CONFIG_H

#include "Elaborator.h"

#include "modelsupport/Csv.h"

#include "llvm/Support/Error.h"

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
/// Fails, with a readable reason, when `path` is not a regular file (a
/// FIFO, a device, a directory) or does not exist; stats without opening,
/// so that a FIFO cannot block the compiler.
llvm::Error checkRegularFile(const std::string &path);
/// Reads the header of `path`; on failure the error's message is a readable
/// reason.
llvm::Expected<IdxHeader> readIdxHeader(const std::string &path);
/// Scans a 1-D u8/i8/i32 IDX label file; returns the largest label.
llvm::Expected<int64_t> scanIdxLabels(const std::string &path,
                                      const IdxHeader &header);

/// A CSV table read with the runtime's tokenizer (modelsupport/Csv.h): the
/// header's trimmed column names and the data rows.
struct CsvRows {
  /// One data row and its 1-based line number in the file.
  struct Row {
    size_t line;
    std::vector<modelsupport::csv::Field> cells;
  };
  std::vector<std::string> header;
  std::vector<Row> rows;
};

/// Reads and tokenizes the CSV file `path`. Fails with the system's error
/// (an llvm::ECError) when the file cannot be read, and with
/// "<path>:<line>:<column>: <fault>" on a NUL byte, a quote that does not
/// close on its line or a row whose field count differs from the header's. An empty file has no header and no rows.
llvm::Expected<CsvRows> readCsvRows(const std::string &path);

/// Per-feature statistics of a CSV split.
struct ColumnStats {
  std::vector<double> mean, stdev;
};

/// Computes the mean and population standard deviation of each feature
/// column of the CSV `split`, whose file holds `table`, over all its rows.
/// Fails (with a readable reason) on an empty table, a cell that is not a
/// number, or a constant column.
llvm::Expected<ColumnStats> csvColumnStats(const DataSplit &split,
                                           const CsvRows &table);

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
