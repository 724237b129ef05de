//===- CsvReader.cpp - CSV reader with a header row ------------------------===//
//
// Reads a whole CSV file and tokenizes it with the rules the compiler also
// uses (support/include/modelsupport/Csv.h: RFC-4180 quoting on one line, a
// UTF-8 BOM skipped, LF or CRLF, blank lines skipped). Errors name
// file:line:column where column is the 1-based byte position of the field's
// first character. One label column may hold class names, read as their
// index in the program's list of class names.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include "modelsupport/Csv.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace modelrt {
namespace {

using modelsupport::csv::Field;

/// Parses \p text as \p dtype; false when it is not a complete number.
bool parseNumber(const std::string &text, DType dtype, double &out) {
  if (dtype != DType::I64 && dtype != DType::I32)
    return modelsupport::csv::parseDouble(text, out);
  long long v;
  if (!modelsupport::csv::parseInteger(text, v))
    return false;
  out = static_cast<double>(v);
  return true;
}

} // namespace

/// The index of column \p name in \p header, which must name it once;
/// \p what names it in errors.
static Expected<size_t> findColumn(const std::string &path, const std::vector<std::string> &header,
                                   const std::string &name, const char *what) {
  long i = modelsupport::csv::find(header, name);
  if (i < 0)
    return errorf("%s:1: %s '%s' not found in the header", path.c_str(), what, name.c_str());
  auto same = std::count(header.begin(), header.end(), name);
  if (same > 1)
    return errorf("%s:1: %s '%s' appears %lld times in the header: columns are read by name, "
                  "so it must appear once", path.c_str(), what, name.c_str(), (long long)same);
  return static_cast<size_t>(i);
}

/// Resolves the requested column names against the header's names: the
/// label columns first, then the inputs (every other column, as
/// \p allDType, when none).
static Status resolveColumns(const std::string &path, const std::vector<std::string> &header,
                             std::vector<CsvColumn> &columns,
                             const std::vector<std::string> &labelColumns,
                             std::vector<size_t> &indices, std::vector<size_t> &labelIndices,
                             DType allDType) {
  for (const std::string &name : labelColumns) {
    auto i = findColumn(path, header, name, "label column");
    if (!i)
      return i.status();
    labelIndices.push_back(*i);
  }
  if (columns.empty())
    for (size_t i = 0; i < header.size(); ++i)
      if (std::find(labelIndices.begin(), labelIndices.end(), i) == labelIndices.end())
        columns.push_back({header[i], allDType});
  for (const CsvColumn &c : columns) {
    auto i = findColumn(path, header, c.name, "column");
    if (!i)
      return i.status();
    indices.push_back(*i);
  }
  return Status::ok();
}

namespace {
/// The rows of one CSV file as they are read: the selected columns, the
/// label, and where each number came from.
struct TableReader {
  const std::string &path;
  std::vector<CsvColumn> columns;
  std::vector<size_t> indices, labelIndices;
  std::vector<std::string> labelColumns;
  DType labelDType;
  const std::vector<std::string> &classNames;
  size_t numFields = 0;
  std::vector<float> inputs;
  std::vector<double> labels;
  int64_t rows = 0;

  /// Reads one field as `dtype`; `what` names its column in errors.
  Status number(const Field &f, size_t lineNo, const std::string &what, DType dtype,
                double &v) const {
    if (parseNumber(f.text, dtype, v))
      return Status::ok();
    return errorf("%s:%zu:%zu: %s: '%s' is not a valid %s", path.c_str(), lineNo, f.column,
                  what.c_str(), f.text.c_str(), dtypeName(dtype));
  }
  /// Reads one label field as the index of its class name.
  Status className(const Field &f, size_t lineNo, double &v) const {
    std::string_view text = modelsupport::csv::trim(f.text);
    auto it = std::find(classNames.begin(), classNames.end(), text);
    if (it != classNames.end()) {
      v = double(it - classNames.begin());
      return Status::ok();
    }
    std::string list;
    for (const std::string &n : classNames)
      list += (list.empty() ? "" : ", ") + n;
    return errorf("%s:%zu:%zu: label column '%s': '%s' is not one of the classes [%s]",
                  path.c_str(), lineNo, f.column, labelColumns[0].c_str(), f.text.c_str(),
                  list.c_str());
  }
  /// Adds the data row `fields` read from line `lineNo` (`line`).
  Status addRow(const std::vector<Field> &fields, std::string_view line, size_t lineNo) {
    if (fields.size() != numFields)
      return errorf("%s:%zu:%zu: expected %zu fields (as in the header), found %zu",
                    path.c_str(), lineNo,
                    modelsupport::csv::fieldCountColumn(fields, line, numFields),
                    numFields, fields.size());
    for (size_t c = 0; c < columns.size(); ++c) {
      double v = 0;
      MODELRT_TRY(number(fields[indices[c]], lineNo, "column '" + columns[c].name + "'",
                         columns[c].dtype, v));
      inputs.push_back(static_cast<float>(v));
    }
    for (size_t c = 0; c < labelIndices.size(); ++c) {
      double v = 0;
      if (!classNames.empty()) {
        MODELRT_TRY(className(fields[labelIndices[c]], lineNo, v));
        labels.push_back(v);
        continue;
      }
      MODELRT_TRY(number(fields[labelIndices[c]], lineNo,
                         "label column '" + labelColumns[c] + "'", labelDType, v));
      labels.push_back(v);
    }
    ++rows;
    return Status::ok();
  }

  /// The table of the rows added so far.
  CsvTable table() const {
    CsvTable t;
    t.inputs = Tensor(DType::F32, {rows, static_cast<int64_t>(columns.size())});
    std::copy(inputs.begin(), inputs.end(), t.inputs.as<float>());
    if (!labelIndices.empty()) {
      std::vector<int64_t> shape = {rows};
      if (labelIndices.size() > 1)
        shape.push_back(static_cast<int64_t>(labelIndices.size()));
      Tensor l(DType::F64, shape);
      std::copy(labels.begin(), labels.end(), l.as<double>());
      t.labels = l.convertTo(labelDType);
    }
    return t;
  }
};
} // namespace

Expected<CsvTable> readCsv(const std::string &path, const std::vector<CsvColumn> &requested,
                           const std::vector<std::string> &labelColumns, DType labelDType,
                           const std::vector<std::string> &classNames, DType allDType) {
  if (auto size = statDataFile(path); !size)
    return size.status();
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return errorf("%s: cannot open", path.c_str());
  std::stringstream text;
  text << in.rdbuf();
  std::string contents = text.str();
  modelsupport::csv::LineReader lines(contents);
  std::vector<Field> fields;
  size_t errCol = 0;
  auto split = [&]() -> Status {
    if (modelsupport::csv::splitLine(lines.line(), fields, errCol))
      return Status::ok();
    return errorf("%s:%zu:%zu: %s", path.c_str(), lines.lineNumber(), errCol,
                  modelsupport::csv::splitError(lines.line(), errCol));
  };
  if (!lines.next())
    return errorf("%s: empty file, expected a header row", path.c_str());
  MODELRT_TRY(split());
  if (!classNames.empty() && (labelColumns.size() != 1 || labelDType != DType::I64))
    return errorf("%s: class names need one label column of class indices", path.c_str());
  TableReader reader{path,       requested,     {}, {}, labelColumns, labelDType,
                     classNames, fields.size(), {}, {}, 0};
  MODELRT_TRY(resolveColumns(path, modelsupport::csv::names(fields), reader.columns, labelColumns,
                             reader.indices, reader.labelIndices, allDType));
  while (lines.next()) {
    MODELRT_TRY(split());
    MODELRT_TRY(reader.addRow(fields, lines.line(), lines.lineNumber()));
  }
  if (reader.rows == 0)
    return errorf("%s: no data rows after the header", path.c_str());
  return reader.table();
}

} // namespace modelrt
