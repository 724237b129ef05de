//===- TextTest.cpp - modelsupport/Text.h ---------------------------------===//
//
// Strict UTF-8 decoding (every sequence length, and each way a sequence can
// be invalid: a stray continuation byte, a truncated sequence, overlong
// forms, surrogates, code points above U+10FFFF), places (lines and columns
// in characters), the chars vocabulary and ids, and the window counts.
//
//===----------------------------------------------------------------------===//
#include "modelsupport/Text.h"

#include <gtest/gtest.h>

using namespace modelsupport::text;

namespace {
/// The code points of `s`, or the offset of its first invalid byte as -1 - offset.
std::vector<int64_t> decode(const std::string &s) {
  std::vector<uint32_t> cps;
  size_t bad = 0;
  if (!decodeText(reinterpret_cast<const unsigned char *>(s.data()), s.size(), cps, bad))
    return {-1 - int64_t(bad)};
  return std::vector<int64_t>(cps.begin(), cps.end());
}
} // namespace

TEST(Text, DecodesEverySequenceLength) {
  EXPECT_EQ(decode("a\n"), (std::vector<int64_t>{'a', '\n'}));
  EXPECT_EQ(decode("\xc3\xb6"), (std::vector<int64_t>{0xf6}));           // ö
  EXPECT_EQ(decode("\xe2\x82\xac"), (std::vector<int64_t>{0x20ac}));     // €
  EXPECT_EQ(decode("\xf0\x9f\x98\x80"), (std::vector<int64_t>{0x1f600})); // emoji
  EXPECT_EQ(decode("\xef\xbb\xbfx"), (std::vector<int64_t>{0xfeff, 'x'})); // a BOM is a character
  EXPECT_EQ(decode("\xf4\x8f\xbf\xbf"), (std::vector<int64_t>{0x10ffff}));
}

TEST(Text, RefusesInvalidSequencesAtTheirFirstByte) {
  EXPECT_EQ(decode("ab\x80"), (std::vector<int64_t>{-3}));          // stray continuation
  EXPECT_EQ(decode("a\xc3"), (std::vector<int64_t>{-2}));           // truncated
  EXPECT_EQ(decode("a\xe2\x82x"), (std::vector<int64_t>{-2}));      // broken
  EXPECT_EQ(decode("\xc0\xaf"), (std::vector<int64_t>{-1}));        // overlong '/'
  EXPECT_EQ(decode("\xe0\x80\xaf"), (std::vector<int64_t>{-1}));    // overlong
  EXPECT_EQ(decode("\xed\xa0\x80"), (std::vector<int64_t>{-1}));    // surrogate U+D800
  EXPECT_EQ(decode("\xf4\x90\x80\x80"), (std::vector<int64_t>{-1})); // above U+10FFFF
  EXPECT_EQ(decode("\xff"), (std::vector<int64_t>{-1}));
}

TEST(Text, PlacesCountLinesAndCharacters) {
  std::string s = "ab\nw\xc3\xb6rd\n\xff";
  auto *p = reinterpret_cast<const unsigned char *>(s.data());
  Place at = placeOf(p, 6); // 'r': after "w", "ö"
  EXPECT_EQ(at.line, 2u);
  EXPECT_EQ(at.column, 3u);
  at = placeOf(p, s.size() - 1); // the bad byte starts line 3
  EXPECT_EQ(at.line, 3u);
  EXPECT_EQ(at.column, 1u);
  EXPECT_EQ(at.offset, s.size() - 1);
}

TEST(Text, VocabularyIsTheSortedDistinctCharacters) {
  std::vector<uint32_t> v = vocabularyOf({'b', 'a', 0xf6, 'b', '\n'});
  EXPECT_EQ(v, (std::vector<uint32_t>{'\n', 'a', 'b', 0xf6}));
  EXPECT_EQ(idOf(v, 'b'), 2);
  EXPECT_EQ(idOf(v, 0xf6), 3);
  EXPECT_EQ(idOf(v, 'c'), -1);
  EXPECT_EQ(describeChar('a'), "'a'");
  EXPECT_EQ(describeChar('\n'), "'\\n'");
  EXPECT_EQ(describeChar(0x7), "U+0007");
  EXPECT_EQ(describeChar(0xf6), "U+00F6 '\xc3\xb6'");
  EXPECT_EQ(describeChar(0x1f600), "U+1F600 '\xf0\x9f\x98\x80'");
}

TEST(Text, WindowCounts) {
  EXPECT_EQ(windowCount(17, 16), 1);  // one window and its 16 labels
  EXPECT_EQ(windowCount(16, 16), 0);  // no token left for the last label
  EXPECT_EQ(windowCount(100, 16), 84);
  EXPECT_EQ(epochWindows(17, 16), 1);
  EXPECT_EQ(epochWindows(100, 16), 6); // 99 labelled tokens / 16
  EXPECT_EQ(epochWindows(16, 16), 0);
}
