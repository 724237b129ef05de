//===- ReaderFuzzer.cpp - libFuzzer targets for the runtime's data readers -===//
//
// One source, built once per reader with MODELRT_FUZZ_READER set to the
// reader's name (runtime/fuzz/CMakeLists.txt): idx, npy, png, safetensors
// or csv. Each feeds arbitrary bytes to that reader, through its in-memory
// API where it has one (parseNpy, decodeImage, decodeSafetensors), else
// through a temporary file (readIdx, readCsv); PNG inputs of even size get
// their chunk CRCs fixed first. Any crash, sanitizer report, leak, uncaught
// exception or allocation over -malloc_limit_mb is a bug: every reader must
// return an error Status for bad input. Built only with
// -DMODELC_ENABLE_FUZZERS=ON and clang; run through scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//

#include "modelrt/data/Readers.h"
#include "modelrt/io/Safetensors.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>
#include <zlib.h>

using namespace modelrt;

namespace {

/// The path of this process's temporary input file, made once.
const std::string &tempPath() {
  static const std::string path = [] {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base ? base : "/tmp") + "/modelrt-fuzz-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    int fd = mkstemp(buf.data());
    if (fd < 0)
      std::abort();
    close(fd);
    return std::string(buf.data());
  }();
  return path;
}

/// Writes the input to the temporary file and returns its path.
const std::string &writeTemp(const uint8_t *data, size_t size) {
  const std::string &path = tempPath();
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || (size && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0)
    std::abort();
  return path;
}

/// Rewrites the CRC of every whole PNG chunk, so that mutations reach the
/// chunk parser, inflate and the filters instead of stopping at the CRC
/// check (inputs of odd size keep their CRCs, to fuzz that check too).
void fixPngCrcs(std::vector<unsigned char> &b) {
  if (b.size() % 2)
    return;
  for (size_t pos = 8; b.size() >= 12 && pos <= b.size() - 12;) {
    uint32_t len = uint32_t(b[pos]) << 24 | uint32_t(b[pos + 1]) << 16 |
                   uint32_t(b[pos + 2]) << 8 | b[pos + 3];
    if (len > b.size() - pos - 12)
      return;
    uint32_t crc = uint32_t(crc32(0, &b[pos + 4], uInt(len + 4)));
    for (int i = 0; i < 4; ++i)
      b[pos + 8 + len + i] = (crc >> (24 - 8 * i)) & 0xFF;
    pos += 12 + size_t(len);
  }
}

/// Touches every byte of a decoded tensor, so that a wrong size is an ASan report.
unsigned checksum(const Tensor &t) {
  unsigned sum = 0;
  const auto *p = static_cast<const unsigned char *>(t.data());
  for (size_t i = 0; i < t.numBytes(); ++i)
    sum += p[i];
  return sum;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<unsigned char> bytes(data, data + size);
  volatile unsigned sink = 0;
  const std::string reader = MODELRT_FUZZ_READER;
  if (reader == "npy") {
    if (auto t = parseNpy(bytes, "fuzz.npy"))
      sink = checksum(*t);
  } else if (reader == "png") {
    fixPngCrcs(bytes);
    if (auto t = decodeImage(bytes, "fuzz.png"))
      sink = checksum(*t);
  } else if (reader == "safetensors") {
    std::string text(bytes.begin(), bytes.end());
    if (auto f = decodeSafetensors(text, "fuzz.safetensors"))
      for (const auto &entry : f->tensors)
        sink = sink + checksum(entry.second);
  } else if (reader == "idx") {
    if (auto t = readIdx(writeTemp(data, size)))
      sink = checksum(*t);
  } else if (reader == "csv") {
    // Every other column as inputs; by the size, no label column, "label"
    // (class indices) or "label" and "y" (f32 targets).
    static const std::vector<std::string> labels[] = {{}, {"label"}, {"label", "y"}};
    const std::vector<std::string> &cols = labels[size % 3];
    if (auto t = readCsv(writeTemp(data, size), {}, cols,
                         cols.size() > 1 ? DType::F32 : DType::I64))
      sink = checksum(t->inputs) + checksum(t->labels);
  } else {
    std::abort(); // an unknown MODELRT_FUZZ_READER
  }
  (void)sink;
  return 0;
}
