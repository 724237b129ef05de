//===- ImageTest.cpp - modelsupport/Image.h -------------------------------===//
//
// Header parsing from bytes written here: a PNG's IHDR (every colour type
// to its channel count, a CRC mismatch, a bad depth), a JPEG's frame header
// behind other segments, CMYK refused, truncated and unknown files; and the
// folder rule (sorted classes and files, hidden names skipped, a stray file
// refused).
//
//===----------------------------------------------------------------------===//
#include "modelsupport/Image.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace modelsupport::image;

namespace {
/// A temporary folder, removed with its contents.
struct Dir {
  std::string path;
  Dir() {
    char tmpl[] = "/tmp/modelsupport-image-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~Dir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string write(const std::string &name, const std::vector<unsigned char> &b) const {
    std::string p = path + "/" + name;
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char *>(b.data()),
                                             std::streamsize(b.size()));
    return p;
  }
};

/// The first 33 bytes of a PNG: signature and IHDR (CRC fixed unless told).
std::vector<unsigned char> pngHeader(uint32_t w, uint32_t h, int depth, int type,
                                     bool goodCrc = true) {
  std::vector<unsigned char> b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n',
                                  0, 0, 0, 13, 'I', 'H', 'D', 'R'};
  for (uint32_t v : {w, h})
    for (int s = 24; s >= 0; s -= 8)
      b.push_back((v >> s) & 0xFF);
  b.insert(b.end(), {(unsigned char)depth, (unsigned char)type, 0, 0, 0});
  uint32_t crc = crc32(&b[12], 17) ^ (goodCrc ? 0 : 1);
  for (int s = 24; s >= 0; s -= 8)
    b.push_back((crc >> s) & 0xFF);
  return b;
}

/// SOI, an APP0 segment of 16 bytes, then SOF0 of w x h with n components.
std::vector<unsigned char> jpegHeader(int w, int h, int n) {
  std::vector<unsigned char> b = {0xFF, 0xD8, 0xFF, 0xE0, 0, 16};
  b.insert(b.end(), 14, 'j');
  b.insert(b.end(), {0xFF, 0xC0, 0, (unsigned char)(8 + 3 * n), 8, (unsigned char)(h >> 8),
                     (unsigned char)h, (unsigned char)(w >> 8), (unsigned char)w,
                     (unsigned char)n});
  b.insert(b.end(), size_t(3 * n), 1);
  return b;
}

std::string header(const Dir &d, const std::vector<unsigned char> &b, Header &h) {
  return readHeader(d.write("f", b), h);
}
} // namespace

TEST(Image, PngHeaders) {
  Dir d;
  Header h;
  for (auto [type, depth, channels] : {std::make_tuple(0, 1, 1), std::make_tuple(0, 16, 1),
                                       std::make_tuple(2, 8, 3), std::make_tuple(3, 4, 3),
                                       std::make_tuple(4, 8, 1), std::make_tuple(6, 16, 3)}) {
    ASSERT_EQ(header(d, pngHeader(7, 5, depth, type), h), "") << type << " " << depth;
    EXPECT_EQ(h.kind, Kind::Png);
    EXPECT_EQ(h.channels, channels) << type;
    EXPECT_EQ(h.width, 7);
    EXPECT_EQ(h.height, 5);
  }
  EXPECT_EQ(header(d, pngHeader(7, 5, 8, 2, false), h), "corrupt PNG: CRC mismatch in chunk 'IHDR'");
  EXPECT_EQ(header(d, pngHeader(7, 5, 16, 3), h), "invalid PNG: colour type 3 with bit depth 16");
  EXPECT_EQ(header(d, pngHeader(0, 5, 8, 0), h), "unsupported image size 0x5 (each side 1 to 32768)");
  std::vector<unsigned char> cut = pngHeader(7, 5, 8, 0);
  cut.resize(20);
  EXPECT_EQ(header(d, cut, h), "truncated PNG header");
}

TEST(Image, JpegHeaders) {
  Dir d;
  Header h;
  ASSERT_EQ(header(d, jpegHeader(300, 2, 3), h), "");
  EXPECT_EQ(h.kind, Kind::Jpeg);
  EXPECT_EQ(h.width, 300);
  EXPECT_EQ(h.height, 2);
  EXPECT_EQ(h.channels, 3);
  ASSERT_EQ(header(d, jpegHeader(4, 4, 1), h), "");
  EXPECT_EQ(h.channels, 1);
  EXPECT_EQ(header(d, jpegHeader(4, 4, 4), h),
            "unsupported JPEG: 4 colour components (only grey and YCbCr/RGB; CMYK is refused)");
  std::vector<unsigned char> cut = jpegHeader(4, 4, 3);
  cut.resize(12);
  EXPECT_EQ(header(d, cut, h), "truncated JPEG: the file ends before its frame header");
  EXPECT_EQ(header(d, {'G', 'I', 'F', '8'}, h), "not a PNG or JPEG file (bad signature)");
  EXPECT_EQ(readHeader(d.path + "/missing", h), "No such file or directory");
  EXPECT_EQ(readHeader(d.path, h), "not a regular file");
}

TEST(Image, FolderRule) {
  Dir d;
  for (const char *sub : {"b", "a", ".hidden"})
    ASSERT_EQ(::mkdir((d.path + "/" + sub).c_str(), 0755), 0);
  for (const char *f : {"b/2.png", "b/10.png", "a/x.jpg", "a/.DS_Store", ".hidden/y.png"})
    d.write(f, {1});
  Folder f;
  ASSERT_EQ(listFolder(d.path, f), "");
  EXPECT_EQ(f.classes, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(f.files.size(), 2u);
  EXPECT_EQ(f.files[0], (std::vector<std::string>{d.path + "/a/x.jpg"}));
  EXPECT_EQ(f.files[1], (std::vector<std::string>{d.path + "/b/10.png", d.path + "/b/2.png"}));
  d.write("stray.png", {1});
  Folder g;
  EXPECT_EQ(listFolder(d.path, g), "'" + d.path + "/stray.png' is not a class folder (every "
                                   "entry of an image folder must be a folder of images named "
                                   "by its class)");
  Folder m;
  EXPECT_EQ(listFolder(d.path + "/none", m), "No such file or directory");
}
