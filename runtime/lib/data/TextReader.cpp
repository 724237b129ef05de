//===- TextReader.cpp - Text files as token ids ----------------------------===//
//
// readTextTokens (Readers.h): the whole file is read (statDataFile's checks
// first), then turned into ids by modelsupport/Text.h's rules, the ones
// the compiler built the vocabulary with.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include "modelsupport/Text.h"

namespace modelrt {

namespace txt = modelsupport::text;

/// "PATH: ... at byte O (line L, column C)" for the byte at \p offset.
static Status textError(const std::string &path, const std::vector<unsigned char> &bytes,
                        size_t offset, const std::string &what) {
  txt::Place p = txt::placeOf(bytes.data(), offset);
  return errorf("%s:%zu:%zu: %s (byte offset %zu)", path.c_str(), p.line, p.column,
                what.c_str(), p.offset);
}

/// One id per UTF-8 character: its index in \p vocab.
static Expected<Tensor> charTokens(const std::string &path,
                                   const std::vector<unsigned char> &bytes,
                                   const std::vector<uint32_t> &vocab) {
  std::vector<int64_t> ids;
  ids.reserve(bytes.size());
  for (size_t at = 0; at < bytes.size();) {
    size_t start = at;
    uint32_t cp = 0;
    if (!txt::decodeUtf8(bytes.data(), bytes.size(), at, cp)) {
      char what[64];
      std::snprintf(what, sizeof what, "invalid UTF-8: byte 0x%02X", unsigned(bytes[at]));
      return textError(path, bytes, at, what);
    }
    int64_t id = txt::idOf(vocab, cp);
    if (id < 0)
      return textError(path, bytes, start, "character " + txt::describeChar(cp) +
                                                " is not in the model's vocabulary of " +
                                                std::to_string(vocab.size()) + " characters");
    ids.push_back(id);
  }
  Tensor t(DType::I64, {int64_t(ids.size())});
  std::copy(ids.begin(), ids.end(), t.as<int64_t>());
  return t;
}

Expected<Tensor> readTextTokens(const std::string &path, const std::vector<uint32_t> &vocab) {
  auto bytes = readDataFile(path);
  if (!bytes)
    return bytes.status();
  if (bytes->empty())
    return errorf("%s: the text file is empty", path.c_str());
  if (!vocab.empty())
    return charTokens(path, *bytes, vocab);
  Tensor t(DType::I64, {int64_t(bytes->size())});
  std::copy(bytes->begin(), bytes->end(), t.as<int64_t>());
  return t;
}

} // namespace modelrt
