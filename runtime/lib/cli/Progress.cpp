//===- Progress.cpp - Progress bar / periodic progress lines ---------------===//
#include "modelrt/cli/Progress.h"

#include <chrono>
#include <unistd.h>

namespace modelrt {

double monotonicSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

Progress::Progress(FILE *out, std::string label, int64_t total, bool interactive,
                   std::string unit)
    : out(out), label(std::move(label)), total(total), unit(std::move(unit)),
      interactive(interactive), startTime(monotonicSeconds()) {}

Progress Progress::forStream(FILE *out, std::string label, int64_t total, std::string unit) {
  return Progress(out, std::move(label), total, isatty(fileno(out)) != 0, std::move(unit));
}

std::string Progress::formatDuration(double seconds) {
  if (!(seconds >= 0) || seconds > 1e8)
    return "?";
  long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

std::string Progress::formatLine(const std::string &label, int64_t done,
                                 int64_t total, double elapsed,
                                 const std::string &suffix, bool withBar,
                                 const std::string &unit) {
  std::string line = label + " " + std::to_string(done) + "/" + std::to_string(total);
  if (withBar && total > 0) {
    const int width = 20;
    int filled = static_cast<int>(width * done / total);
    line += " [" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
  }
  double rate = elapsed > 0 ? done / elapsed : 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, " %.1f", rate);
  line += buf + (unit.empty() ? "" : " " + unit) + "/s";
  if (done < total)
    line += " ETA " + (rate > 0 ? formatDuration((total - done) / rate) : std::string("?"));
  else
    line += " in " + formatDuration(elapsed);
  if (!suffix.empty())
    line += " " + suffix;
  return line;
}

void Progress::update(int64_t done, const std::string &suffix) {
  updateAt(done, monotonicSeconds() - startTime, suffix);
}

void Progress::updateAt(int64_t done, double elapsed, const std::string &suffix) {
  lastDone = done;
  if (interactive) {
    // Redraw at most 10 times a second.
    if (done < total && lastDraw >= 0 && elapsed - lastDraw < 0.1)
      return;
    lastDraw = elapsed;
    std::fprintf(out, "\r%s\x1b[K", formatLine(label, done, total, elapsed, suffix, true, unit).c_str());
    std::fflush(out);
    lineOpen = true;
    return;
  }
  int64_t decile = total > 0 ? done * 10 / total : 10;
  if (decile <= lastDecile || decile >= 10)
    return; // the final line comes from finish()
  lastDecile = decile;
  if (decile == 0)
    return;
  std::fprintf(out, "%s\n", formatLine(label, done, total, elapsed, suffix, false, unit).c_str());
  std::fflush(out);
}

void Progress::finish(const std::string &suffix) {
  double elapsed = monotonicSeconds() - startTime;
  std::string line = formatLine(label, lastDone, total, elapsed, suffix, interactive, unit);
  if (interactive)
    std::fprintf(out, "\r%s\x1b[K\n", line.c_str());
  else
    std::fprintf(out, "%s\n", line.c_str());
  std::fflush(out);
  lineOpen = false;
}

Progress::~Progress() {
  if (!lineOpen)
    return;
  std::fputc('\n', out);
  std::fflush(out);
}

} // namespace modelrt
