//===- CliRun.h - modelrt_main on a program, its output captured -*- C++ -*-===//
//
// The harness of the CLI tests: runs `net ARGS...` through modelrt_main on a
// program and returns its exit status with what it printed.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_CLI_CLIRUN_H
#define MODELRT_TEST_CLI_CLIRUN_H

#include "modelrt/core/Program.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace modelrt_test {

/// modelrt_main's exit status, stdout and stderr.
struct CliRun {
  int status;
  std::string out, err;
};

/// Runs modelrt_main on \p prog with `net` and \p args, capturing stdout and
/// stderr.
inline CliRun runCli(const ModelrtProgram &prog, std::vector<std::string> args) {
  args.insert(args.begin(), "net");
  std::vector<char *> argv;
  for (auto &a : args)
    argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int rc = modelrt_main(int(argv.size()), argv.data(), &prog);
  std::string out = testing::internal::GetCapturedStdout();
  return {rc, out, testing::internal::GetCapturedStderr()};
}

} // namespace modelrt_test

#endif // MODELRT_TEST_CLI_CLIRUN_H
