//===- PlotCommand.cpp - The plot subcommand -------------------------------===//
//
// Implements `NAME plot` (docs/cli.md): reads a run's metrics.csv (what
// train writes in its log directory: epoch, step, lr, train_loss,
// train_<metric>..., val_loss, val_<metric>...) and draws one SVG chart
// per quantity over the epochs (io/SvgPlot.h): loss.svg (training and
// validation), <metric>.svg for each metric, lr.svg; and, when the run
// logged steps (steps.csv), steps-loss.svg and steps-lr.svg over the
// optimizer steps. Every file is written
// atomically; errors name the file and, for a bad field, its line and
// column.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"

#include "modelrt/io/Checkpoint.h"
#include "modelrt/io/SvgPlot.h"
#include "modelsupport/Csv.h"

#include <cmath>
#include <cstdio>
#include <fstream>

namespace modelrt {
namespace {

/// metrics.csv as columns of numbers, by header name.
struct MetricsTable {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;
  /// The column named \p name, or null.
  const std::vector<double> *column(const std::string &name) const {
    long i = modelsupport::csv::find(names, name);
    return i < 0 ? nullptr : &columns[size_t(i)];
  }
};

/// One data line of \p path (line \p lineNo) appended to \p t; an empty
/// field or "nan" is a gap (NaN).
Status readRow(const std::string &path, int lineNo, const std::string &line, MetricsTable &t) {
  std::vector<modelsupport::csv::Field> fields;
  size_t col = 0;
  if (!modelsupport::csv::splitLine(line, fields, col))
    return errorf("%s:%d:%zu: %s", path.c_str(), lineNo, col,
                  modelsupport::csv::splitError(line, col));
  if (fields.size() != t.names.size())
    return errorf("%s:%d: expected %zu fields (as in the header), found %zu", path.c_str(), lineNo,
                  t.names.size(), fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    double v = NAN;
    std::string_view text = modelsupport::csv::trim(fields[i].text);
    if (!text.empty() && text != "nan" && !modelsupport::csv::parseDouble(text, v))
      return errorf("%s:%d:%zu: column '%s': '%s' is not a number", path.c_str(), lineNo,
                    fields[i].column, t.names[i].c_str(), fields[i].text.c_str());
    t.columns[i].push_back(v);
  }
  return Status::ok();
}

/// Reads \p path (metrics.csv or steps.csv): a header with an `epoch`
/// column, then one row per epoch or logged step.
Expected<MetricsTable> readMetrics(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return errorf("%s: cannot open it (train writes metrics.csv in its --log-dir, by default "
                  "its --checkpoint-dir)", path.c_str());
  MetricsTable t;
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (modelsupport::csv::trim(line).empty())
      continue;
    if (t.names.empty()) {
      std::vector<modelsupport::csv::Field> fields;
      size_t col = 0;
      if (!modelsupport::csv::splitLine(line, fields, col))
        return errorf("%s:%d:%zu: %s", path.c_str(), lineNo, col,
                      modelsupport::csv::splitError(line, col));
      t.names = modelsupport::csv::names(fields);
      t.columns.resize(t.names.size());
      if (!t.column("epoch"))
        return errorf("%s:1: no 'epoch' column: not a log written by train", path.c_str());
      continue;
    }
    MODELRT_TRY(readRow(path, lineNo, line, t));
  }
  if (t.names.empty() || t.columns[0].empty())
    return errorf("%s: no epoch is logged yet", path.c_str());
  return t;
}

/// The chart of quantity \p what (`loss`, a metric): train_<what> and
/// val_<what> when present; false when neither is.
bool chartOf(const MetricsTable &t, const std::string &what, PlotSpec &spec) {
  const std::vector<double> &epoch = *t.column("epoch");
  spec = PlotSpec{what + " per epoch", "epoch", what, {}};
  for (const char *split : {"train", "val"})
    if (const std::vector<double> *c = t.column(std::string(split) + "_" + what))
      spec.series.push_back({std::string(split == std::string("train") ? "training" : "validation"),
                             epoch, *c});
  return !spec.series.empty();
}

/// The charts of \p t: loss, each train_<metric>, lr; with their file stems.
std::vector<std::pair<std::string, PlotSpec>> chartsOf(const MetricsTable &t) {
  std::vector<std::pair<std::string, PlotSpec>> charts;
  PlotSpec spec;
  if (chartOf(t, "loss", spec))
    charts.emplace_back("loss", spec);
  for (const std::string &name : t.names)
    if (name.rfind("train_", 0) == 0 && name != "train_loss" && chartOf(t, name.substr(6), spec))
      charts.emplace_back(name.substr(6), spec);
  if (const std::vector<double> *lr = t.column("lr"))
    charts.emplace_back("lr", PlotSpec{"learning rate per epoch", "epoch", "learning rate",
                                       {{"learning rate", *t.column("epoch"), *lr}}});
  return charts;
}

/// The per-step charts of steps.csv \p t: the training loss and the
/// learning rate over the optimizer steps (the columns train writes every
/// --log-every steps); those whose column is missing are left out.
std::vector<std::pair<std::string, PlotSpec>> stepChartsOf(const MetricsTable &t) {
  std::vector<std::pair<std::string, PlotSpec>> charts;
  const std::vector<double> *step = t.column("step");
  if (!step)
    return charts;
  if (const std::vector<double> *loss = t.column("train_loss"))
    charts.emplace_back("steps-loss", PlotSpec{"training loss per step", "optimizer step",
                                               "loss", {{"training", *step, *loss}}});
  if (const std::vector<double> *lr = t.column("lr"))
    charts.emplace_back("steps-lr", PlotSpec{"learning rate per step", "optimizer step",
                                             "learning rate", {{"learning rate", *step, *lr}}});
  return charts;
}

/// Writes each chart of \p charts as OUT/<stem>.svg, with a line saying
/// how many \p rows (\p unit) it draws.
Status writeCharts(const std::string &outDir,
                   const std::vector<std::pair<std::string, PlotSpec>> &charts, size_t rows,
                   const char *unit) {
  for (const auto &[stem, spec] : charts) {
    std::string path = outDir + "/" + stem + ".svg";
    MODELRT_TRY(writeFileAtomically(path, renderLinePlot(spec)));
    std::printf("wrote %s (%s, %zu %s)\n", path.c_str(), spec.title.c_str(), rows, unit);
  }
  return Status::ok();
}

} // namespace

Status runPlot(const ModelrtProgram &, const CliArgs &a) {
  auto it = a.flags.find("--log-dir");
  std::string dir = it == a.flags.end() ? "." : it->second;
  auto out = a.flags.find("--out");
  std::string outDir = out == a.flags.end() ? dir : out->second;
  auto table = readMetrics(dir + "/metrics.csv");
  if (!table)
    return table.status();
  MODELRT_TRY(makeDirectories(outDir));
  MODELRT_TRY(writeCharts(outDir, chartsOf(*table), table->columns[0].size(), "epoch(s)"));
  std::string stepsPath = dir + "/steps.csv";
  if (!std::ifstream(stepsPath))
    return Status::ok(); // train --log-every 0 writes none
  auto steps = readMetrics(stepsPath);
  if (!steps)
    return steps.status();
  return writeCharts(outDir, stepChartsOf(*steps), steps->columns[0].size(), "logged step(s)");
}

} // namespace modelrt
