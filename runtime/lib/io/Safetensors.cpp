//===- Safetensors.cpp - The safetensors container -------------------------===//
#include "modelrt/io/Safetensors.h"

#include "modelrt/io/Json.h"

#include <algorithm>
#include <cstring>

namespace modelrt {

const std::string *SafetensorsFile::meta(const std::string &key) const {
  for (const auto &[k, v] : metadata)
    if (k == key)
      return &v;
  return nullptr;
}

const char *safetensorsDType(DType d) {
  switch (d) {
  case DType::F32: return "F32";
  case DType::F64: return "F64";
  case DType::I32: return "I32";
  case DType::I64: return "I64";
  case DType::U8: return "U8";
  }
  return "?";
}

static bool parseDType(const std::string &s, DType &out) {
  for (DType d : {DType::F32, DType::F64, DType::I32, DType::I64, DType::U8})
    if (s == safetensorsDType(d))
      return out = d, true;
  return false;
}

std::string encodeSafetensors(const SafetensorsFile &f) {
  std::string header = "{";
  uint64_t offset = 0;
  for (const auto &[name, t] : f.tensors) {
    header += jsonQuote(name) + ":{\"dtype\":\"" + safetensorsDType(t.dtype()) + "\",\"shape\":[";
    for (int64_t i = 0; i < t.rank(); ++i)
      header += (i ? "," : "") + std::to_string(t.dim(i));
    header += "],\"data_offsets\":[" + std::to_string(offset) + "," +
              std::to_string(offset + t.numBytes()) + "]},";
    offset += t.numBytes();
  }
  header += "\"__metadata__\":{";
  for (size_t i = 0; i < f.metadata.size(); ++i)
    header += (i ? "," : "") + jsonQuote(f.metadata[i].first) + ":" +
              jsonQuote(f.metadata[i].second);
  header += "}}";
  header.append((8 - header.size() % 8) % 8, ' ');
  uint64_t n = header.size();
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[i] = char((n >> (8 * i)) & 0xFF);
  out += header;
  out.reserve(out.size() + offset);
  for (const auto &entry : f.tensors)
    out.append(static_cast<const char *>(entry.second.data()), entry.second.numBytes());
  return out;
}

namespace {
/// One tensor entry of the header before its bytes are copied.
struct Entry {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

Status parseEntry(const std::string &name, const JsonValue &v, const std::string &path,
                  uint64_t dataSize, Entry &e) {
  const char *p = path.c_str(), *n = name.c_str();
  const JsonValue *dt = v.find("dtype"), *shape = v.find("shape"), *off = v.find("data_offsets");
  if (v.kind != JsonValue::Kind::Object || !dt || !shape || !off)
    return errorf("%s: tensor '%s' needs \"dtype\", \"shape\" and \"data_offsets\"", p, n);
  if (dt->kind != JsonValue::Kind::String || !parseDType(dt->text, e.dtype))
    return errorf("%s: tensor '%s': unsupported dtype %s (this runtime reads F32, F64, I32, "
                  "I64, U8)", p, n, dt->kind == JsonValue::Kind::String ? dt->text.c_str() : "?");
  if (shape->kind != JsonValue::Kind::Array || shape->items.size() > 16)
    return errorf("%s: tensor '%s': \"shape\" must be an array of at most 16 sizes", p, n);
  double elems = 1;
  for (const JsonValue &d : shape->items) {
    if (!d.isIndex())
      return errorf("%s: tensor '%s': shape entry '%s' is not a size", p, n, d.text.c_str());
    e.shape.push_back(int64_t(d.number));
    elems *= d.number;
  }
  if (off->kind != JsonValue::Kind::Array || off->items.size() != 2 || !off->items[0].isIndex() ||
      !off->items[1].isIndex())
    return errorf("%s: tensor '%s': \"data_offsets\" must be [begin, end]", p, n);
  e.name = name;
  e.begin = uint64_t(off->items[0].number), e.end = uint64_t(off->items[1].number);
  if (e.begin > e.end || e.end > dataSize)
    return errorf("%s: tensor '%s': data_offsets [%llu, %llu] outside the %llu data bytes", p, n,
                  (unsigned long long)e.begin, (unsigned long long)e.end,
                  (unsigned long long)dataSize);
  if (double(e.end - e.begin) != elems * double(dtypeSize(e.dtype)))
    return errorf("%s: tensor '%s': %llu data bytes for shape %s of %s", p, n,
                  (unsigned long long)(e.end - e.begin), shapeToString(e.shape).c_str(),
                  dt->text.c_str());
  return Status::ok();
}

Status parseMetadata(const JsonValue &v, const std::string &path, SafetensorsFile &f) {
  if (v.kind != JsonValue::Kind::Object)
    return errorf("%s: \"__metadata__\" must be an object", path.c_str());
  for (const auto &[k, s] : v.members) {
    if (s.kind != JsonValue::Kind::String)
      return errorf("%s: metadata '%s' must be a string", path.c_str(), k.c_str());
    f.metadata.emplace_back(k, s.text);
  }
  return Status::ok();
}
/// Checks that the tensors, sorted by offset, cover the data exactly.
Status checkTiling(const std::vector<Entry> &entries, uint64_t dataSize, const std::string &path) {
  std::vector<const Entry *> sorted;
  for (const Entry &e : entries)
    sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(),
            [](const Entry *a, const Entry *c) { return a->begin < c->begin; });
  uint64_t expect = 0;
  for (const Entry *e : sorted) {
    if (e->begin != expect)
      return errorf("%s: tensor '%s' starts at data byte %llu, expected %llu (overlap or hole)",
                    path.c_str(), e->name.c_str(), (unsigned long long)e->begin,
                    (unsigned long long)expect);
    expect = e->end;
  }
  if (expect != dataSize)
    return errorf("%s: %llu data bytes after the tensors' ends (%llu of %llu used)",
                  path.c_str(), (unsigned long long)(dataSize - expect),
                  (unsigned long long)expect, (unsigned long long)dataSize);
  return Status::ok();
}
} // namespace

uint64_t headerLength(const char *first8) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i)
    n = (n << 8) | (unsigned char)first8[i];
  return n;
}

Status checkHeaderLength(uint64_t n, uint64_t fileSize, const std::string &path) {
  if (n > fileSize - 8)
    return errorf("%s: byte 0: header length %llu exceeds the file (%llu bytes): truncated or "
                  "not a safetensors file",
                  path.c_str(), (unsigned long long)n, (unsigned long long)fileSize);
  if (n < 2)
    return errorf("%s: byte 0: header length %llu is too short for the JSON header: not a "
                  "safetensors file",
                  path.c_str(), (unsigned long long)n);
  return Status::ok();
}

Expected<SafetensorsFile> decodeSafetensors(const std::string &b, const std::string &path) {
  const char *p = path.c_str();
  if (b.size() < 8)
    return errorf("%s: truncated safetensors file: %zu bytes, the header length needs 8", p,
                  b.size());
  uint64_t n = headerLength(b.data());
  MODELRT_TRY(checkHeaderLength(n, b.size(), path));
  auto header = parseJson(b.substr(8, n), path + ": JSON header at byte 8");
  if (!header)
    return header.status();
  if (header->kind != JsonValue::Kind::Object)
    return errorf("%s: byte 8: the header is not a JSON object", p);
  uint64_t dataSize = b.size() - 8 - n;
  SafetensorsFile f;
  std::vector<Entry> entries;
  for (const auto &[name, v] : header->members) {
    if (name == "__metadata__") {
      MODELRT_TRY(parseMetadata(v, path, f));
      continue;
    }
    entries.emplace_back();
    MODELRT_TRY(parseEntry(name, v, path, dataSize, entries.back()));
  }
  MODELRT_TRY(checkTiling(entries, dataSize, path));
  const char *data = b.data() + 8 + n;
  for (const Entry &e : entries) {
    Tensor t(e.dtype, e.shape);
    std::memcpy(t.data(), data + e.begin, e.end - e.begin);
    f.tensors.emplace_back(e.name, std::move(t));
  }
  return f;
}

} // namespace modelrt
