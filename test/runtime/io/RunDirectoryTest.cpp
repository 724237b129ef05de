//===- RunDirectoryTest.cpp - A run's claim on its directories ------------===//
//
// claimRunDirectories: a fresh run refuses an earlier run's checkpoints and
// logs (naming them and the ways on) and deletes only those with
// --overwrite; a resumed run keeps them; stale temporaries go only when
// they are a run output's; a second claim of a locked directory is refused
// until the first lock is released.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "modelrt/io/RunDirectory.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {

bool exists(const std::string &path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

/// A console that drops what it is given, and keeps it.
struct Console {
  char *text = nullptr;
  size_t size = 0;
  FILE *file = open_memstream(&text, &size);
  ~Console() {
    std::fclose(file);
    std::free(text);
  }
  std::string str() {
    std::fflush(file);
    return std::string(text, size);
  }
};

TEST(RunDirectory, NamesARunsOutputsOnly) {
  for (const char *name :
       {"last.safetensors", "best.safetensors", "epoch-000012.safetensors", "metrics.csv",
        "metrics.jsonl", "steps.csv", "events.out.tfevents.1765130000.host.modelrt"})
    EXPECT_TRUE(isRunOutputName(name)) << name;
  for (const char *name :
       {"model.safetensors", "epoch-3.txt", "notes.csv", "thesis.tex", "events.out.tfevents.1.host",
        "events.out.tfevents..modelrt", kRunLockName})
    EXPECT_FALSE(isRunOutputName(name)) << name;
}

TEST(RunDirectory, AFreshRunRefusesAnEarlierRunAndOverwriteDeletesItsFilesOnly) {
  TempDir t;
  std::string dir = t.path("ck");
  ASSERT_EQ(::mkdir(dir.c_str(), 0777), 0);
  for (const char *name :
       {"last.safetensors", "epoch-000001.safetensors", "metrics.csv", "notes.txt",
        "events.out.tfevents.1765130000.host.modelrt", "events.out.tfevents.1765130000.host"})
    writeText(dir + "/" + name, "x");
  Console console;
  {
    auto claim = claimRunDirectories({dir, dir, /*fresh=*/true, /*overwrite=*/false}, console.file);
    ASSERT_FALSE(claim);
    EXPECT_EQ(claim.message(),
              dir +
                  ": holds an earlier run's outputs (epoch-000001.safetensors, "
                  "events.out.tfevents.1765130000.host.modelrt, last.safetensors and 1 more); "
                  "continue that run with --resume " +
                  dir +
                  "/last.safetensors, start over with --overwrite (which deletes "
                  "them), or choose another --checkpoint-dir");
    EXPECT_TRUE(exists(dir + "/last.safetensors"));
  }
  {
    auto resumed = claimRunDirectories({dir, dir, /*fresh=*/false, false}, console.file);
    ASSERT_TRUE(resumed) << resumed.message();
    EXPECT_TRUE(exists(dir + "/last.safetensors"));
  }
  auto claim = claimRunDirectories({dir, dir, true, /*overwrite=*/true}, console.file);
  ASSERT_TRUE(claim) << claim.message();
  EXPECT_FALSE(exists(dir + "/last.safetensors"));
  EXPECT_FALSE(exists(dir + "/epoch-000001.safetensors"));
  EXPECT_FALSE(exists(dir + "/metrics.csv"));
  EXPECT_FALSE(exists(dir + "/events.out.tfevents.1765130000.host.modelrt"));
  EXPECT_TRUE(exists(dir + "/notes.txt"));
  EXPECT_TRUE(exists(dir + "/events.out.tfevents.1765130000.host")); // another program's
  EXPECT_NE(console.str().find("--overwrite: removed 4 file(s) of an earlier run"),
            std::string::npos)
      << console.str();
}

TEST(RunDirectory, RemovesOnlyTheTemporariesOfRunOutputs) {
  TempDir t;
  std::string dir = t.root();
  writeText(t.path(".last.safetensors.tmp.aB3dE9"), "partial");
  writeText(t.path(".metrics.csv.tmp.Zz9Zz9"), "partial");
  writeText(t.path(".thesis.tex.tmp.aB3dE9"), "the user's");
  writeText(t.path("target"), "the user's");
  ASSERT_EQ(::symlink("target", t.path(".epoch-000001.safetensors.tmp.abcdef").c_str()), 0);
  Console console;
  auto claim = claimRunDirectories({dir, dir, true, false}, console.file);
  ASSERT_TRUE(claim) << claim.message();
  EXPECT_FALSE(exists(t.path(".last.safetensors.tmp.aB3dE9")));
  EXPECT_FALSE(exists(t.path(".metrics.csv.tmp.Zz9Zz9")));
  EXPECT_TRUE(exists(t.path(".thesis.tex.tmp.aB3dE9")));
  EXPECT_TRUE(exists(t.path(".epoch-000001.safetensors.tmp.abcdef"))); // a link, not ours
  EXPECT_TRUE(exists(t.path("target")));
  EXPECT_NE(console.str().find("removed 2 temporary file(s) left by an interrupted run"),
            std::string::npos)
      << console.str();
}

TEST(RunDirectory, OneRunAtATime) {
  TempDir t;
  std::string ck = t.path("ck"), logs = t.path("logs");
  Console console;
  auto first = claimRunDirectories({ck, logs, true, false}, console.file);
  ASSERT_TRUE(first) << first.message();
  // flock locks belong to the open file: a second open is refused while the
  // first is held, in this process as in another.
  auto second = claimRunDirectories({ck, logs, true, false}, console.file);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.message(), ck + ": another training run is writing to this directory (it "
                                   "holds .modelrt-run.lock); wait for it to finish, or "
                                   "choose another directory");
  auto logsOnly = claimRunDirectories({t.path("other"), logs, true, false}, console.file);
  ASSERT_FALSE(logsOnly);
  EXPECT_NE(logsOnly.message().find(logs + ": another training run"), std::string::npos);
  first = Status::error("released");
  auto third = claimRunDirectories({ck, logs, true, false}, console.file);
  EXPECT_TRUE(third) << third.message();
}

TEST(RunDirectory, OneDirectoryNamedTwoWaysIsLockedOnce) {
  TempDir t;
  std::string ck = t.path("ck");
  Console console;
  auto claim = claimRunDirectories({ck, ck + "/.", true, false}, console.file);
  EXPECT_TRUE(claim) << claim.message();
}

TEST(RunDirectory, ARefusedRunCreatesNothing) {
  TempDir t;
  writeText(t.path("metrics.csv"), "epoch\n1\n");
  Console console;
  auto claim = claimRunDirectories({t.path("new"), t.root(), true, false}, console.file);
  ASSERT_FALSE(claim);
  EXPECT_EQ(claim.message(), t.root() + ": holds an earlier run's outputs (metrics.csv); start "
                                         "over with --overwrite (which deletes them), or "
                                         "choose another --log-dir");
  EXPECT_FALSE(exists(t.path("new")));
  EXPECT_FALSE(exists(t.path(kRunLockName)));
}

} // namespace
