//===- TestUtil.h - Helpers shared by the runtime's unit tests -------------===//
//
// A temporary directory removed at the end of a test, file writing helpers,
// and the path of test/runtime/Inputs.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_TESTUTIL_H
#define MODELRT_TEST_TESTUTIL_H

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>
#include <zlib.h>

#ifndef MODELRT_TEST_INPUTS
#define MODELRT_TEST_INPUTS "test/runtime/Inputs"
#endif

namespace modelrt_test {

/// The path of a file under test/runtime/Inputs.
inline std::string inputPath(const std::string &name) {
  return std::string(MODELRT_TEST_INPUTS) + "/" + name;
}

/// A fresh directory under $TMPDIR, removed with its contents on destruction.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base ? base : "/tmp") + "/modelrt-test-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    dir = mkdtemp(buf.data());
  }
  ~TempDir() { std::system(("rm -rf '" + dir + "'").c_str()); }
  /// The path of \p name inside the directory.
  std::string path(const std::string &name) const { return dir + "/" + name; }
  const std::string &root() const { return dir; }

private:
  std::string dir;
};

/// Writes \p bytes to \p path (gzip-compressed when \p gzip).
inline void writeBytes(const std::string &path, const std::vector<unsigned char> &bytes,
                       bool gzip = false) {
  if (gzip) {
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
    return;
  }
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
}

/// Writes \p text to \p path.
inline void writeText(const std::string &path, const std::string &text) {
  std::ofstream(path) << text;
}

} // namespace modelrt_test

#endif // MODELRT_TEST_TESTUTIL_H
