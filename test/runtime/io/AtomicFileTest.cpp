//===- AtomicFileTest.cpp - Files replaced whole or not at all ------------===//
//
// writeFileAtomically gives the file a new file's mode and writes a device
// in place (a rename would replace /dev/null when run as root);
// makeDirectories creates parents; sameFile compares existing paths by
// inode and others by text. The failure and crash cases are in
// CheckpointTest, the temporaries' clean-up in RunDirectoryTest.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "modelrt/io/AtomicFile.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {

TEST(AtomicFile, ReplacesWithANewFilesMode) {
  TempDir t;
  mode_t mask = ::umask(022);
  ::umask(mask);
  ASSERT_TRUE(writeFileAtomically(t.path("a.bin"), "first").isOk());
  ASSERT_TRUE(writeFileAtomically(t.path("a.bin"), "second").isOk());
  struct stat st;
  ASSERT_EQ(::stat(t.path("a.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
  EXPECT_EQ(st.st_size, 6);
  EXPECT_TRUE(sameFile(t.path("a.bin"), t.root() + "/./a.bin"));
}

TEST(AtomicFile, WritesADeviceInPlace) {
  ASSERT_TRUE(writeFileAtomically("/dev/null", "discarded").isOk());
  struct stat st;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null was replaced by a file";
}

TEST(AtomicFile, MakesParentsAndComparesPaths) {
  TempDir t;
  ASSERT_TRUE(makeDirectories(t.path("a/b/c")).isOk());
  EXPECT_TRUE(sameFile(t.path("a/b/c"), t.path("a/./b/../b/c")));
  EXPECT_FALSE(sameFile(t.path("a/b"), t.path("a/b/c")));
  EXPECT_TRUE(sameFile(t.path("none"), t.path("none"))); // by text
  EXPECT_FALSE(sameFile(t.path("none"), t.path("other")));
  writeText(t.path("a/f"), "x");
  auto err = makeDirectories(t.path("a/f/g"));
  ASSERT_FALSE(err.isOk());
  EXPECT_EQ(err.message(), t.path("a/f/g") + ": cannot create the directory: Not a directory");
}

} // namespace
