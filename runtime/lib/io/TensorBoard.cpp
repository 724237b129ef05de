//===- TensorBoard.cpp - TensorBoard event files ---------------------------===//
#include "modelrt/io/TensorBoard.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <sys/time.h>
#include <unistd.h>

namespace modelrt {

uint32_t crc32c(const void *data, size_t n) {
  static const auto table = [] {
    struct T { uint32_t v[256]; } t;
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t.v[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  const unsigned char *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < n; ++i)
    crc = table.v[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

uint32_t maskedCrc32c(const void *data, size_t n) {
  uint32_t crc = crc32c(data, n);
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

namespace {
void varint(std::string &o, uint64_t v) {
  while (v >= 0x80) {
    o += char((v & 0x7F) | 0x80);
    v >>= 7;
  }
  o += char(v);
}
template <typename T> void fixed(std::string &o, T v) {
  unsigned char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  o.append(reinterpret_cast<const char *>(b), sizeof v); // little-endian host
}
/// A length-delimited field (wire type 2).
void bytesField(std::string &o, int field, const std::string &payload) {
  varint(o, uint64_t(field) << 3 | 2);
  varint(o, payload.size());
  o += payload;
}
double nowSeconds() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return double(tv.tv_sec) + tv.tv_usec * 1e-6;
}
} // namespace

std::string encodeFileVersionEvent(double wallTime) {
  std::string e;
  varint(e, 1 << 3 | 1), fixed(e, wallTime);
  bytesField(e, 3, "brain.Event:2");
  return e;
}

std::string encodeSessionStartEvent(double wallTime, int64_t step) {
  std::string log, e;
  varint(log, 1 << 3 | 0), varint(log, 1); // status = SessionLog.START
  varint(e, 1 << 3 | 1), fixed(e, wallTime);
  varint(e, 2 << 3 | 0), varint(e, uint64_t(step));
  bytesField(e, 7, log);
  return e;
}

std::string encodeScalarEvent(double wallTime, int64_t step, const std::string &tag, float value) {
  std::string v, summary, e;
  bytesField(v, 1, tag);
  varint(v, 2 << 3 | 5), fixed(v, value);
  bytesField(summary, 1, v);
  varint(e, 1 << 3 | 1), fixed(e, wallTime);
  varint(e, 2 << 3 | 0), varint(e, uint64_t(step));
  bytesField(e, 5, summary);
  return e;
}

std::string frameRecord(const std::string &data) {
  std::string o;
  uint64_t len = data.size();
  fixed(o, len);
  fixed(o, maskedCrc32c(o.data(), 8));
  o += data;
  fixed(o, maskedCrc32c(data.data(), data.size()));
  return o;
}

bool isEventFileName(const std::string &name) {
  const std::string prefix = "events.out.tfevents.", suffix = ".modelrt";
  return name.size() > prefix.size() + suffix.size() && name.rfind(prefix, 0) == 0 &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Expected<std::unique_ptr<EventWriter>> EventWriter::create(const std::string &dir,
                                                           int64_t firstStep) {
  char host[256] = "localhost";
  if (gethostname(host, sizeof host - 1) != 0 || !host[0])
    std::strcpy(host, "localhost");
  double now = nowSeconds();
  std::string path =
      dir + "/events.out.tfevents." + std::to_string((long long)now) + "." + host + ".modelrt";
  FILE *f = std::fopen(path.c_str(), "ab");
  if (!f)
    return errorf("%s: cannot create the TensorBoard event file: %s", path.c_str(),
                  std::strerror(errno));
  std::unique_ptr<EventWriter> w(new EventWriter(path, f));
  MODELRT_TRY(w->writeRecord(encodeFileVersionEvent(now)));
  MODELRT_TRY(w->writeRecord(encodeSessionStartEvent(now, firstStep)));
  MODELRT_TRY(w->flush());
  return w;
}

EventWriter::~EventWriter() { std::fclose(file); }

Status EventWriter::writeRecord(const std::string &data) {
  std::string rec = frameRecord(data);
  if (std::fwrite(rec.data(), 1, rec.size(), file) != rec.size())
    return errorf("%s: write failed: %s", filePath.c_str(), std::strerror(errno));
  return Status::ok();
}

Status EventWriter::addScalar(const std::string &tag, float value, int64_t step) {
  return writeRecord(encodeScalarEvent(nowSeconds(), step, tag, value));
}

Status EventWriter::flush() {
  if (std::fflush(file) != 0)
    return errorf("%s: write failed: %s", filePath.c_str(), std::strerror(errno));
  return Status::ok();
}

} // namespace modelrt
