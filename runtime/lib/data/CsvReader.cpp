//===- CsvReader.cpp - CSV reader with a header row ------------------------===//
//
// Reads a whole CSV file and tokenizes it with the rules the compiler also
// uses (support/include/modelsupport/Csv.h: RFC-4180 quoting on one line, a
// UTF-8 BOM skipped, LF or CRLF, blank lines skipped). Errors name
// file:line:column where column is the 1-based byte position of the field's
// first character.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include "modelsupport/Csv.h"

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

/// Resolves the requested column names against the header's names.
static Status resolveColumns(const std::string &path, const std::vector<std::string> &header,
                             std::vector<CsvColumn> &columns, const std::string &labelColumn,
                             std::vector<size_t> &indices, long &labelIndex) {
  labelIndex = -1;
  if (!labelColumn.empty() && (labelIndex = modelsupport::csv::find(header, labelColumn)) < 0)
    return errorf("%s:1: label column '%s' not found in the header", path.c_str(),
                  labelColumn.c_str());
  if (columns.empty())
    for (size_t i = 0; i < header.size(); ++i)
      if (static_cast<long>(i) != labelIndex)
        columns.push_back({header[i], DType::F32});
  for (const CsvColumn &c : columns) {
    long idx = modelsupport::csv::find(header, c.name);
    if (idx < 0)
      return errorf("%s:1: column '%s' not found in the header", path.c_str(), c.name.c_str());
    indices.push_back(static_cast<size_t>(idx));
  }
  return Status::ok();
}

namespace {
/// The rows of one CSV file as they are read: the selected columns, the
/// label, and where each number came from.
struct TableReader {
  const std::string &path;
  std::vector<CsvColumn> columns;
  std::vector<size_t> indices;
  long labelIndex = -1;
  std::string labelColumn;
  DType labelDType;
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
  /// Adds the data row `fields` read from line `lineNo` (`line`).
  Status addRow(const std::vector<Field> &fields, std::string_view line, size_t lineNo) {
    if (fields.size() != numFields)
      return errorf("%s:%zu:%zu: expected %zu fields (as in the header), found %zu",
                    path.c_str(), lineNo,
                    modelsupport::csv::fieldCountColumn(fields, line, numFields),
                    numFields, fields.size());
    for (size_t c = 0; c < columns.size(); ++c) {
      double v;
      MODELRT_TRY(number(fields[indices[c]], lineNo, "column '" + columns[c].name + "'",
                         columns[c].dtype, v));
      inputs.push_back(static_cast<float>(v));
    }
    if (labelIndex >= 0) {
      double v;
      MODELRT_TRY(number(fields[static_cast<size_t>(labelIndex)], lineNo,
                         "label column '" + labelColumn + "'", labelDType, v));
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
    if (labelIndex >= 0) {
      Tensor l(DType::F64, {rows});
      std::copy(labels.begin(), labels.end(), l.as<double>());
      t.labels = l.convertTo(labelDType);
    }
    return t;
  }
};
} // namespace

Expected<CsvTable> readCsv(const std::string &path, const std::vector<CsvColumn> &requested,
                           const std::string &labelColumn, DType labelDType) {
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
  TableReader reader{path, requested, {}, -1, labelColumn, labelDType, fields.size()};
  MODELRT_TRY(resolveColumns(path, modelsupport::csv::names(fields), reader.columns, labelColumn,
                             reader.indices, reader.labelIndex));
  while (lines.next()) {
    MODELRT_TRY(split());
    MODELRT_TRY(reader.addRow(fields, lines.line(), lines.lineNumber()));
  }
  if (reader.rows == 0)
    return errorf("%s: no data rows after the header", path.c_str());
  return reader.table();
}

} // namespace modelrt
