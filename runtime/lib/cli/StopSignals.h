//===- StopSignals.h - SIGINT and SIGTERM taken by a thread of their own ---===//
//
// Declares how `train` stops on SIGINT (Ctrl-C) and SIGTERM. No signal
// handler runs on a thread that computes: a handler's frame is pushed onto
// whatever stack the interrupted thread uses, and a JIT kernel may be using
// heap memory as its stack at that moment (oneDNN's gemm), which the frame
// would overwrite. Instead both signals are blocked in every thread and one
// thread of their own takes them with sigwait.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CLI_STOPSIGNALS_H
#define MODELRT_LIB_CLI_STOPSIGNALS_H

#include <atomic>

namespace modelrt {

/// Blocks SIGINT and SIGTERM in this thread, and so in every thread started
/// after it, and starts the thread that takes them; call before any other
/// thread exists (once per process, a forked child counting as another;
/// later calls do nothing). A signal that
/// arrives while no StopOnSignals lives, or a second signal of either
/// kind, ends the process as the signal's default action does. A SIGINT
/// ignored when the process started (a background job) stays ignored.
void takeStopSignals();

/// While it lives, the first SIGINT or SIGTERM sets \p flag and says so on
/// stderr instead of ending the process (after takeStopSignals; without
/// it, the signals keep their default action).
class StopOnSignals {
public:
  explicit StopOnSignals(std::atomic<bool> &flag);
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals &) = delete;
  StopOnSignals &operator=(const StopOnSignals &) = delete;
};

} // namespace modelrt

#endif // MODELRT_LIB_CLI_STOPSIGNALS_H
