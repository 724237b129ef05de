//===- DataFiles.cpp - Reading data-set headers at compile time -----------===//
//
// The compiler reads only what it needs to type a data block: the header of
// an IDX file (gzip or plain, through zlib's gz* functions, which read both;
// modelsupport/Idx.h, the runtime's rules)
// or of an NPY file (modelsupport/Npy.h, the runtime's rules; its length
// checked against its shape) and, for a label file of class indices (1-D
// integers), the labels themselves to learn the class count; any other
// label file holds f32 targets, typed by its header. A 1-D NPY file of
// token ids is scanned the same way for the vocabulary's size.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include "modelsupport/Idx.h"
#include "modelsupport/Npy.h"
#include "modelsupport/ShapeArith.h"

#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <zlib.h>

using namespace modelc;
using namespace modelc::sema;

namespace {
/// Closes a gzFile on scope exit.
struct GzCloser {
  gzFile f;
  ~GzCloser() {
    if (f)
      gzclose(f);
  }
};
} // namespace

/// An IDX reading error with message `message`.
static llvm::Error idxError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error sema::checkRegularFile(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return idxError(std::strerror(errno));
  if (S_ISREG(st.st_mode))
    return llvm::Error::success();
  const char *kind = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
                         ? "a device"
                         : "a special file";
  return idxError(llvm::Twine("not a regular file (it is ") + kind + ")");
}

/// Opens `path` and reads its header (modelsupport/Idx.h's rules); leaves
/// the stream after the header.
static llvm::Expected<IdxHeader> openIdx(const std::string &path,
                                         gzFile &file) {
  if (llvm::Error e = checkRegularFile(path))
    return std::move(e);
  errno = 0;
  file = gzopen(path.c_str(), "rb");
  if (!file)
    return idxError(errno ? std::strerror(errno) : "cannot open file");
  std::vector<unsigned char> head(4);
  for (size_t have = 0;;) {
    int got = gzread(file, head.data() + have, unsigned(head.size() - have));
    if (got < 0)
      return idxError("cannot read it (corrupt gzip data?)");
    have += size_t(got);
    size_t want = modelsupport::idx::headerBytes(head.data(), have);
    if (size_t(got) == 0 || have >= want) {
      head.resize(have);
      break;
    }
    head.resize(want);
  }
  modelsupport::idx::Header parsed;
  size_t at = 0;
  std::string err =
      modelsupport::idx::parseHeader(head.data(), head.size(), parsed, at);
  if (!err.empty())
    return at == modelsupport::idx::kNoByte
               ? idxError(err)
               : idxError("byte " + llvm::Twine(at) + ": " + err);
  IdxHeader h;
  h.typeCode = parsed.typeCode;
  h.dims = parsed.dims;
  return h;
}

/// The bytes `path` holds once inflated: its size for a plain file; for a
/// gzip file, the count of its inflated bytes (its trailer's size cannot be
/// trusted: a file of several members records only the last one's).
static llvm::Expected<uint64_t> inflatedSize(const std::string &path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  uint64_t size = uint64_t(in.tellg());
  unsigned char head[2] = {0, 0};
  in.seekg(0);
  in.read(reinterpret_cast<char *>(head), 2);
  if (!in || head[0] != 0x1f || head[1] != 0x8b)
    return size;
  gzFile f = gzopen(path.c_str(), "rb");
  GzCloser closer{f};
  if (!f)
    return idxError(std::strerror(errno));
  gzbuffer(f, 1 << 17);
  std::vector<char> buf(1 << 18);
  uint64_t total = 0;
  for (int n; (n = gzread(f, buf.data(), unsigned(buf.size()))) != 0; total += n)
    if (n < 0)
      return idxError("cannot read it (corrupt gzip data?)");
  return total;
}

llvm::Expected<IdxHeader> sema::readIdxHeader(const std::string &path) {
  gzFile f = nullptr;
  llvm::Expected<IdxHeader> h = openIdx(path, f);
  GzCloser closer{f};
  return h;
}

llvm::Error sema::checkIdxSize(const std::string &path,
                               const IdxHeader &header) {
  modelsupport::idx::Header h;
  h.typeCode = header.typeCode;
  h.dims = header.dims;
  h.dataStart = 4 + 4 * header.dims.size();
  llvm::Expected<uint64_t> size = inflatedSize(path);
  if (!size)
    return size.takeError();
  size_t at = 0;
  std::string err = modelsupport::idx::checkSize(h, *size, at);
  if (err.empty())
    return llvm::Error::success();
  return at == modelsupport::idx::kNoByte
             ? idxError(err)
             : idxError("byte " + llvm::Twine(at) + ": " + err);
}

/// Whether an IDX file of `header` holds class indices: 1-D integers.
static bool holdsClassIndices(const IdxHeader &header) {
  return header.dims.size() == 1 &&
         !modelsupport::idx::isFloat(header.typeCode);
}

/// Decodes one big-endian integer label of `size` bytes (IDX `code`).
static int64_t decodeLabel(const unsigned char *p, unsigned size,
                           unsigned code) {
  if (size == 1)
    return code == 0x09 ? int8_t(p[0]) : p[0];
  if (size == 2)
    return int16_t(uint16_t((p[0] << 8) | p[1]));
  return int32_t((uint32_t(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3]);
}

/// Scans a 1-D integer IDX label file; returns the largest label.
static llvm::Expected<int64_t> scanClassIndices(const std::string &path,
                                                const IdxHeader &header) {
  gzFile f = nullptr;
  llvm::Expected<IdxHeader> h = openIdx(path, f);
  GzCloser closer{f};
  if (!h)
    return h.takeError();
  unsigned size = modelsupport::idx::elemSize(header.typeCode);
  int64_t count = header.dims[0], maxLabel = -1;
  std::vector<unsigned char> buf(1 << 16);
  for (int64_t done = 0; done < count;) {
    int64_t want = std::min<int64_t>(count - done, buf.size() / size);
    if (gzread(f, buf.data(), unsigned(want * size)) != int(want * size))
      return idxError("label file is shorter than its header says");
    for (int64_t i = 0; i < want; ++i) {
      int64_t v = decodeLabel(&buf[i * size], size, header.typeCode);
      if (v < 0)
        return idxError("negative label " + llvm::Twine(v));
      maxLabel = std::max(maxLabel, v);
    }
    done += want;
  }
  return maxLabel;
}

const char *sema::idxTypeName(unsigned code) {
  const char *name = modelsupport::idx::elemName(code);
  return code == kNpyInt64Code ? "i64" : name ? name : "?";
}

/// The f32 targets of a label file of `header` that holds no class indices.
static llvm::Expected<SplitLabels> targetLabels(const std::string &path,
                                                const IdxHeader &header) {
  SplitLabels labels;
  labels.type = DType::F32;
  int64_t elements = 1;
  for (size_t i = 1; i < header.dims.size(); ++i) {
    labels.shape.push_back(SDim::fixed(header.dims[i]));
    elements *= header.dims[i];
    if (elements > modelsupport::kMaxTensorElements)
      return idxError("its samples have more than 2^31 elements each, the "
                      "limit for one tensor");
  }
  std::vector<SDim> dims;
  for (int64_t d : header.dims)
    dims.push_back(SDim::fixed(d));
  labels.note = "'" + path + "' holds " + idxTypeName(header.typeCode) +
                " values of shape " + shapeStr(dims) +
                ", so its labels are " + labels.describe() +
                ", not class indices (those are a 1-D file of integers)";
  return labels;
}

llvm::Expected<SplitLabels> sema::readIdxLabels(const std::string &path,
                                                const IdxHeader &header) {
  if (!holdsClassIndices(header))
    return targetLabels(path, header);
  llvm::Expected<int64_t> maxLabel = scanClassIndices(path, header);
  if (!maxLabel)
    return maxLabel.takeError();
  SplitLabels labels;
  labels.maxLabel = *maxLabel;
  return labels;
}

namespace {
/// An NPY file's header, read with modelsupport/Npy.h, and its size.
struct NpyFile {
  modelsupport::npy::Header header;
  uint64_t size = 0;
};
} // namespace

/// Reads the header of NPY file `path` and checks the file's length.
static llvm::Expected<NpyFile> openNpy(const std::string &path) {
  if (llvm::Error e = checkRegularFile(path))
    return std::move(e);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return idxError("cannot open file");
  std::vector<unsigned char> head(12);
  in.read(reinterpret_cast<char *>(head.data()), 12);
  head.resize(size_t(in.gcount()));
  size_t want = modelsupport::npy::headerBytes(head.data(), head.size());
  if (want > (1u << 20))
    return idxError("NPY header of " + llvm::Twine(uint64_t(want)) + " bytes (at most 1 MiB)");
  if (want > head.size()) { // the rest of the header; parseHeader reports a short one
    size_t have = head.size();
    head.resize(want);
    in.read(reinterpret_cast<char *>(head.data()) + have, std::streamsize(want - have));
    head.resize(have + size_t(std::max<std::streamsize>(in.gcount(), 0)));
  }
  NpyFile f;
  size_t at = 0;
  std::string err = modelsupport::npy::parseHeader(head.data(), head.size(), f.header, at);
  if (!err.empty())
    return at == modelsupport::npy::kNoByte ? idxError(err)
                                            : idxError("byte " + llvm::Twine(uint64_t(at)) +
                                                       ": " + err);
  struct stat st;
  f.size = ::stat(path.c_str(), &st) == 0 ? uint64_t(st.st_size) : 0;
  uint64_t need = modelsupport::npy::elemSize(f.header.elem);
  for (int64_t d : f.header.shape) {
    if (d <= 0)
      return idxError("NPY array of shape with an empty dimension");
    if (need > (uint64_t(1) << 62) / uint64_t(d))
      return idxError("NPY shape too large");
    need *= uint64_t(d);
  }
  if (f.size != f.header.dataStart + need)
    return idxError("the file holds " + llvm::Twine(f.size - f.header.dataStart) +
                    " data bytes but its header's shape needs " + llvm::Twine(need));
  return f;
}

/// The IdxHeader type code of NPY element type `e`.
static unsigned npyTypeCode(modelsupport::npy::Elem e) {
  using modelsupport::npy::Elem;
  return e == Elem::F32   ? 0x0D
         : e == Elem::F64 ? 0x0E
         : e == Elem::I32 ? 0x0C
         : e == Elem::U8  ? 0x08
                          : kNpyInt64Code;
}

llvm::Expected<IdxHeader> sema::readNpyHeader(const std::string &path) {
  llvm::Expected<NpyFile> f = openNpy(path);
  if (!f)
    return f.takeError();
  if (f->header.shape.empty())
    return idxError("a scalar NPY array holds no samples");
  IdxHeader h;
  h.typeCode = npyTypeCode(f->header.elem);
  h.dims = f->header.shape;
  return h;
}

/// Reads the 1-D integer NPY file `path` of `header` and calls
/// `visit(index, value)` for each element until it returns an error.
static llvm::Error
forEachNpyInteger(const std::string &path, const IdxHeader &header,
                  llvm::function_ref<llvm::Error(int64_t, int64_t)> visit) {
  llvm::Expected<NpyFile> f = openNpy(path);
  if (!f)
    return f.takeError();
  std::ifstream in(path, std::ios::binary);
  in.seekg(std::streamoff(f->header.dataStart));
  unsigned size = modelsupport::npy::elemSize(f->header.elem);
  std::vector<unsigned char> buf(size_t(header.dims[0]) * size);
  in.read(reinterpret_cast<char *>(buf.data()), std::streamsize(buf.size()));
  for (int64_t i = 0; i < header.dims[0]; ++i) {
    const unsigned char *p = &buf[size_t(i) * size];
    int64_t v = 0;
    if (size == 1)
      v = p[0];
    else if (size == 4)
      v = int32_t(uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
                  uint32_t(p[3]) << 24);
    else
      std::memcpy(&v, p, 8); // little-endian, as the host
    if (llvm::Error e = visit(i, v))
      return e;
  }
  return llvm::Error::success();
}

llvm::Expected<SplitLabels> sema::readNpyLabels(const std::string &path,
                                                const IdxHeader &header) {
  if (!holdsClassIndices(header))
    return targetLabels(path, header);
  SplitLabels labels;
  if (llvm::Error e = forEachNpyInteger(
          path, header, [&](int64_t i, int64_t v) -> llvm::Error {
            if (v < 0)
              return idxError("negative label " + llvm::Twine(v) + " (sample " +
                              llvm::Twine(i) + ")");
            labels.maxLabel = std::max(labels.maxLabel, v);
            return llvm::Error::success();
          }))
    return std::move(e);
  return labels;
}

llvm::Expected<int64_t> sema::scanNpyTokens(const std::string &path,
                                            const IdxHeader &header) {
  int64_t maxId = -1;
  if (llvm::Error e = forEachNpyInteger(
          path, header, [&](int64_t i, int64_t v) -> llvm::Error {
            if (v < 0)
              return idxError("negative token id " + llvm::Twine(v) +
                              " at position " + llvm::Twine(i));
            maxId = std::max(maxId, v);
            return llvm::Error::success();
          }))
    return std::move(e);
  return maxId;
}
