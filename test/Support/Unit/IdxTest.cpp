//===- IdxTest.cpp - The shared IDX header rules --------------------------===//
//
// Unit tests of modelsupport/Idx.h: the element types and their sizes, the
// header's length from its rank, and each rejected header with the byte it
// names. The readers built on it are tested in test/runtime (ReadersTest's
// Idx.*) and test/Sema (bad-idx-file.model).
//
//===----------------------------------------------------------------------===//

#include "modelsupport/Idx.h"

#include <gtest/gtest.h>

using namespace modelsupport::idx;

namespace {

/// parseHeader over \p bytes: its message ("" when it parsed), the byte it
/// names, and the header.
struct Parsed {
  std::string error;
  size_t at = 0;
  Header header;
};
Parsed parse(const std::vector<unsigned char> &bytes) {
  Parsed p;
  p.error = parseHeader(bytes.data(), bytes.size(), p.header, p.at);
  return p;
}

TEST(IdxHeader, ElementTypesAreIdxsSix) {
  const struct {
    unsigned code, size;
    const char *name;
  } types[] = {{0x08, 1, "u8"},  {0x09, 1, "i8"},  {0x0B, 2, "i16"},
               {0x0C, 4, "i32"}, {0x0D, 4, "f32"}, {0x0E, 8, "f64"}};
  for (const auto &t : types) {
    EXPECT_EQ(elemSize(t.code), t.size) << t.name;
    EXPECT_STREQ(elemName(t.code), t.name);
    EXPECT_EQ(isFloat(t.code), t.code >= 0x0D) << t.name;
  }
  for (unsigned code : {0x00u, 0x07u, 0x0Au, 0x0Fu, 0xFFu}) {
    EXPECT_EQ(elemSize(code), 0u) << code;
    EXPECT_EQ(elemName(code), nullptr) << code;
  }
}

TEST(IdxHeader, ParsesBigEndianDimensions) {
  // f32, rank 3: 2 x 258 x 2^31 (the largest dimension allowed).
  Parsed p = parse({0, 0, 0x0D, 3, 0, 0, 0, 2, 0, 0, 1, 2, 0x80, 0, 0, 0, 0xAA});
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.at, kNoByte);
  EXPECT_EQ(p.header.typeCode, 0x0Du);
  EXPECT_EQ(p.header.dims, (std::vector<int64_t>{2, 258, int64_t(1) << 31}));
  EXPECT_EQ(p.header.dataStart, 16u);
  const unsigned char rank5[] = {0, 0, 8, 5};
  EXPECT_EQ(headerBytes(rank5, 4), 24u);
  EXPECT_EQ(headerBytes(rank5, 3), 4u);
}

TEST(IdxHeader, EachBadHeaderNamesItsByte) {
  const struct {
    std::vector<unsigned char> bytes;
    size_t at;
    const char *error;
  } cases[] = {
      {{}, kNoByte, "truncated IDX header: the file ends at byte 0, the header needs 4"},
      {{0, 0, 8}, kNoByte, "truncated IDX header: the file ends at byte 3, the header needs 4"},
      {{0x1F, 0x8B, 8, 0}, 0, "not an IDX file (magic bytes 0x1f 0x8b, expected 0x00 0x00)"},
      {{0, 1, 8, 1}, 0, "not an IDX file (magic bytes 0x00 0x01, expected 0x00 0x00)"},
      {{0, 0, 0x0A, 1},
       2,
       "unknown IDX element type 0x0a (IDX defines 0x08 u8, 0x09 i8, 0x0b i16, 0x0c i32, "
       "0x0d f32, 0x0e f64)"},
      {{0, 0, 8, 0}, 3, "IDX rank is 0"},
      {{0, 0, 8, 2, 0, 0, 0, 1, 0, 0},
       kNoByte,
       "truncated IDX header: the file ends at byte 10, 2 dimensions need 12"},
      {{0, 0, 8, 2, 0, 0, 0, 1, 0, 0, 0, 0}, 8, "dimension 1 is 0: IDX dimensions are at least 1"},
      {{0, 0, 8, 1, 0x80, 0, 0, 1}, 4, "dimension 0 is 2147483649, above the limit of 2^31"},
      {{0, 0, 8, 1, 0xFF, 0xFF, 0xFF, 0xFF},
       4,
       "dimension 0 is 4294967295, above the limit of 2^31"},
  };
  for (const auto &c : cases) {
    Parsed p = parse(c.bytes);
    EXPECT_EQ(p.error, c.error);
    EXPECT_EQ(p.at, c.at) << c.error;
  }
}

} // namespace

namespace {

TEST(IdxHeader, TheFileHoldsExactlyTheData) {
  Header h;
  h.typeCode = 0x0B; // i16: 2 bytes
  h.dims = {3, 2};
  h.dataStart = 12;
  uint64_t bytes = 0;
  ASSERT_TRUE(fileBytes(h, bytes));
  EXPECT_EQ(bytes, 24u);
  size_t at = 0;
  EXPECT_EQ(checkSize(h, 24, at), "");
  EXPECT_EQ(checkSize(h, 23, at),
            "truncated IDX data: file ends at byte 23, shape [3, 2] needs 24 bytes");
  EXPECT_EQ(at, kNoByte);
  EXPECT_EQ(checkSize(h, 27, at), "3 unexpected trailing bytes after IDX data");
  EXPECT_EQ(at, 24u);
  // 255 dimensions of 2^31 f64 values: more than 64 bits of bytes.
  h.typeCode = 0x0E;
  h.dims.assign(255, int64_t(1) << 31);
  EXPECT_FALSE(fileBytes(h, bytes));
  EXPECT_NE(checkSize(h, 0, at).find("holds more bytes than a file can"), std::string::npos);
}

} // namespace
