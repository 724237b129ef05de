//===- LinkerTest.cpp - Which failed links are the machine's --------------===//
//
// environmentFailure on linker messages: the line naming a full disk, a
// file-size or quota limit, a permission or a read-only file system, and
// none for a failure of the inputs (an undefined symbol).
//
//===----------------------------------------------------------------------===//
#include "modelc/Target/Linker.h"

#include <gtest/gtest.h>

using namespace modelc;

TEST(Linker, AFullDiskOrALimitIsTheMachinesFailure) {
  const char *head = "link failed (exit status 1): /usr/bin/c++ a.o -o net.link-1a2b3c\n";
  const char *lines[] = {
      "/usr/bin/ld: final link failed: No space left on device",
      "/usr/bin/ld: final link failed: File too large",
      "/usr/bin/ld: cannot open output file net.link-1a2b3c: Permission denied",
      "/usr/bin/ld: cannot open output file net.link-1a2b3c: Read-only file system",
      "ld.lld: error: failed to write output 'net': Disk quota exceeded"};
  for (const char *line : lines) {
    std::optional<std::string> why = environmentFailure(
        std::string(head) + "  " + line + "\ncollect2: error: ld returned 1 exit status");
    ASSERT_TRUE(why.has_value()) << line;
    EXPECT_EQ(*why, line);
  }
}

TEST(Linker, AnUndefinedSymbolOrAnUnreadableInputIsNot) {
  EXPECT_FALSE(
      environmentFailure(
          "link failed (exit status 1): /usr/bin/c++ a.o -o net\n"
          "/usr/bin/ld: cannot open /x/libmodelrt.a: Permission denied\n"
          "collect2: error: ld returned 1 exit status")
          .has_value());
  EXPECT_FALSE(environmentFailure("link failed (exit status 1): /usr/bin/c++ a.o -o net\n"
                                  "/usr/bin/ld: a.o: in function `main':\n"
                                  "a.c:(.text+0x5): undefined reference to `modelrt_main'\n"
                                  "collect2: error: ld returned 1 exit status")
                   .has_value());
}
