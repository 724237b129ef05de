//===- Json.h - A small JSON reader and string quoting ---------------------===//
//
// Implements the JSON subset the runtime reads (safetensors headers, test
// fixtures): objects (member order kept), arrays, strings with escapes
// (\uXXXX as UTF-8), numbers, true/false/null. Errors name the byte offset.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_JSON_H
#define MODELRT_IO_JSON_H

#include "modelrt/core/Status.h"

#include <string>
#include <utility>
#include <vector>

namespace modelrt {

/// One parsed JSON value.
struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;  ///< a String's value, or a Number's source token
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  /// The member named \p key of an object, or null when absent.
  const JsonValue *find(const std::string &key) const;
  /// True for a Number holding an integer in [0, 2^53].
  bool isIndex() const;
};

/// Parses \p text as one JSON value; errors read "WHAT: byte N: ...".
Expected<JsonValue> parseJson(const std::string &text, const std::string &what);

/// \p s as a JSON string literal, with quotes and escapes.
std::string jsonQuote(const std::string &s);

} // namespace modelrt

#endif // MODELRT_IO_JSON_H
