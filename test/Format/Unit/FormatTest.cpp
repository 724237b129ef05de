//===- FormatTest.cpp - Unit tests of the formatter library ---------------===//
//
// Runs the formatter over every .model file of the source tree (examples,
// stdlib, benchmarks, and the lit tests and their inputs, which are only
// read): each file that parses must format to a text with the same AST and
// comments (formatBuffer verifies that) which formats to itself again; a file
// with a syntax error must be refused with its diagnostics. Also tests the
// unified diff that `modelc fmt --check` prints.
//
//===----------------------------------------------------------------------===//

#include "modelc/Format/Format.h"
#include "modelc/Format/UnifiedDiff.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace modelc;

namespace {

/// The outcome of formatting one text.
struct Formatted {
  bool syntaxError = false;
  std::string text;
  std::string error;
};

/// Formats `source` as the file `name`.
Formatted formatText(llvm::StringRef source, llvm::StringRef name) {
  llvm::SourceMgr sourceMgr;
  std::string diagText;
  llvm::raw_string_ostream diagStream(diagText);
  DiagnosticEngine diags(sourceMgr, diagStream);
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  Formatted result;
  llvm::Expected<std::string> text = formatBuffer(diags, id);
  if (text) {
    result.text = *text;
    return result;
  }
  result.error = toString(text.takeError());
  result.syntaxError = diags.hasErrors();
  return result;
}

/// Every .model file under `dir`, skipping build folders and hidden ones.
std::vector<std::string> findModelFiles(llvm::StringRef dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (it->type() == llvm::sys::fs::file_type::directory_file &&
        (name.starts_with("build") || name.starts_with("."))) {
      it.no_push();
      continue;
    }
    if (name.ends_with(".model"))
      files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FormatRepository, EveryModelFileKeepsItsMeaningAndIsIdempotent) {
  std::vector<std::string> files = findModelFiles(MODELC_SOURCE_DIR);
  // The tree holds over 300 .model files; far fewer means the walk broke.
  EXPECT_GT(files.size(), 250u);
  unsigned formatted = 0;
  for (const std::string &path : files) {
    SCOPED_TRACE(path);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    ASSERT_TRUE(bool(buffer));
    llvm::StringRef source = (*buffer)->getBuffer();
    Formatted once = formatText(source, path);
    if (once.syntaxError)
      continue; // Tests of syntax errors: refused, as they must be.
    ASSERT_EQ(once.error, "");
    Formatted twice = formatText(once.text, path);
    ASSERT_EQ(twice.error, "");
    EXPECT_EQ(twice.text, once.text) << "formatting is not idempotent";
    ++formatted;
  }
  EXPECT_GT(formatted, 250u);
}

TEST(FormatRepository, SyntaxErrorIsRefused) {
  Formatted result = formatText("model M( {\n", "bad.model");
  EXPECT_TRUE(result.syntaxError);
  EXPECT_EQ(result.text, "");
}

TEST(UnifiedDiff, EqualTextsGiveNothing) {
  EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "x", "y"), "");
}

TEST(UnifiedDiff, OneChangedLineWithContext) {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unifiedDiff(before, after, "a.model", "b.model"),
            "--- a.model\n+++ b.model\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n"
            "+five\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, DistantChangesMakeTwoHunks) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += std::to_string(i) + "\n";
    after += (i == 2 || i == 18 ? "x" : std::to_string(i)) + "\n";
  }
  std::string diff = unifiedDiff(before, after, "a", "b");
  EXPECT_NE(diff.find("@@ -1,5 +1,5 @@\n 1\n-2\n+x\n 3\n 4\n 5\n"),
            std::string::npos)
      << diff;
  EXPECT_NE(diff.find("@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+x\n 19\n 20\n"),
            std::string::npos)
      << diff;
}

TEST(UnifiedDiff, InsertedAndRemovedLines) {
  EXPECT_EQ(unifiedDiff("a\nc\n", "a\nb\nc\n", "x", "y"),
            "--- x\n+++ y\n@@ -1,2 +1,3 @@\n a\n+b\n c\n");
  EXPECT_EQ(unifiedDiff("a\nb\n", "", "x", "y"),
            "--- x\n+++ y\n@@ -1,2 +0,0 @@\n-a\n-b\n");
}

TEST(UnifiedDiff, MissingFinalNewlineIsShown) {
  EXPECT_EQ(unifiedDiff("a\n// end", "a\n// end\n", "x", "y"),
            "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-// end\n"
            "\\ No newline at end of file\n+// end\n");
}

} // namespace
