//===- DataCsvSplit.cpp - Checking csv(...) splits ------------------------===//
//
// A csv(...) split names its table and selects columns:
//   csv(path, label="y")                        one label column
//   csv(path, label=["y1", "y2"], features=[...])  f32 targets of shape [2]
//   csv(path, label=..., features=columns(1, 64))  columns by position
// A selection is a column name (labels only), a list of names, or
// columns(first, last): positions counted from 1, both included. Without
// `features`, every column but the labels is a feature. Each selected
// column exists, is selected once, and is never both a label and a
// feature. One label column holds class names when some label is not a
// number (sorted, they become classes 0..K-1), class indices when every
// label is one (modelsupport/Csv.h's rule) and f32 targets otherwise;
// several label columns hold f32 targets, and every label must then be a
// number.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include "llvm/ADT/StringExtras.h"

using namespace modelc;
using namespace modelc::sema;

namespace {
/// The arguments of one csv(...) call.
struct CsvArgs {
  std::optional<Value> path;
  const Expr *label = nullptr, *features = nullptr;
};

/// One selected column: its index in the header and where it was selected.
struct Pick {
  size_t index;
  llvm::SMRange range;
};

/// The table a selection is resolved against.
struct TableRef {
  const std::string &path;
  const std::vector<std::string> &header;
};
} // namespace

/// The usage of csv(...), reported at an argument it does not take.
static constexpr const char *kCsvUsage =
    "csv expects csv(\"file.csv\", label=..., features=...): label is a "
    "column name, a list of names or columns(first, last); features "
    "(optional: every other column) a list of names or columns(first, last)";

/// Reads the arguments of `call`: a path first, then `label` and
/// `features`. Reports a misplaced or unknown argument.
static bool parseCsvArgs(DiagnosticEngine &diags, const CallExpr &call,
                         const ConstEnv &env, CsvArgs &args) {
  for (const Arg &a : call.getArgs()) {
    if (a.keyword == "label" || a.keyword == "features") {
      (a.keyword == "label" ? args.label : args.features) = a.value.get();
      continue;
    }
    if (!a.isKeyword() && !args.path) {
      Value v = evalConst(diags, *a.value, env);
      if (v.isError())
        return false;
      if (v.kind == Value::Kind::String) {
        args.path = v;
        continue;
      }
    }
    diags.error(a.getRange().Start, kCsvUsage, {a.getRange()});
    return false;
  }
  if (args.path && args.label)
    return true;
  diags.error(call.getLoc(),
              "csv needs a path and label=...: csv(\"file.csv\", "
              "label=\"column\")",
              {call.getRange()});
  return false;
}

/// The 1-based column position `e` of a columns(...) call, checked against
/// the table's column count.
static std::optional<size_t> columnPosition(DiagnosticEngine &diags,
                                            const Expr &e, const ConstEnv &env,
                                            const TableRef &t) {
  Value v = evalConst(diags, e, env);
  if (v.isError())
    return std::nullopt;
  if (v.kind == Value::Kind::Int && v.i >= 1 &&
      uint64_t(v.i) <= t.header.size())
    return size_t(v.i);
  diags.error(e.getLoc(),
              v.kind != Value::Kind::Int
                  ? "a column position is an integer, got " +
                        v.describe(Graph())
                  : "column position " + std::to_string(v.i) +
                        " is outside '" + t.path + "', whose " +
                        std::to_string(t.header.size()) +
                        " columns are numbered 1 to " +
                        std::to_string(t.header.size()),
              {e.getRange()});
  return std::nullopt;
}

/// The columns of `columns(first, last)`: positions counted from 1, both
/// included.
static std::optional<std::vector<Pick>>
positionRange(DiagnosticEngine &diags, const CallExpr &call,
              const ConstEnv &env, const TableRef &t) {
  llvm::ArrayRef<Arg> args = call.getArgs();
  if (args.size() != 2 || args[0].isKeyword() || args[1].isKeyword()) {
    diags.error(call.getLoc(),
                "columns takes two column positions, columns(first, last), "
                "counted from 1 with both included",
                {call.getRange()});
    return std::nullopt;
  }
  std::optional<size_t> first = columnPosition(diags, *args[0].value, env, t);
  if (!first)
    return std::nullopt;
  std::optional<size_t> last = columnPosition(diags, *args[1].value, env, t);
  if (!last)
    return std::nullopt;
  if (*first > *last) {
    diags.error(call.getLoc(),
                "columns(" + llvm::Twine(*first) + ", " + llvm::Twine(*last) +
                    ") selects no column: first must not exceed last",
                {call.getRange()});
    return std::nullopt;
  }
  std::vector<Pick> picks;
  for (size_t i = *first; i <= *last; ++i)
    picks.push_back({i - 1, call.getRange()});
  return picks;
}

/// The column named by `name` (a string value), or std::nullopt after an
/// error at it.
static std::optional<Pick> namedColumn(DiagnosticEngine &diags,
                                       const Value &name, const TableRef &t) {
  if (name.kind != Value::Kind::String) {
    diags.error(name.range.Start,
                "expected a column name (a string), got " +
                    name.describe(Graph()),
                {name.range});
    return std::nullopt;
  }
  long i = modelsupport::csv::find(t.header, name.s);
  if (i >= 0)
    return Pick{size_t(i), name.range};
  diags.error(name.range.Start,
              "column '" + name.s + "' is not in '" + t.path +
                  "'; its columns are: " + llvm::join(t.header, ", "),
              {name.range});
  return std::nullopt;
}

/// Resolves a column selection: a name (when `nameAllowed`; `single` is
/// then set), a list of names, or columns(first, last).
static std::optional<std::vector<Pick>>
selectColumns(DiagnosticEngine &diags, const Expr &e, const ConstEnv &env,
              const TableRef &t, bool nameAllowed, bool &single) {
  single = false;
  const auto *call = llvm::dyn_cast<CallExpr>(&e);
  const auto *fn = call ? llvm::dyn_cast<NameExpr>(&call->getCallee()) : nullptr;
  if (fn && fn->getName() == "columns")
    return positionRange(diags, *call, env, t);
  Value v = evalConst(diags, e, env);
  if (v.isError())
    return std::nullopt;
  std::vector<Pick> picks;
  if (v.kind == Value::Kind::String && nameAllowed) {
    single = true;
    v.list = {v};
  } else if (v.kind != Value::Kind::List) {
    diags.error(e.getLoc(),
                std::string("expected ") +
                    (nameAllowed ? "a column name, " : "") +
                    "a list of column names or columns(first, last), got " +
                    v.describe(Graph()),
                {e.getRange()});
    return std::nullopt;
  }
  for (const Value &name : v.list) {
    std::optional<Pick> p = namedColumn(diags, name, t);
    if (!p)
      return std::nullopt;
    picks.push_back(*p);
  }
  return picks;
}

/// Checks that `picks` (the `what` columns, selected at `whole`) is not
/// empty, names no column twice and shares none with `labels`.
/// The runtime reads the selected columns by their header names: each
/// selected column's name must be non-empty and appear once in the header.
static bool checkNamesDistinct(DiagnosticEngine &diags,
                               const std::vector<Pick> &picks,
                               const TableRef &t) {
  for (const Pick &p : picks) {
    const std::string &name = t.header[p.index];
    auto same = llvm::count(t.header, name);
    if (!name.empty() && same == 1)
      continue;
    std::string what =
        name.empty() ? std::string(" has no name in the header")
                     : " is named '" + name + "', as are " +
                           std::to_string(same - 1) + " other column(s)";
    diags.error(p.range.Start,
                "column " + llvm::Twine(p.index + 1) + " of " + t.path + what +
                    "; columns are read by name, so the selected ones need "
                    "distinct names",
                {p.range});
    return false;
  }
  return true;
}

static bool checkPicks(DiagnosticEngine &diags, const std::vector<Pick> &picks,
                       const std::vector<Pick> &labels, llvm::StringRef what,
                       llvm::SMRange whole, const TableRef &t) {
  if (picks.empty()) {
    diags.error(whole.Start, "`" + what + "` selects no column", {whole});
    return false;
  }
  std::vector<bool> seen(t.header.size());
  for (const Pick &l : labels)
    seen[l.index] = true;
  for (size_t k = 0; k < picks.size(); ++k) {
    const Pick &p = picks[k];
    if (!seen[p.index]) {
      seen[p.index] = true;
      continue;
    }
    bool isLabel = llvm::any_of(labels, [&](const Pick &l) {
      return l.index == p.index;
    });
    diags.error(p.range.Start,
                "column " + llvm::Twine(p.index + 1) + " ('" +
                    t.header[p.index] + "') " +
                    (isLabel ? "is a label column, so it cannot be a feature "
                               "too"
                             : "is selected twice in `" + what + "`"),
                {p.range});
    return false;
  }
  return checkNamesDistinct(diags, picks, t);
}

/// Every column that is not a label, selected at `call`.
static std::vector<Pick> otherColumns(const std::vector<Pick> &labels,
                                      const CallExpr &call,
                                      const TableRef &t) {
  std::vector<Pick> picks;
  for (size_t i = 0; i < t.header.size(); ++i)
    if (llvm::none_of(labels, [&](const Pick &l) { return l.index == i; }))
      picks.push_back({i, call.getRange()});
  return picks;
}

/// Selects the features of `call` (every column but `labels` when its
/// `features` argument is omitted) and records where, in `out`.
static std::optional<std::vector<Pick>>
selectFeatures(DiagnosticEngine &diags, const CallExpr &call,
               const CsvArgs &args, const ConstEnv &env, const TableRef &t,
               const std::vector<Pick> &labels, CsvSplit &out) {
  out.featuresGiven = args.features != nullptr;
  out.featuresRange =
      out.featuresGiven ? args.features->getRange() : call.getRange();
  bool single = false;
  std::optional<std::vector<Pick>> features =
      out.featuresGiven
          ? selectColumns(diags, *args.features, env, t, false, single)
          : otherColumns(labels, call, t);
  if (features && features->empty() && !out.featuresGiven) {
    diags.error(call.getLoc(),
                "every column of '" + t.path +
                    "' is a label column, so no column is left for the "
                    "features",
                {call.getRange()});
    return std::nullopt;
  }
  if (!features ||
      !checkPicks(diags, *features, labels, "features", out.featuresRange, t))
    return std::nullopt;
  return features;
}

/// "<path>:<line>:<col>: label column '<name>': '<text>'".
static std::string cellPlace(const std::string &path, const CsvRows::Row &row,
                             size_t col, const std::string &name) {
  const modelsupport::csv::Field &cell = row.cells[col];
  return path + ":" + std::to_string(row.line) + ":" +
         std::to_string(cell.column) + ": label column '" + name + "': '" +
         cell.text + "'";
}

/// Reads one label column `col` of `table` as class indices when every
/// label is one (and the table has rows); otherwise keeps, in `labels`, the
/// first label that is not one and why.
static bool readClassIndices(const CsvRows &table, size_t col,
                             const DataSplit &split, SplitLabels &labels) {
  for (const CsvRows::Row &row : table.rows) {
    long long v;
    const char *why =
        modelsupport::csv::classIndexError(row.cells[col].text, v);
    if (!why) {
      labels.maxLabel = std::max<int64_t>(labels.maxLabel, v);
      continue;
    }
    labels.note = cellPlace(split.paths[0], row, col, split.labelColumns[0]) +
                  " " + why + ", so the labels are read as f32 targets";
    return false;
  }
  return true;
}

/// Collects the labels of column `col` of `table` as class names (sorted,
/// each with the place of its first cell) when every label is a non-empty
/// name that is not a number. False otherwise: a column of numbers, or one
/// that mixes numbers or blanks with names, is read as numbers, and its
/// first bad cell is then an error.
static bool readClassNames(const CsvRows &table, size_t col,
                           const DataSplit &split, SplitLabels &labels) {
  std::map<std::string, std::string> first;
  bool named = !table.rows.empty();
  for (const CsvRows::Row &row : table.rows) {
    std::string text(modelsupport::csv::trim(row.cells[col].text));
    double x;
    named &= !text.empty() && !modelsupport::csv::parseDouble(text, x);
    first.emplace(text, cellPlace(split.paths[0], row, col, split.labelColumns[0]));
  }
  for (auto &[name, place] : first) {
    labels.names.push_back(name);
    labels.namePlaces.push_back(place);
  }
  if (!named)
    return false;
  labels.named = true;
  labels.maxLabel = int64_t(labels.names.size()) - 1;
  return true;
}

/// The first blank label of column `col` when every other label is a name
/// (not a number): a column of class names with a row missing its name.
static const CsvRows::Row *blankAmongNames(const CsvRows &table, size_t col) {
  const CsvRows::Row *blank = nullptr;
  for (const CsvRows::Row &row : table.rows) {
    std::string_view text = modelsupport::csv::trim(row.cells[col].text);
    double x;
    if (text.empty())
      blank = blank ? blank : &row;
    else if (modelsupport::csv::parseDouble(text, x))
      return nullptr;
  }
  return blank;
}

/// Reads the labels of `split` from `table`: one column (`single`) of class
/// names when no label is a number or blank, of class indices when every
/// label is one, f32 targets otherwise, and then every label must be a
/// number (an error at `pathRange` names the cell).
static std::optional<SplitLabels>
readCsvLabels(DiagnosticEngine &diags, const CsvRows &table,
              const std::vector<Pick> &picks, const DataSplit &split,
              bool single, llvm::SMRange pathRange) {
  SplitLabels labels;
  labels.oneColumn = single;
  if (single && (readClassNames(table, picks[0].index, split, labels) ||
                 readClassIndices(table, picks[0].index, split, labels)))
    return labels;
  if (single)
    if (const CsvRows::Row *row = blankAmongNames(table, picks[0].index)) {
      diags.error(pathRange.Start,
                  cellPlace(split.paths[0], *row, picks[0].index,
                            split.labelColumns[0]) +
                      " is empty, in a column of class names",
                  {pathRange});
      return std::nullopt;
    }
  labels.type = DType::F32;
  labels.maxLabel = -1;
  if (!single) {
    labels.shape = {SDim::fixed(int64_t(picks.size()))};
    labels.note = "label=... selects " + std::to_string(picks.size()) +
                  " columns (" + llvm::join(split.labelColumns, ", ") +
                  "), so the labels are " + labels.describe() +
                  ", not class indices";
  }
  for (const CsvRows::Row &row : table.rows)
    for (size_t k = 0; k < picks.size(); ++k) {
      double x;
      if (modelsupport::csv::parseDouble(row.cells[picks[k].index].text, x))
        continue;
      // A single column of names and numbers: neither class names (every
      // label a name) nor numbers.
      diags.error(pathRange.Start,
                  cellPlace(split.paths[0], row, picks[k].index,
                            split.labelColumns[k]) +
                      " is not a number" +
                      (single ? "; a label column holds class names in "
                                "every row or numbers in every row"
                              : ""),
                  {pathRange});
      return std::nullopt;
    }
  return labels;
}

/// Reads the CSV file `path` named by `pathArg`, which must hold rows;
/// reports failures there.
static std::optional<CsvRows> readTable(DiagnosticEngine &diags,
                                        const std::string &path,
                                        const Value &pathArg) {
  llvm::Expected<CsvRows> table = readCsvRows(path);
  if (table && table->rows.empty()) {
    diags.error(
        pathArg.range.Start,
        "CSV file '" + path + "' " +
            (table->header.empty() ? "is empty" : "has a header but no rows") +
            ": no samples to read",
        {pathArg.range});
    return std::nullopt;
  }
  if (table)
    return std::move(*table);
  std::string message;
  llvm::handleAllErrors(
      table.takeError(),
      [&](const llvm::ECError &e) {
        message = "cannot read CSV file '" + path + "': " + e.message();
      },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  diags.error(pathArg.range.Start, message, {pathArg.range});
  return std::nullopt;
}

/// The names of the columns `picks` of `header`.
static std::vector<std::string> names(const std::vector<Pick> &picks,
                                      const std::vector<std::string> &header) {
  std::vector<std::string> out;
  for (const Pick &p : picks)
    out.push_back(header[p.index]);
  return out;
}

std::optional<CsvSplit>
sema::checkCsvSplit(DiagnosticEngine &diags, const CallExpr &call,
                    const ConstEnv &env,
                    llvm::function_ref<std::string(const Value &)> resolvePath) {
  CsvArgs args;
  if (!parseCsvArgs(diags, call, env, args))
    return std::nullopt;
  CsvSplit out;
  out.split.format = "csv";
  out.split.paths.push_back(resolvePath(*args.path));
  std::optional<CsvRows> table = readTable(diags, out.split.paths[0], *args.path);
  if (!table)
    return std::nullopt;
  out.table = std::move(*table);
  TableRef t{out.split.paths[0], out.table.header};
  bool single = false;
  std::optional<std::vector<Pick>> labels =
      selectColumns(diags, *args.label, env, t, true, single);
  if (!labels ||
      !checkPicks(diags, *labels, {}, "label", args.label->getRange(), t))
    return std::nullopt;
  std::optional<std::vector<Pick>> features =
      selectFeatures(diags, call, args, env, t, *labels, out);
  if (!features)
    return std::nullopt;
  out.split.labelColumns = names(*labels, t.header);
  out.split.featureColumns = names(*features, t.header);
  out.split.numSamples = int64_t(out.table.rows.size());
  std::optional<SplitLabels> read = readCsvLabels(
      diags, out.table, *labels, out.split, single, args.path->range);
  if (!read)
    return std::nullopt;
  out.labels = std::move(*read);
  out.labels.noteLoc = args.path->range.Start;
  return out;
}
