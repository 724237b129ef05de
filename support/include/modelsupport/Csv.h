//===- Csv.h - The CSV tokenizer of the compiler and the runtime -*- C++ -*-===//
//
// One set of CSV rules for both readers of a table: Sema (which types a
// `csv(...)` data split and computes `standardize` statistics at compile
// time) and the runtime's readCsv (which loads the rows). Rules:
//   - a leading UTF-8 byte-order mark is skipped;
//   - lines end in LF or CRLF; lines holding only spaces and tabs are skipped;
//   - fields are separated by commas; a field that starts with a double
//     quote is quoted: commas inside it are text and "" stands for one
//     quote; text after the closing quote, up to the next comma, is kept;
//   - a quoted field may not span lines (an unterminated quote is an error
//     at the field's line and column);
//   - a NUL byte anywhere in a line is an error at its line and column;
//   - every data row has as many fields as the header;
//   - numbers are a whole field, spaces and tabs around it trimmed, read by
//     strtod / strtoll; a label column is one of class indices when its
//     first row's label is integer text (optional sign, digits), and then
//     every label must be a non-negative integer that fits in 64 bits.
// Columns are 1-based byte positions within the line (after the BOM on the
// first line). Plain C++17; no file access, no error formatting: callers
// read the file and word their own messages.
//
//===----------------------------------------------------------------------===//

#ifndef MODELSUPPORT_CSV_H
#define MODELSUPPORT_CSV_H

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace modelsupport::csv {

/// One field of a record: its text (quotes removed, "" unescaped) and the
/// 1-based byte column of its first character.
struct Field {
  std::string text;
  size_t column = 1;
};

/// `s` without the spaces and tabs at either end.
inline std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string_view::npos ? std::string_view()
                                     : s.substr(b, e - b + 1);
}

/// Reads the rest of a quoted field starting at `line[i] == '"'` into
/// `text`; advances `i` past the field. False when the quote never closes.
inline bool readQuoted(std::string_view line, size_t &i, std::string &text) {
  for (++i;; ++i) {
    if (i >= line.size())
      return false;
    if (line[i] != '"') {
      text += line[i];
      continue;
    }
    if (i + 1 < line.size() && line[i + 1] == '"') {
      text += '"';
      ++i;
      continue;
    }
    ++i;
    return true;
  }
}

/// Splits one line (without its line ending) into `fields`. Returns false
/// on a NUL byte or an unterminated quoted field and sets `errorColumn` to
/// its column; splitError names the fault.
inline bool splitLine(std::string_view line, std::vector<Field> &fields,
                      size_t &errorColumn) {
  fields.clear();
  if (size_t nul = line.find('\0'); nul != std::string_view::npos) {
    errorColumn = nul + 1;
    return false;
  }
  size_t i = 0;
  while (true) {
    Field f{"", i + 1};
    if (i < line.size() && line[i] == '"' && !readQuoted(line, i, f.text)) {
      errorColumn = f.column;
      return false;
    }
    while (i < line.size() && line[i] != ',')
      f.text += line[i++];
    fields.push_back(std::move(f));
    if (i >= line.size())
      return true;
    ++i; // the comma
  }
}

/// What made splitLine(line, ...) fail at `errorColumn`.
inline const char *splitError(std::string_view line, size_t errorColumn) {
  return errorColumn <= line.size() && line[errorColumn - 1] == '\0'
             ? "NUL byte in a CSV file"
             : "unterminated quoted field";
}

/// The column to report for a data row of `fields` (read from `line`) that
/// does not have the header's `numFields` fields: the first extra field, or
/// the end of a short line.
inline size_t fieldCountColumn(const std::vector<Field> &fields,
                               std::string_view line, size_t numFields) {
  return fields.size() < numFields ? line.size() + 1 : fields[numFields].column;
}

/// The trimmed texts of `fields` (a header row's column names).
inline std::vector<std::string> names(const std::vector<Field> &fields) {
  std::vector<std::string> out;
  for (const Field &f : fields)
    out.emplace_back(trim(f.text));
  return out;
}

/// Index of `name` in `names`, or -1.
inline long find(const std::vector<std::string> &names, std::string_view name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return static_cast<long>(i);
  return -1;
}

/// Parses a whole (trimmed) field as a decimal floating-point number (or
/// inf/nan, which readers refuse by name); hexadecimal text such as 0x10,
/// which strtod would take, is not a number here, as in numpy and pandas.
inline bool parseDouble(std::string_view field, double &out) {
  std::string text(trim(field));
  if (text.empty() || text.find_first_of("xX") != std::string::npos)
    return false;
  char *end = nullptr;
  errno = 0;
  out = std::strtod(text.c_str(), &end);
  return errno == 0 && end == text.c_str() + text.size();
}

/// Parses a whole (trimmed) field as a base-10 integer.
inline bool parseInteger(std::string_view field, long long &out) {
  std::string text(trim(field));
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  out = std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && end == text.c_str() + text.size();
}

/// Whether a (trimmed) field is integer text: an optional sign, then
/// decimal digits (which may not fit in 64 bits).
inline bool isIntegerText(std::string_view field) {
  std::string_view t = trim(field);
  if (!t.empty() && (t[0] == '-' || t[0] == '+'))
    t.remove_prefix(1);
  return !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos;
}

/// Why `field` is not a class index (a non-negative 64-bit integer), or
/// nullptr when it is one, stored in `out`.
inline const char *classIndexError(std::string_view field, long long &out) {
  if (!isIntegerText(field))
    return "is not an integer class index";
  if (!parseInteger(field, out))
    return "is out of range for a class index (64-bit)";
  if (out < 0)
    return "is a negative class index";
  return nullptr;
}

/// The non-blank lines of a CSV text, in order, with their 1-based line
/// numbers: skips a leading UTF-8 BOM, drops the CR of CRLF endings, skips
/// lines of only spaces and tabs. The text must outlive the reader.
class LineReader {
public:
  explicit LineReader(std::string_view text) : rest(text) {
    if (rest.substr(0, 3) == "\xEF\xBB\xBF")
      rest.remove_prefix(3);
  }

  /// Moves to the next non-blank line; false at the end of the text.
  bool next() {
    while (!rest.empty()) {
      size_t nl = rest.find('\n');
      current = rest.substr(0, nl);
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
      ++number;
      if (!current.empty() && current.back() == '\r')
        current.remove_suffix(1);
      if (!trim(current).empty())
        return true;
    }
    current = {};
    return false;
  }
  /// The current line, without its line ending.
  std::string_view line() const { return current; }
  /// The current line's 1-based number in the text.
  size_t lineNumber() const { return number; }

private:
  std::string_view rest, current;
  size_t number = 0;
};

} // namespace modelsupport::csv

#endif // MODELSUPPORT_CSV_H
