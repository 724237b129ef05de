//===- CsvReader.cpp - CSV reader with a header row ------------------------===//
//
// Fields are comma-separated; a field may be double-quoted (with "" for a
// quote) but may not span lines. Blank lines are skipped. Errors name
// file:line:column where column is the 1-based character position of the
// field's first character.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace modelrt {
namespace {

struct Field {
  std::string text;
  size_t column; // 1-based character column
};

/// Splits one CSV line into fields; false on an unterminated quote.
bool splitCsvLine(const std::string &line, std::vector<Field> &fields, size_t &errColumn) {
  fields.clear();
  size_t i = 0;
  while (true) {
    Field f{"", i + 1};
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) {
          errColumn = f.column;
          return false;
        }
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            f.text += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        f.text += line[i++];
      }
      while (i < line.size() && line[i] != ',')
        f.text += line[i++];
    } else {
      while (i < line.size() && line[i] != ',')
        f.text += line[i++];
    }
    fields.push_back(f);
    if (i >= line.size())
      return true;
    ++i; // skip the comma
  }
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// Parses \p text as \p dtype; false when it is not a complete number.
bool parseNumber(const std::string &raw, DType dtype, double &out) {
  std::string text = trim(raw);
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  if (dtype == DType::I64 || dtype == DType::I32) {
    long long v = std::strtoll(text.c_str(), &end, 10);
    out = static_cast<double>(v);
  } else {
    out = std::strtod(text.c_str(), &end);
  }
  return errno == 0 && end && *end == '\0';
}

} // namespace

/// Resolves the requested column names against the header.
static Status resolveColumns(const std::string &path, const std::vector<Field> &header,
                             std::vector<CsvColumn> &columns, const std::string &labelColumn,
                             std::vector<size_t> &indices, long &labelIndex) {
  auto find = [&](const std::string &name) -> long {
    for (size_t i = 0; i < header.size(); ++i)
      if (trim(header[i].text) == name)
        return static_cast<long>(i);
    return -1;
  };
  labelIndex = -1;
  if (!labelColumn.empty() && (labelIndex = find(labelColumn)) < 0)
    return errorf("%s:1: label column '%s' not found in the header", path.c_str(),
                  labelColumn.c_str());
  if (columns.empty())
    for (size_t i = 0; i < header.size(); ++i)
      if (static_cast<long>(i) != labelIndex)
        columns.push_back({trim(header[i].text), DType::F32});
  for (const CsvColumn &c : columns) {
    long idx = find(c.name);
    if (idx < 0)
      return errorf("%s:1: column '%s' not found in the header", path.c_str(), c.name.c_str());
    indices.push_back(static_cast<size_t>(idx));
  }
  return Status::ok();
}

Expected<CsvTable> readCsv(const std::string &path, const std::vector<CsvColumn> &requested,
                           const std::string &labelColumn, DType labelDType) {
  std::ifstream in(path);
  if (!in)
    return errorf("%s: cannot open", path.c_str());
  std::string line;
  std::vector<Field> fields;
  size_t errCol = 0, lineNo = 0;
  auto nextLine = [&]() {
    while (std::getline(in, line)) {
      ++lineNo;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      if (!trim(line).empty())
        return true;
    }
    return false;
  };
  if (!nextLine())
    return errorf("%s: empty file, expected a header row", path.c_str());
  if (!splitCsvLine(line, fields, errCol))
    return errorf("%s:%zu:%zu: unterminated quoted field", path.c_str(), lineNo, errCol);
  std::vector<Field> header = fields;
  std::vector<CsvColumn> columns = requested;
  std::vector<size_t> indices;
  long labelIndex;
  MODELRT_TRY(resolveColumns(path, header, columns, labelColumn, indices, labelIndex));

  std::vector<float> inputs;
  std::vector<double> labels;
  int64_t rows = 0;
  while (nextLine()) {
    if (!splitCsvLine(line, fields, errCol))
      return errorf("%s:%zu:%zu: unterminated quoted field", path.c_str(), lineNo, errCol);
    if (fields.size() != header.size())
      return errorf("%s:%zu:%zu: expected %zu fields (as in the header), found %zu",
                    path.c_str(), lineNo, fields.size() < header.size() ? line.size() + 1
                                                                       : fields[header.size()].column,
                    header.size(), fields.size());
    for (size_t c = 0; c < columns.size(); ++c) {
      const Field &f = fields[indices[c]];
      double v;
      if (!parseNumber(f.text, columns[c].dtype, v))
        return errorf("%s:%zu:%zu: column '%s': '%s' is not a valid %s", path.c_str(), lineNo,
                      f.column, columns[c].name.c_str(), f.text.c_str(),
                      dtypeName(columns[c].dtype));
      inputs.push_back(static_cast<float>(v));
    }
    if (labelIndex >= 0) {
      const Field &f = fields[static_cast<size_t>(labelIndex)];
      double v;
      if (!parseNumber(f.text, labelDType, v))
        return errorf("%s:%zu:%zu: label column '%s': '%s' is not a valid %s", path.c_str(),
                      lineNo, f.column, labelColumn.c_str(), f.text.c_str(),
                      dtypeName(labelDType));
      labels.push_back(v);
    }
    ++rows;
  }
  if (rows == 0)
    return errorf("%s: no data rows after the header", path.c_str());
  CsvTable table;
  table.inputs = Tensor(DType::F32, {rows, static_cast<int64_t>(columns.size())});
  std::copy(inputs.begin(), inputs.end(), table.inputs.as<float>());
  if (labelIndex >= 0) {
    Tensor l(DType::F64, {rows});
    std::copy(labels.begin(), labels.end(), l.as<double>());
    table.labels = l.convertTo(labelDType);
  }
  return table;
}

} // namespace modelrt
