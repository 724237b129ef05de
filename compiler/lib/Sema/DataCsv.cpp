//===- DataCsv.cpp - Reading CSV tables at compile time ------------------===//
//
// The small CSV helpers of data-block checking: splitting a line into cells
// and the per-feature statistics behind `standardize = true` (mean and
// population standard deviation over every row of the train file).
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;

/// Splits one CSV line on commas (no quoting).
std::vector<std::string> sema::splitCsvLine(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef> parts;
  line.trim().split(parts, ',');
  std::vector<std::string> out;
  for (llvm::StringRef p : parts)
    out.push_back(p.trim().trim('"').str());
  return out;
}

/// Per-feature mean and population standard deviation of a CSV split.
bool sema::csvColumnStats(const DataSplit &split, std::vector<double> &mean,
                          std::vector<double> &stdev, std::string &why) {
  auto buf = llvm::MemoryBuffer::getFile(split.paths[0]);
  if (!buf)
    return (why = "cannot read '" + split.paths[0] + "'"), false;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n', -1, false);
  if (lines.empty())
    return (why = "'" + split.paths[0] + "' is empty"), false;
  std::vector<std::string> header = splitCsvLine(lines[0]);
  std::vector<size_t> cols;
  for (const std::string &f : split.featureColumns)
    cols.push_back(llvm::find(header, f) - header.begin());
  size_t k = cols.size();
  std::vector<double> sum(k, 0), sq(k, 0);
  int64_t rows = 0;
  for (size_t r = 1; r < lines.size(); ++r) {
    if (lines[r].trim().empty())
      continue;
    std::vector<std::string> cells = splitCsvLine(lines[r]);
    for (size_t j = 0; j < k; ++j) {
      double x;
      if (cols[j] >= cells.size() ||
          llvm::StringRef(cells[cols[j]]).getAsDouble(x) || !std::isfinite(x))
        return (why = split.paths[0] + ":" + std::to_string(r + 1) +
                      ": column '" + split.featureColumns[j] +
                      "' is not a number"),
               false;
      sum[j] += x, sq[j] += x * x;
    }
    ++rows;
  }
  if (rows == 0)
    return (why = "'" + split.paths[0] + "' has no rows"), false;
  for (size_t j = 0; j < k; ++j) {
    double m = sum[j] / double(rows);
    double var = std::max(0.0, sq[j] / double(rows) - m * m);
    if (!(std::sqrt(var) > 1e-12 * std::max(1.0, std::fabs(m))))
      return (why = "column '" + split.featureColumns[j] + "' of '" +
                    split.paths[0] + "' is constant (standard deviation 0); "
                    "drop it from the features"),
             false;
    mean.push_back(m);
    stdev.push_back(std::sqrt(var));
  }
  return true;
}
