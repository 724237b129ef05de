//===- Progress.h - Progress bar / periodic progress lines -----------------===//
//
// Implements `Progress`. On a terminal it redraws one line with a bar, the
// rate (items/s, named after the items: "batches/s") and the ETA; otherwise (a log file, a pipe) it prints a plain
// line every 10% of the total and at the end, so logs stay readable.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CLI_PROGRESS_H
#define MODELRT_CLI_PROGRESS_H

#include <cstdint>
#include <cstdio>
#include <string>

namespace modelrt {

/// Reports progress of a loop of \p total items to a stream.
class Progress {
public:
  /// \p interactive: redraw a bar in place (true) or print plain lines;
  /// \p unit names the items in the rate ("batches": "12.3 batches/s";
  /// empty: "12.3/s").
  Progress(FILE *out, std::string label, int64_t total, bool interactive,
           std::string unit = "");
  /// Chooses interactive mode when \p out is a terminal.
  static Progress forStream(FILE *out, std::string label, int64_t total,
                            std::string unit = "");

  /// Reports \p done items finished; \p suffix (e.g. "loss 0.31") is appended.
  void update(int64_t done, const std::string &suffix = "");
  /// Same, with the elapsed seconds given explicitly (for tests).
  void updateAt(int64_t done, double elapsedSeconds, const std::string &suffix);
  /// Prints the final line (always) and ends the bar's line.
  void finish(const std::string &suffix = "");
  /// Ends a drawn bar's line when the loop stopped before finish() (an
  /// error, an interruption), so that what is printed next starts a line
  /// of its own.
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  /// Renders "label  45/100 [#####.....] 12.3 UNIT/s ETA 0:05 suffix".
  static std::string formatLine(const std::string &label, int64_t done,
                                int64_t total, double elapsedSeconds,
                                const std::string &suffix, bool withBar,
                                const std::string &unit = "");
  /// Renders seconds as M:SS or H:MM:SS.
  static std::string formatDuration(double seconds);

private:
  FILE *out;
  std::string label;
  int64_t total;
  std::string unit;
  bool interactive;
  double startTime;
  int64_t lastDecile = -1;
  int64_t lastDone = 0;
  double lastDraw = -1;
  bool lineOpen = false; ///< a bar is drawn and its line not yet ended
};

/// Seconds since an arbitrary fixed point (steady clock).
double monotonicSeconds();

} // namespace modelrt

#endif // MODELRT_CLI_PROGRESS_H
