//===- Json.cpp - A small JSON reader and string quoting -------------------===//
#include "modelrt/io/Json.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace modelrt {

const JsonValue *JsonValue::find(const std::string &key) const {
  for (const auto &[k, v] : members)
    if (k == key)
      return &v;
  return nullptr;
}

bool JsonValue::isIndex() const {
  return kind == Kind::Number && number >= 0 && number <= 9007199254740992.0 &&
         std::floor(number) == number;
}

namespace {
/// Recursive-descent parser over one string.
struct Parser {
  const std::string &s;
  const std::string &what;
  size_t pos = 0;
  int depth = 0;
  Status err = Status::ok();

  bool fail(const char *msg) {
    if (err.isOk())
      err = errorf("%s: byte %zu: %s", what.c_str(), pos, msg);
    return false;
  }
  void skipSpace() {
    while (pos < s.size() && std::strchr(" \t\r\n", s[pos]) && s[pos])
      ++pos;
  }
  bool literal(const char *word) {
    size_t n = std::strlen(word);
    if (s.compare(pos, n, word) != 0)
      return fail("invalid literal");
    pos += n;
    return true;
  }
  bool hex4(unsigned &out) {
    if (s.size() - pos < 4)
      return fail("truncated \\u escape");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s[pos++];
      int d = std::isxdigit((unsigned char)c) ? (std::isdigit((unsigned char)c) ? c - '0'
                                                                               : (c | 32) - 'a' + 10)
                                              : -1;
      if (d < 0)
        return fail("bad hex digit in \\u escape");
      out = out * 16 + unsigned(d);
    }
    return true;
  }
  static void appendUtf8(std::string &o, unsigned cp) {
    if (cp < 0x80) {
      o += char(cp);
    } else if (cp < 0x800) {
      o += char(0xC0 | (cp >> 6)), o += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      o += char(0xE0 | (cp >> 12)), o += char(0x80 | ((cp >> 6) & 0x3F));
      o += char(0x80 | (cp & 0x3F));
    } else {
      o += char(0xF0 | (cp >> 18)), o += char(0x80 | ((cp >> 12) & 0x3F));
      o += char(0x80 | ((cp >> 6) & 0x3F)), o += char(0x80 | (cp & 0x3F));
    }
  }
  bool escape(std::string &o) {
    if (pos >= s.size())
      return fail("unterminated string");
    char c = s[pos++];
    static const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
    if (const char *p = std::strchr(from, c); p && c) {
      o += to[p - from];
      return true;
    }
    if (c != 'u')
      return fail("bad escape in string");
    unsigned cp;
    if (!hex4(cp))
      return false;
    if (cp >= 0xD800 && cp < 0xDC00 && s.compare(pos, 2, "\\u") == 0) {
      unsigned lo;
      pos += 2;
      if (!hex4(lo))
        return false;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    appendUtf8(o, cp);
    return true;
  }
  bool string(std::string &o) {
    ++pos; // opening quote
    while (true) {
      if (pos >= s.size())
        return fail("unterminated string");
      char c = s[pos++];
      if (c == '"')
        return true;
      if ((unsigned char)c < 0x20)
        return fail("control character in string");
      if (c != '\\')
        o += c;
      else if (!escape(o))
        return false;
    }
  }
  bool number(JsonValue &v) {
    size_t start = pos;
    while (pos < s.size() && std::strchr("+-0123456789.eE", s[pos]) && s[pos])
      ++pos;
    v.kind = JsonValue::Kind::Number;
    v.text = s.substr(start, pos - start);
    char *end = nullptr;
    v.number = std::strtod(v.text.c_str(), &end);
    if (v.text.empty() || *end)
      return pos = start, fail("invalid number");
    return true;
  }
  bool value(JsonValue &v);
  bool array(JsonValue &v) {
    v.kind = JsonValue::Kind::Array;
    ++pos;
    skipSpace();
    if (pos < s.size() && s[pos] == ']')
      return ++pos, true;
    while (true) {
      v.items.emplace_back();
      if (!value(v.items.back()))
        return false;
      skipSpace();
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < s.size() && s[pos] == ']')
        return ++pos, true;
      return fail("expected ',' or ']'");
    }
  }
  bool object(JsonValue &v) {
    v.kind = JsonValue::Kind::Object;
    ++pos;
    skipSpace();
    if (pos < s.size() && s[pos] == '}')
      return ++pos, true;
    while (true) {
      skipSpace();
      if (pos >= s.size() || s[pos] != '"')
        return fail("expected a member name");
      std::string key;
      if (!string(key))
        return false;
      if (v.find(key))
        return fail(("duplicate member '" + key + "'").c_str());
      skipSpace();
      if (pos >= s.size() || s[pos] != ':')
        return fail("expected ':'");
      ++pos;
      v.members.emplace_back(std::move(key), JsonValue());
      if (!value(v.members.back().second))
        return false;
      skipSpace();
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < s.size() && s[pos] == '}')
        return ++pos, true;
      return fail("expected ',' or '}'");
    }
  }
};

bool Parser::value(JsonValue &v) {
  skipSpace();
  if (pos >= s.size())
    return fail("unexpected end of input");
  if (++depth > 64)
    return fail("nesting too deep");
  bool ok;
  switch (s[pos]) {
  case '{': ok = object(v); break;
  case '[': ok = array(v); break;
  case '"': v.kind = JsonValue::Kind::String; ok = string(v.text); break;
  case 't': v.kind = JsonValue::Kind::Bool, v.boolean = true; ok = literal("true"); break;
  case 'f': v.kind = JsonValue::Kind::Bool; ok = literal("false"); break;
  case 'n': ok = literal("null"); break;
  default: ok = number(v);
  }
  --depth;
  return ok;
}
} // namespace

Expected<JsonValue> parseJson(const std::string &text, const std::string &what) {
  Parser p{text, what};
  JsonValue v;
  if (p.value(v)) {
    p.skipSpace();
    if (p.pos != text.size())
      p.fail("unexpected data after the JSON value");
  }
  if (!p.err.isOk())
    return p.err;
  return v;
}

std::string jsonQuote(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\', o += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += char(c);
    }
  }
  return o + "\"";
}

} // namespace modelrt
