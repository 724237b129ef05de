//===- StopSignals.cpp - SIGINT and SIGTERM taken by a thread of their own -===//
//
// Implements StopSignals.h: the signals blocked with pthread_sigmask, one
// detached thread in sigwait, and the flag of the training run in progress
// behind a mutex. Ending the process "as the default action does" means
// restoring SIG_DFL, unblocking the signal in the taking thread and raising
// it there.
//
//===----------------------------------------------------------------------===//
#include "StopSignals.h"

#include <csignal>
#include <cstdlib>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace modelrt {

namespace {
std::mutex gMutex;
std::atomic<bool> *gFlag = nullptr; ///< the run's flag while a StopOnSignals lives
sigset_t gTaken;                    ///< the signals the thread takes

/// Ends the process by \p sig's default action (termination).
[[noreturn]] void endBy(int sig) {
  std::signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  raise(sig);
  _exit(128 + sig); // not reached: the signal ends the process
}

/// The taking thread: the first signal of a run sets its flag, any other
/// ends the process.
void takeSignals() {
  for (;;) {
    int sig = 0;
    if (sigwait(&gTaken, &sig) != 0)
      continue;
    std::lock_guard<std::mutex> lock(gMutex);
    if (!gFlag || gFlag->load())
      endBy(sig);
    gFlag->store(true);
    const char msg[] = "\ninterrupted: stopping after the step in progress (again to stop "
                       "now)\n";
    ssize_t ignored = ::write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
  }
}
} // namespace

void takeStopSignals() {
  static pid_t startedIn = 0; // a forked child starts a thread of its own
  std::lock_guard<std::mutex> lock(gMutex);
  if (startedIn == ::getpid())
    return;
  startedIn = ::getpid();
  sigemptyset(&gTaken);
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old = {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN)
      sigaddset(&gTaken, sig);
  }
  pthread_sigmask(SIG_BLOCK, &gTaken, nullptr);
  std::thread(takeSignals).detach();
}

StopOnSignals::StopOnSignals(std::atomic<bool> &flag) {
  std::lock_guard<std::mutex> lock(gMutex);
  gFlag = &flag;
}

StopOnSignals::~StopOnSignals() {
  std::lock_guard<std::mutex> lock(gMutex);
  gFlag = nullptr;
}

} // namespace modelrt
