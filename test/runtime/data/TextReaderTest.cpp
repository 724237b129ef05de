//===- TextReaderTest.cpp - Text files as token ids ------------------------===//
//
// readTextTokens: characters to their vocabulary ids, bytes to their values,
// and each error with its file, line, column and byte offset: invalid UTF-8,
// a character outside the vocabulary, an empty file.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"
#include "modelrt/data/Readers.h"

#include <gtest/gtest.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {
/// The ids of a token tensor.
std::vector<int64_t> ids(const Tensor &t) {
  return std::vector<int64_t>(t.as<int64_t>(), t.as<int64_t>() + t.numElements());
}
} // namespace

TEST(TextReader, CharactersBecomeTheirVocabularyIds) {
  TempDir dir;
  writeText(dir.path("t.txt"), "ab\nw\xc3\xb6");
  std::vector<uint32_t> vocab = {'\n', 'a', 'b', 'w', 0xf6};
  auto t = readTextTokens(dir.path("t.txt"), vocab);
  ASSERT_TRUE(t.isOk()) << t.status().message();
  EXPECT_EQ(t->dtype(), DType::I64);
  EXPECT_EQ(ids(*t), (std::vector<int64_t>{1, 2, 0, 3, 4}));
}

TEST(TextReader, BytesBecomeTheirValues) {
  TempDir dir;
  writeText(dir.path("t.txt"), "a\xff\n");
  auto t = readTextTokens(dir.path("t.txt"), {});
  ASSERT_TRUE(t.isOk()) << t.status().message();
  EXPECT_EQ(ids(*t), (std::vector<int64_t>{'a', 255, '\n'}));
}

TEST(TextReader, ErrorsNameTheirPlace) {
  TempDir dir;
  std::vector<uint32_t> vocab = {'\n', 'a', 'b'};
  writeText(dir.path("bad.txt"), "ab\nb\xff");
  EXPECT_EQ(readTextTokens(dir.path("bad.txt"), vocab).status().message(),
            dir.path("bad.txt") + ":2:2: invalid UTF-8: byte 0xFF (byte offset 4)");
  writeText(dir.path("new.txt"), "ab\nbac\n");
  EXPECT_EQ(readTextTokens(dir.path("new.txt"), vocab).status().message(),
            dir.path("new.txt") +
                ":2:3: character 'c' is not in the model's vocabulary of 3 characters (byte "
                "offset 5)");
  writeText(dir.path("empty.txt"), "");
  EXPECT_EQ(readTextTokens(dir.path("empty.txt"), vocab).status().message(),
            dir.path("empty.txt") + ": the text file is empty");
  EXPECT_FALSE(readTextTokens(dir.path("missing.txt"), vocab).isOk());
}
