//===- StopSignalsTest.cpp - SIGINT and SIGTERM taken by their own thread --===//
//
// Each case runs in a forked child (a signal may end it) and checks how
// the child ended: the first signal of a run sets the run's flag, a second
// of either kind ends the process by that signal, a signal outside a run
// ends it too, and a SIGINT ignored when the process started stays
// ignored.
//
//===----------------------------------------------------------------------===//
#include "cli/StopSignals.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace modelrt;

namespace {
std::atomic<bool> gFlag{false};

/// Waits up to 5 s for gFlag.
bool flagSet() {
  for (int i = 0; i < 5000 && !gFlag; ++i)
    usleep(1000);
  return gFlag;
}

/// Runs \p body in a forked child; returns its wait status (the child
/// exits 0 when body returns).
int inChild(void (*body)()) {
  pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

bool endedBy(int status, int sig) { return WIFSIGNALED(status) && WTERMSIG(status) == sig; }
} // namespace

TEST(StopSignals, TheFirstSignalSetsTheFlagAndASecondOfEitherKindEndsTheProcess) {
  for (int second : {SIGINT, SIGTERM}) {
    static int secondSignal;
    secondSignal = second;
    int status = inChild([] {
      std::signal(SIGINT, SIG_DFL); // as a terminal's job has it (lit ignores it)
      takeStopSignals();
      StopOnSignals stop(gFlag);
      kill(getpid(), SIGINT);
      if (!flagSet())
        _exit(3);
      kill(getpid(), secondSignal);
      sleep(5);
      _exit(4);
    });
    EXPECT_TRUE(endedBy(status, second)) << "status " << status;
  }
}

TEST(StopSignals, ASignalOutsideARunEndsTheProcess) {
  int status = inChild([] {
    takeStopSignals();
    { StopOnSignals stop(gFlag); } // the run has ended
    kill(getpid(), SIGTERM);
    sleep(5);
    _exit(4);
  });
  EXPECT_TRUE(endedBy(status, SIGTERM)) << "status " << status;
}

TEST(StopSignals, ASigintIgnoredAtTheStartStaysIgnored) {
  // A background job of a script starts with SIGINT ignored: Ctrl-C at the
  // terminal is not for it. SIGTERM still stops the run.
  int status = inChild([] {
    std::signal(SIGINT, SIG_IGN);
    takeStopSignals();
    StopOnSignals stop(gFlag);
    kill(getpid(), SIGINT);
    usleep(200000);
    if (gFlag)
      _exit(5);
    kill(getpid(), SIGTERM);
    _exit(flagSet() ? 0 : 6);
  });
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}
