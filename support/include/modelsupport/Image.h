//===- Image.h - Image-file headers and image folders (compiler + runtime) ===//
//
// The facts about image data that the compiler (which reads only headers,
// to type an `images(dir)` split) and the runtime (which decodes the pixels
// with libpng and libjpeg) must agree on:
//  * the file kind, from the signature (PNG: 89 'P' 'N' 'G' ...; JPEG: FF D8);
//  * the header: width, height and channel count of a PNG (IHDR, its CRC
//    checked) or a baseline/progressive JPEG (the SOFn segment);
//  * the channel rule: grey and grey+alpha PNGs and 1-component JPEGs have
//    1 channel; RGB, RGBA and palette PNGs and 3-component (YCbCr/RGB)
//    JPEGs have 3; alpha is dropped; other JPEGs (CMYK) are refused;
//  * the folder rule: one subfolder per class, class names = the
//    subfolders' names sorted bytewise; in each, every regular file, sorted
//    by name, is one image. Names starting with '.' are skipped.
// Plain C++17 and POSIX (dirent), no libraries.
//
//===----------------------------------------------------------------------===//
#ifndef MODELSUPPORT_IMAGE_H
#define MODELSUPPORT_IMAGE_H

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace modelsupport {
namespace image {

/// The kinds of image file.
enum class Kind { Unknown, Png, Jpeg };

/// What an image file's header says.
struct Header {
  Kind kind = Kind::Unknown;
  int64_t width = 0, height = 0;
  /// After the channel rule: 1 (grey) or 3 (colour).
  int channels = 0;
};

/// The largest side an image may have (both readers refuse larger ones).
constexpr int64_t kMaxSide = 1 << 15;

/// The kind of a file starting with the \p n bytes at \p b.
inline Kind sniff(const unsigned char *b, size_t n) {
  static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (n >= 8 && std::memcmp(b, png, 8) == 0)
    return Kind::Png;
  if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
    return Kind::Jpeg;
  return Kind::Unknown;
}

/// The CRC-32 of PNG chunks (ISO 3309, bitwise; headers only, so small).
inline uint32_t crc32(const unsigned char *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k)
      c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return c ^ 0xFFFFFFFFu;
}

inline uint32_t be32(const unsigned char *p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

/// Checks the size of a header; "" or the reason it is refused.
inline std::string checkSize(Header &h) {
  if (h.width < 1 || h.height < 1 || h.width > kMaxSide || h.height > kMaxSide)
    return "unsupported image size " + std::to_string(h.width) + "x" +
           std::to_string(h.height) + " (each side 1 to 32768)";
  return "";
}

/// Parses the IHDR of the \p n >= 33 bytes of a PNG file; "" or the reason.
inline std::string parsePng(const unsigned char *b, size_t n, Header &h) {
  if (n < 33)
    return "truncated PNG header";
  if (be32(b + 8) != 13 || std::memcmp(b + 12, "IHDR", 4) != 0)
    return "invalid PNG: the first chunk is not IHDR";
  if (crc32(b + 12, 17) != be32(b + 29))
    return "corrupt PNG: CRC mismatch in chunk 'IHDR'";
  h.kind = Kind::Png;
  h.width = be32(b + 16), h.height = be32(b + 20);
  int depth = b[24], type = b[25];
  bool okDepth = depth == 8 || (depth == 16 && type != 3) ||
                 ((type == 0 || type == 3) && (depth == 1 || depth == 2 || depth == 4));
  if ((type != 0 && type != 2 && type != 3 && type != 4 && type != 6) || !okDepth)
    return "invalid PNG: colour type " + std::to_string(type) + " with bit depth " +
           std::to_string(depth);
  h.channels = type == 0 || type == 4 ? 1 : 3;
  return checkSize(h);
}

/// Reads the header of \p path with \p in; "" or the reason it is not a
/// readable JPEG. Walks the marker segments up to the first SOFn.
inline std::string parseJpeg(std::ifstream &in, Header &h) {
  in.clear();
  in.seekg(2);
  unsigned char m[4];
  while (in.read(reinterpret_cast<char *>(m), 4)) {
    if (m[0] != 0xFF)
      return "corrupt JPEG: no marker where one was expected";
    int marker = m[1];
    size_t len = size_t(m[2]) << 8 | m[3];
    if (marker == 0xD9 || marker == 0xDA)
      return "invalid JPEG: no frame header (SOF) before the image data";
    if (len < 2)
      return "corrupt JPEG: a segment of length " + std::to_string(len);
    bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
               marker != 0xCC;
    if (!sof) {
      in.seekg(std::streamoff(len - 2), std::ios::cur);
      continue;
    }
    unsigned char f[6];
    if (len < 8 || !in.read(reinterpret_cast<char *>(f), 6))
      return "truncated JPEG frame header";
    h.kind = Kind::Jpeg;
    h.height = int64_t(f[1]) << 8 | f[2];
    h.width = int64_t(f[3]) << 8 | f[4];
    if (f[5] != 1 && f[5] != 3)
      return "unsupported JPEG: " + std::to_string(int(f[5])) +
             " colour components (only grey and YCbCr/RGB; CMYK is refused)";
    h.channels = f[5];
    return checkSize(h);
  }
  return "truncated JPEG: the file ends before its frame header";
}

/// Reads the header of image file \p path into \p h; "" on success, else
/// the reason (e.g. "not a PNG or JPEG file (bad signature)").
inline std::string readHeader(const std::string &path, Header &h) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return "not a regular file";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return "cannot open file";
  unsigned char b[33] = {};
  in.read(reinterpret_cast<char *>(b), 33);
  size_t n = size_t(in.gcount());
  Kind kind = sniff(b, n);
  if (kind == Kind::Png)
    return parsePng(b, n, h);
  if (kind == Kind::Jpeg)
    return parseJpeg(in, h);
  return "not a PNG or JPEG file (bad signature)";
}

/// An image folder as the folder rule reads it.
struct Folder {
  /// Class names (the subfolders), sorted.
  std::vector<std::string> classes;
  /// Per class, the image files' full paths, sorted by name.
  std::vector<std::vector<std::string>> files;
};

/// The names in directory \p dir, sorted, without those starting with '.';
/// "" or the reason it cannot be read.
inline std::string listDir(const std::string &dir, std::vector<std::string> &names) {
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return std::strerror(errno);
  while (dirent *e = ::readdir(d))
    if (e->d_name[0] != '.')
      names.push_back(e->d_name);
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return "";
}

/// Lists image folder \p dir into \p f; "" or the reason. A regular file
/// directly in \p dir, or anything but a regular file in a class folder, is
/// an error (naming it). Empty class folders are kept (the caller reports).
inline std::string listFolder(const std::string &dir, Folder &f) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0)
    return std::strerror(errno);
  if (!S_ISDIR(st.st_mode))
    return "not a directory";
  std::vector<std::string> names;
  if (std::string err = listDir(dir, names); !err.empty())
    return err;
  for (const std::string &name : names) {
    std::string sub = dir + "/" + name;
    if (::stat(sub.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return "'" + sub + "' is not a class folder (every entry of an image folder must be a "
             "folder of images named by its class)";
    std::vector<std::string> files;
    if (std::string err = listDir(sub, files); !err.empty())
      return "'" + sub + "': " + err;
    for (std::string &file : files) {
      file = sub + "/" + file;
      if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return "'" + file + "' is not a regular file";
    }
    f.classes.push_back(name);
    f.files.push_back(std::move(files));
  }
  return "";
}

} // namespace image
} // namespace modelsupport

#endif // MODELSUPPORT_IMAGE_H
