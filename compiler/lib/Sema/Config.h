//===- Config.h - Checking data and train blocks (internal) -----*- C++ -*-===//
//
// The configuration blocks are not evaluated like model bodies: their fields
// are compile-time values (strings, numbers, calls naming a reader, an
// optimizer, a schedule...). This header declares the small constant
// evaluator they share, the block checkers, the IDX, CSV, image-folder and
// token-stream readers (with
// what a split's labels are: class indices or f32 targets), the csv(...)
// split checker and the warnings pass over a checked graph.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_SEMA_CONFIG_H
#define MODELC_LIB_SEMA_CONFIG_H

#include "Elaborator.h"

#include "modelsupport/Csv.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <map>

namespace modelc {
namespace sema {

/// Compile-time constants visible in a data block (e.g. `root`).
using ConstEnv = std::map<std::string, Value>;

/// The longest string `+` may make in a configuration block (64 KiB: a
/// path or a column name is far shorter), so that `a = a + a` repeated
/// cannot grow one without bound.
constexpr size_t kMaxStringBytes = size_t(1) << 16;

/// Evaluates a constant expression: literals, names of `env`, `+` on
/// strings (at most kMaxStringBytes), arithmetic on numbers, lists. Reports
/// errors; Kind::Error then.
Value evalConst(DiagnosticEngine &diags, const Expr &e, const ConstEnv &env);

/// The header of an IDX file (optionally gzip-compressed).
struct IdxHeader {
  /// 0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64; and, for an
  /// NPY file read by readNpyHeader, kNpyInt64Code for i64.
  unsigned typeCode = 0;
  std::vector<int64_t> dims;
};
/// The type code readNpyHeader gives an NPY file of i64 (no IDX code).
constexpr unsigned kNpyInt64Code = 0x100;
/// The name of an IDX element type code ("u8", "i8", "i16", "i32", "f32",
/// "f64").
const char *idxTypeName(unsigned code);
/// Fails, with a readable reason, when `path` is not a regular file (a
/// FIFO, a device, a directory) or does not exist; stats without opening,
/// so that a FIFO cannot block the compiler.
llvm::Error checkRegularFile(const std::string &path);
/// Reads the header of `path`; on failure the error's message is a readable
/// reason.
llvm::Expected<IdxHeader> readIdxHeader(const std::string &path);
/// Fails, with a readable reason, when the IDX file `path` of `header` does
/// not hold exactly the data its header says (modelsupport/Idx.h's rule, the
/// runtime's): a truncated file or trailing bytes. A gzip file is inflated
/// to count its bytes.
llvm::Error checkIdxSize(const std::string &path, const IdxHeader &header);

/// What one split's labels are, before the splits are merged into the
/// DataConfig (Data.cpp): class indices or f32 targets of a shape.
struct SplitLabels {
  /// I64 class indices or F32 targets.
  DType type = DType::I64;
  /// The per-sample shape of f32 targets (DataConfig::labelShape).
  Shape shape;
  /// Class indices: the largest label.
  int64_t maxLabel = -1;
  /// One CSV label column, whose labels are class indices only when every
  /// label of every split is one.
  bool oneColumn = false;
  /// One CSV label column holding class names (some label is not a
  /// number): the names sorted, each with the place of its first cell
  /// ("file:line:col: label column 'y': 'name'").
  bool named = false;
  std::vector<std::string> names, namePlaces;
  /// f32 targets: why they are not class indices (DataConfig::labelNote),
  /// and where the source selects these labels.
  std::string note;
  llvm::SMLoc noteLoc;

  /// "class indices (i64)", "f32 targets of shape [2, 3]", "f32 targets
  /// (one per sample)".
  std::string describe() const;
};

/// Reads what an IDX label file holds: a 1-D file of integers (u8, i8,
/// i16, i32) holds class indices and is scanned for the largest (a negative
/// label is an error); any other file (floats, or rank > 1) holds f32
/// targets whose shape is its dimensions after the first.
llvm::Expected<SplitLabels> readIdxLabels(const std::string &path,
                                          const IdxHeader &header);
/// Reads the header of NPY file `path` (modelsupport/Npy.h's rules) as an
/// IdxHeader, and checks that the file is as long as its shape says;
/// errors as readIdxHeader's.
llvm::Expected<IdxHeader> readNpyHeader(const std::string &path);
/// readIdxLabels for an NPY label file: a 1-D array of integers holds class
/// indices (scanned for the class count), any other array f32 targets.
llvm::Expected<SplitLabels> readNpyLabels(const std::string &path,
                                          const IdxHeader &header);

/// A CSV table read with the runtime's tokenizer (modelsupport/Csv.h): the
/// header's trimmed column names and the data rows.
struct CsvRows {
  /// One data row and its 1-based line number in the file.
  struct Row {
    size_t line;
    std::vector<modelsupport::csv::Field> cells;
  };
  std::vector<std::string> header;
  std::vector<Row> rows;
};

/// Reads and tokenizes the CSV file `path`. Fails with the system's error
/// (an llvm::ECError) when the file cannot be read, and with
/// "<path>:<line>:<column>: <fault>" on a NUL byte, a quote that does not
/// close on its line or a row whose field count differs from the header's. An empty file has no header and no rows.
llvm::Expected<CsvRows> readCsvRows(const std::string &path);

/// The image operand of `normalize(image_expr, mean=..., std=...)`, or
/// null after reporting a call of another form.
const Expr *normalizeOperand(DiagnosticEngine &diags, const CallExpr &call);
/// Checks `normalize`'s mean and std (a number or one per channel of
/// cfg.sampleShape, std > 0) and folds them with cfg.scale and cfg.shift,
/// the operand's transform, into cfg.featureMean and featureStd (shift 0).
bool checkNormalize(DiagnosticEngine &diags, const CallExpr &call,
                    const ConstEnv &env, DataConfig &cfg);

/// Checks a data block's `augment` value (one augmentation call or a list
/// of them) against the sample shape and stored type of `cfg`, and appends
/// the augmentations to cfg.augment; reports errors at the call or
/// argument at fault.
bool checkAugmentations(DiagnosticEngine &diags, const Expr &e,
                        const ConstEnv &env, DataConfig &cfg);

/// Per-feature statistics of a CSV split.
struct ColumnStats {
  std::vector<double> mean, stdev;
};

/// Computes the mean and population standard deviation of each feature
/// column of the CSV `split`, whose file holds `table`, over all its rows.
/// Fails (with a readable reason) on an empty table or a cell that is not a
/// number.
llvm::Expected<ColumnStats> csvColumnStats(const DataSplit &split,
                                           const CsvRows &table);

/// The first feature of `stats` that is constant (a standard deviation of
/// 0, up to rounding next to its mean), or -1.
long firstConstantColumn(const ColumnStats &stats);

/// A checked csv(...) split: the split with its columns, its labels, the
/// table, and where the source selects the features.
struct CsvSplit {
  DataSplit split;
  SplitLabels labels;
  CsvRows table;
  /// The `features = ...` argument, or the call when it is omitted (then
  /// every column but the labels is a feature).
  llvm::SMRange featuresRange;
  bool featuresGiven = false;
};

/// Checks `csv(path, label=..., features=...)`: `label` is a column name, a
/// list of names or columns(first, last) (1-based, both included);
/// `features` is a list of names or columns(first, last), and every column
/// but the labels when omitted. Reads the table at `resolvePath(path)`,
/// selects the columns (each exists, at most once, never both a label and
/// a feature) and reads the labels. Reports errors; std::nullopt then.
std::optional<CsvSplit>
checkCsvSplit(DiagnosticEngine &diags, const CallExpr &call,
              const ConstEnv &env,
              llvm::function_ref<std::string(const Value &)> resolvePath);

/// The data block's image options (`resize`, `center_crop`, `channels`),
/// empty / 0 when absent.
struct ImageOptions {
  std::vector<int64_t> resize, centerCrop; ///< [H, W]
  int64_t channels = 0;                    ///< 1 or 3
};

/// Checks the image option `f` of a data block (`resize = [H, W]`,
/// `center_crop = [H, W]`, `channels = 1 | 3`) into `opts`; reports errors.
bool checkImageOption(DiagnosticEngine &diags, const Field &f, const ConstEnv &env,
                      ImageOptions &opts);

/// A checked images(dir) split: the split, its class names (the class
/// folders, sorted) and its sample shape [C, H, W].
struct ImagesSplit {
  DataSplit split;
  std::vector<std::string> classNames;
  Shape sample;
};

/// Checks `images(dir)`: lists the folder at `resolvePath(dir)` with
/// modelsupport/Image.h's rule and reads every image's header (never the
/// pixels). Reports errors at the folder argument; std::nullopt then.
std::optional<ImagesSplit>
checkImagesSplit(DiagnosticEngine &diags, const CallExpr &call, const ConstEnv &env,
                 llvm::function_ref<std::string(const Value &)> resolvePath,
                 const ImageOptions &opts);

/// A checked token stream (DataText.cpp): text(path, seq=N, tokens=...)
/// or npy(path, seq=N, vocab=V).
struct TokenSplit {
  /// Format "text" or "npy", the one path, numTokens and numSamples (the
  /// windows of one epoch over the whole stream).
  DataSplit split;
  int64_t seq = 0;
  /// "chars" or "bytes" (text), empty (npy).
  std::string tokens;
  /// chars: the train file's distinct code points, sorted (a test split
  /// takes the train split's).
  std::vector<uint32_t> vocab;
  /// The number of ids: chars the vocabulary's size, bytes 256, npy the
  /// declared `vocab` or the largest id + 1.
  int64_t vocabSize = 0;
  bool declaredVocab = false;
};

/// Checks `text(path, seq=N, tokens="chars" | "bytes")`: reads the whole
/// file at `resolve(path)`; a test split (`train` given) must use only the
/// train split's characters. Reports errors; std::nullopt then.
std::optional<TokenSplit>
checkTextSplit(DiagnosticEngine &diags, const CallExpr &call, const ConstEnv &env,
               llvm::function_ref<std::string(const Value &)> resolve,
               const TokenSplit *train);

/// Checks `npy(path, seq=N, vocab=V)`: a 1-D NPY array of integer ids,
/// none negative, each below V when given. Reports errors.
std::optional<TokenSplit>
checkNpyTokens(DiagnosticEngine &diags, const CallExpr &call, const ConstEnv &env,
               llvm::function_ref<std::string(const Value &)> resolve);

/// Scans a 1-D integer NPY file of token ids: returns the largest, or an
/// error naming the first negative one and its position.
llvm::Expected<int64_t> scanNpyTokens(const std::string &path,
                                      const IdxHeader &header);

/// Checks a data block; `baseDir` resolves relative paths.
std::optional<DataConfig> checkData(DiagnosticEngine &diags,
                                    const DataDecl &decl,
                                    llvm::StringRef baseDir);

/// Checks a train block against its (already checked) model graph and data
/// set, adds the label and loss nodes to `graph`, and folds the settings.
std::optional<TrainConfig>
checkTrain(DiagnosticEngine &diags, const TrainDecl &decl, Graph &graph,
           const FuncDecl &modelDecl, const DataConfig *data,
           const ModuleInfo &module,
           const std::vector<const ModuleInfo *> &allModules);

/// Warnings over a checked graph: unused layer outputs, parameters the loss
/// never reaches, dropout right before the output.
void lintGraph(DiagnosticEngine &diags, const Graph &graph);

} // namespace sema
} // namespace modelc

#endif // MODELC_LIB_SEMA_CONFIG_H
