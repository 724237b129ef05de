//===- MetricsLog.cpp - Per-epoch and per-step metrics as CSV and JSON ----===//
#include "modelrt/io/MetricsLog.h"

#include "modelrt/io/Checkpoint.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <cmath>
#include <cstring>
#include <sys/stat.h>

namespace modelrt {

namespace {
const std::string kMetricsCsv = "metrics.csv", kMetricsJsonl = "metrics.jsonl",
                  kStepsCsv = "steps.csv";

/// A log's number: 9 significant digits.
std::string formatValue(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/// One CSV row of \p cols, after a header row when \p path is empty or
/// missing.
std::string csvLines(const std::string &path,
                     const std::vector<std::pair<std::string, double>> &cols) {
  struct stat st;
  bool fresh = ::stat(path.c_str(), &st) != 0 || st.st_size == 0;
  std::string csv;
  if (fresh) {
    for (size_t i = 0; i < cols.size(); ++i)
      csv += (i ? "," : "") + cols[i].first;
    csv += "\n";
  }
  for (size_t i = 0; i < cols.size(); ++i)
    csv += (i ? "," : "") + formatValue(cols[i].second);
  return csv + "\n";
}

/// Appends \p text to \p path.
Status appendFile(const std::string &path, const std::string &text) {
  FILE *f = std::fopen(path.c_str(), "a");
  if (!f)
    return errorf("%s: cannot open for appending: %s", path.c_str(), std::strerror(errno));
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if ((std::fclose(f) != 0) || !ok)
    return errorf("%s: write failed: %s", path.c_str(), std::strerror(errno));
  return Status::ok();
}
} // namespace

bool isMetricsLogName(const std::string &name) {
  return name == kMetricsCsv || name == kMetricsJsonl || name == kStepsCsv;
}

Status appendMetricsLog(const std::string &dir, const ModelrtProgram &p, int64_t epoch,
                        int64_t step, double lr, const EvalResult &train,
                        const std::optional<EvalResult> &val) {
  std::vector<std::pair<std::string, double>> cols = {
      {"epoch", double(epoch)}, {"step", double(step)}, {"lr", lr}, {"train_loss", train.loss}};
  for (int32_t i = 0; i < p.num_metrics; ++i)
    cols.emplace_back(std::string("train_") + p.metric_names[i], train.metrics[i]);
  if (val) {
    cols.emplace_back("val_loss", val->loss);
    for (int32_t i = 0; i < p.num_metrics; ++i)
      cols.emplace_back(std::string("val_") + p.metric_names[i], val->metrics[i]);
  }
  std::string csvPath = dir + "/" + kMetricsCsv, jsonPath = dir + "/" + kMetricsJsonl;
  std::string json = "{";
  for (size_t i = 0; i < cols.size(); ++i)
    json += (i ? ", \"" : "\"") + cols[i].first + "\": " +
            (std::isfinite(cols[i].second) ? formatValue(cols[i].second) : std::string("null"));
  json += "}\n";
  MODELRT_TRY(appendFile(csvPath, csvLines(csvPath, cols)));
  return appendFile(jsonPath, json);
}

Status appendStepLog(const std::string &dir, int64_t epoch, int64_t step, double lr,
                     double loss, double samplesPerSecond) {
  std::string path = dir + "/" + kStepsCsv;
  return appendFile(path, csvLines(path, {{"epoch", double(epoch)},
                                          {"step", double(step)},
                                          {"lr", lr},
                                          {"train_loss", loss},
                                          {"samples_per_s", samplesPerSecond}}));
}

namespace {
/// The integer at \p at of \p line when a comma follows it, else -1.
int64_t integerAt(const std::string &line, size_t at) {
  if (at >= line.size())
    return -1;
  char *end = nullptr;
  long long v = std::strtoll(line.c_str() + at, &end, 10);
  return end != line.c_str() + at && *end == ',' ? int64_t(v) : -1;
}

/// The epoch a log line starts with (`3,` in CSV, `{"epoch": 3,` in JSON
/// lines), or -1 for the header and anything else.
int64_t lineEpoch(const std::string &line) {
  return integerAt(line, line.rfind("{\"epoch\": ", 0) == 0 ? 10 : 0);
}

/// The step of a steps.csv row (`epoch,step,...`), or -1 for the header.
int64_t lineStep(const std::string &line) {
  return lineEpoch(line) < 0 ? -1 : integerAt(line, line.find(',') + 1);
}

/// Keeps the lines of \p path whose key (\p keyOf: -1 for none) is at most
/// \p last; rewrites the file only when a line goes.
Expected<int> trimLog(const std::string &path, int64_t (*keyOf)(const std::string &),
                      int64_t last) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return 0;
  std::string line, kept;
  int dropped = 0;
  while (std::getline(in, line)) {
    if (keyOf(line) > last)
      ++dropped;
    else
      kept += line + "\n";
  }
  if (dropped > 0)
    MODELRT_TRY(writeFileAtomically(path, kept));
  return dropped;
}
} // namespace

Expected<int> trimMetricsLog(const std::string &dir, int64_t epoch, int64_t step) {
  auto csv = trimLog(dir + "/" + kMetricsCsv, lineEpoch, epoch);
  if (!csv)
    return csv.status();
  auto json = trimLog(dir + "/" + kMetricsJsonl, lineEpoch, epoch);
  if (!json)
    return json.status();
  auto steps = trimLog(dir + "/" + kStepsCsv, lineStep, step);
  if (!steps)
    return steps.status();
  return *csv;
}

} // namespace modelrt
