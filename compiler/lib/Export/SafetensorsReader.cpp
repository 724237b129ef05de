//===- SafetensorsReader.cpp - Reading a checkpoint's tensors --------------===//
//
// Parses a safetensors file: u64 header length, JSON header (tensors and
// `__metadata__`), packed data. Every tensor's offsets are checked against
// the data section and against its shape and dtype.
//
//===----------------------------------------------------------------------===//
#include "modelc/Export/Safetensors.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace modelc;

/// Bytes per element of a safetensors dtype, 0 for an unknown one.
static int64_t elementBytes(llvm::StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases({"F64", "I64"}, 8)
      .Cases({"F32", "I32"}, 4)
      .Case("U8", 1)
      .Default(0);
}

static llvm::Error fail(llvm::StringRef path, const llvm::Twine &what) {
  return llvm::createStringError(path + ": " + what);
}

/// Reads one tensor entry `{"dtype":..,"shape":[..],"data_offsets":[b,e]}`.
static llvm::Error readTensor(llvm::StringRef path, llvm::StringRef name,
                              const llvm::json::Object &entry,
                              llvm::StringRef data, StoredTensor &t) {
  std::optional<llvm::StringRef> dtype = entry.getString("dtype");
  const llvm::json::Array *shape = entry.getArray("shape");
  const llvm::json::Array *offsets = entry.getArray("data_offsets");
  if (!dtype || !shape || !offsets || offsets->size() != 2)
    return fail(path, "tensor '" + name + "' has a malformed header entry");
  int64_t size = elementBytes(*dtype);
  if (!size)
    return fail(path, "tensor '" + name + "' has unsupported dtype " + *dtype);
  t.dtype = dtype->str();
  for (const llvm::json::Value &d : *shape) {
    std::optional<int64_t> n = d.getAsInteger();
    if (!n || *n < 0)
      return fail(path, "tensor '" + name + "' has a malformed shape");
    t.shape.push_back(*n);
    size *= *n;
  }
  std::optional<int64_t> begin = (*offsets)[0].getAsInteger();
  std::optional<int64_t> end = (*offsets)[1].getAsInteger();
  if (!begin || !end || *begin < 0 || *end < *begin ||
      uint64_t(*end) > data.size())
    return fail(path, "tensor '" + name + "' lies outside the file's data");
  if (*end - *begin != size)
    return fail(path, "tensor '" + name + "' holds " +
                          llvm::Twine(*end - *begin) + " bytes, its shape " +
                          "and dtype need " + llvm::Twine(size));
  t.bytes = data.substr(*begin, size).str();
  return llvm::Error::success();
}

llvm::Expected<SafetensorsContents> modelc::readSafetensors(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail(path, "cannot read the checkpoint: " + buffer.getError().message());
  llvm::StringRef file = (*buffer)->getBuffer();
  if (file.size() < 8)
    return fail(path, "not a safetensors checkpoint (too short)");
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i)
    n = (n << 8) | uint8_t(file[i]);
  if (n > file.size() - 8)
    return fail(path, "not a safetensors checkpoint (header length " +
                          llvm::Twine(n) + " exceeds the file)");
  llvm::Expected<llvm::json::Value> header =
      llvm::json::parse(file.substr(8, n));
  if (!header)
    return fail(path, "malformed safetensors header: " +
                          llvm::toString(header.takeError()));
  const llvm::json::Object *top = header->getAsObject();
  if (!top)
    return fail(path, "malformed safetensors header: not a JSON object");
  SafetensorsContents out;
  llvm::StringRef data = file.substr(8 + n);
  for (const auto &[key, value] : *top) {
    const llvm::json::Object *entry = value.getAsObject();
    if (!entry)
      return fail(path, "header entry '" + key.str() + "' is not an object");
    if (key == "__metadata__") {
      for (const auto &[k, v] : *entry)
        if (std::optional<llvm::StringRef> s = v.getAsString())
          out.metadata[k.str()] = s->str();
      continue;
    }
    if (llvm::Error e = readTensor(path, key, *entry, data,
                                   out.tensors[key.str()]))
      return std::move(e);
  }
  return out;
}
