//===- DataCsv.cpp - Reading CSV tables at compile time ------------------===//
//
// Reads a CSV table with the tokenizer the runtime uses too
// (modelsupport/Csv.h), so that the compiler and the executable see the
// same columns, and computes the per-feature statistics behind
// `standardize = true` (mean and population standard deviation over every
// row of the train file, with Welford's running update). Checking the data
// block's use of the table is Data.cpp's.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;

llvm::Expected<CsvRows> sema::readCsvRows(const std::string &path) {
  if (llvm::Error e = checkRegularFile(path))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read CSV file '" + path + "': " +
                                       llvm::toString(std::move(e)));
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return llvm::errorCodeToError(buf.getError());
  modelsupport::csv::LineReader lines((*buf)->getBuffer());
  CsvRows table;
  std::vector<modelsupport::csv::Field> fields;
  size_t errorColumn = 0;
  for (bool header = true; lines.next(); header = false) {
    if (!modelsupport::csv::splitLine(lines.line(), fields, errorColumn))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          path + ":" + std::to_string(lines.lineNumber()) + ":" +
              std::to_string(errorColumn) + ": " +
              modelsupport::csv::splitError(lines.line(), errorColumn));
    if (header) {
      table.header = modelsupport::csv::names(fields);
      continue;
    }
    if (fields.size() != table.header.size())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          path + ":" + std::to_string(lines.lineNumber()) + ":" +
              std::to_string(modelsupport::csv::fieldCountColumn(
                  fields, lines.line(), table.header.size())) +
              ": expected " + std::to_string(table.header.size()) +
              " fields (as in the header), found " +
              std::to_string(fields.size()));
    table.rows.push_back({lines.lineNumber(), fields});
  }
  return table;
}

namespace {
/// Welford's one-pass mean and sum of squared deviations: no cancellation
/// when the values are large next to their spread.
struct RunningMoments {
  int64_t count = 0;
  double mean = 0, m2 = 0;

  void add(double x) {
    ++count;
    double delta = x - mean;
    mean += delta / double(count);
    m2 += delta * (x - mean);
  }
  /// The population variance of the values added.
  double variance() const { return count ? m2 / double(count) : 0; }
};
} // namespace

/// An error whose message is `message`.
static llvm::Error statsError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<ColumnStats> sema::csvColumnStats(const DataSplit &split,
                                                 const CsvRows &table) {
  const std::string &path = split.paths[0];
  if (table.header.empty())
    return statsError("'" + path + "' is empty");
  std::vector<long> cols;
  for (const std::string &f : split.featureColumns)
    cols.push_back(modelsupport::csv::find(table.header, f));
  std::vector<RunningMoments> moments(cols.size());
  for (const CsvRows::Row &row : table.rows)
    for (size_t j = 0; j < cols.size(); ++j) {
      double x;
      if (cols[j] < 0 || size_t(cols[j]) >= row.cells.size() ||
          !modelsupport::csv::parseDouble(row.cells[cols[j]].text, x) ||
          !std::isfinite(x))
        return statsError(path + ":" + std::to_string(row.line) +
                          ": column '" + split.featureColumns[j] +
                          "' is not a number");
      moments[j].add(x);
    }
  if (table.rows.empty())
    return statsError("'" + path + "' has no rows");
  ColumnStats stats;
  for (const RunningMoments &m : moments) {
    stats.mean.push_back(m.mean);
    stats.stdev.push_back(std::sqrt(m.variance()));
  }
  return stats;
}

long sema::firstConstantColumn(const ColumnStats &stats) {
  for (size_t j = 0; j < stats.mean.size(); ++j)
    if (!(stats.stdev[j] > 1e-12 * std::max(1.0, std::fabs(stats.mean[j]))))
      return long(j);
  return -1;
}
