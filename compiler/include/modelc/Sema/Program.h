//===- Program.h - The checked program semantic analysis produces -*- C++ -*-=//
//
// Semantic analysis evaluates each model symbolically: every call of a
// shape-generic function is instantiated at its call site and inlined, so a
// model becomes a flat dataflow graph of typed tensor operations (Node) whose
// kinds, listed once in Ops.def, mirror the `mdl` dialect's ops. The graph also holds the loss built
// from the train block, the parameter table (stable names such as
// `linear_0.weight`), the state table (batch-norm running statistics) and a
// record of every instantiation. The data and train configurations are
// folded into plain structs. MLIRGen turns this into an `mdl` module; the
// driver's `--emit=sema` prints it (printProgram).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_SEMA_PROGRAM_H
#define MODELC_SEMA_PROGRAM_H

#include "modelc/Sema/Types.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace modelc {
class FuncDecl;

namespace sema {

/// The operations of a checked model graph (one per `mdl` op family), in
/// the order of Ops.def.
enum class OpKind {
#define MODELC_OP(Kind, Name, Source, Attrs) Kind,
#include "modelc/Sema/Ops.def"
};

/// The number of OpKinds.
inline constexpr unsigned kNumOpKinds = 0
#define MODELC_OP(Kind, Name, Source, Attrs) +1
#include "modelc/Sema/Ops.def"
    ;

/// How semantic analysis produces an op (the Source column of Ops.def).
enum class OpSource {
  Leaf,     ///< an input, label, parameter or literal
  Operator, ///< an operator of the language (`+`, `@`, `<`, unary `-`)
  Builtin,  ///< exactly one entry of the builtin table
  Decode,   ///< a builtin's op in the decoding form of a model
};

/// The op's name as printed by --emit=sema ("add", "conv2d", ...).
llvm::StringRef getOpKindName(OpKind kind);
/// The op named `name` (the inverse of getOpKindName), or std::nullopt.
std::optional<OpKind> lookupOpKind(llvm::StringRef name);
/// How semantic analysis produces `kind`.
OpSource getOpSource(OpKind kind);
/// The names of `kind`'s attributes, in their fixed order.
std::vector<llvm::StringRef> getOpAttrNames(OpKind kind);
/// True for the four loss kinds.
bool isLossKind(OpKind kind);

/// A named compile-time attribute of a node, as --emit=sema prints it. Nodes
/// are given and read their attributes through OpAttrs below.
struct NodeAttr {
  std::string name;
  /// Integer payload (Int: one value; Ints: strides, axes, shapes, ...).
  std::vector<int64_t> ints;
  /// Floating-point payload (rate, epsilon, constant value, ...).
  double number = 0;
  /// String payload (predicate, symbol names, reduction).
  std::string text;
  /// Floating-point list payload (class weights).
  std::vector<double> numbers;
  enum class Kind { Int, Ints, Number, Numbers, Text } kind = Kind::Ints;
};

struct Node;

/// The C++ types of the attribute types of Ops.def.
namespace attrtype {
using Int = int64_t;
using Ints = std::vector<int64_t>;
using Number = double;
using Numbers = std::vector<double>;
using Text = std::string;
} // namespace attrtype

/// The typed attributes of op `K`: one field per MODELC_ATTR of Ops.def, in
/// its order. Sema builds a node's attribute list with toList(); MLIRGen
/// reads it back with attrsOf<K>(node).
template <OpKind K> struct OpAttrs;

#define MODELC_ATTR(Type, Field) attrtype::Type Field{};
#define MODELC_OP(Kind, Name, Source, Attrs)                                   \
  template <> struct OpAttrs<OpKind::Kind> {                                   \
    Attrs                                                                      \
    /** The node attribute list, in declaration order. */                     \
    std::vector<NodeAttr> toList() const;                                      \
    /** Reads the attributes of a node of this kind. */                       \
    static OpAttrs fromNode(const Node &node);                                 \
  };
#include "modelc/Sema/Ops.def"

/// The typed attributes of `node`, which must be of kind `K`.
template <OpKind K> OpAttrs<K> attrsOf(const Node &node) {
  return OpAttrs<K>::fromNode(node);
}

/// One operation of a model graph. Operands always precede their users.
struct Node {
  OpKind kind;
  /// Operand node ids.
  std::vector<unsigned> operands;
  /// The result type.
  TensorType type;
  /// Attributes, in the order Ops.def gives for the kind (written and read
  /// through OpAttrs).
  std::vector<NodeAttr> attrs;
  /// Where the op comes from: innermost source location first, then each
  /// enclosing call site (the instantiation chain).
  std::vector<llvm::SMLoc> locs;
  /// The instantiation this node belongs to (index into Graph::instances),
  /// or -1 for the model body itself.
  int instance = -1;
  /// Human description of where this value's shape came from, used in
  /// diagnostics ("weight declared at nn.model:3:9", "relu at cnn.model:4:5").
  std::string origin;

};

/// How a parameter or state tensor is initialised (mirrors #mdl.init).
struct Initializer {
  /// kaiming_uniform, uniform, normal, zeros, ones, constant.
  std::string kind;
  /// Its numeric arguments, folded (fan_in=I becomes a number).
  std::vector<double> args;
  /// "kaiming_uniform(784)".
  std::string str() const;
};

/// One entry of the parameter or state table.
struct TableEntry {
  /// Stable name, e.g. `linear_0.weight`, `batch_norm_0.running_mean`.
  std::string name;
  TensorType type;
  Initializer init;
  /// Where it was declared.
  llvm::SMLoc loc;
  /// Owning instantiation (-1 for the model body).
  int instance = -1;
};

/// One instantiation of a function at a call site.
struct Instance {
  /// The instance's name: callee name + per-callee counter ("linear_0").
  std::string name;
  /// The callee's qualified name ("nn.linear").
  std::string callee;
  const FuncDecl *decl = nullptr;
  /// The call site.
  llvm::SMLoc callSite;
  /// Enclosing instantiation, or -1.
  int parent = -1;
  /// Dimension-variable bindings in binding order ("I" -> "3136").
  std::vector<std::pair<std::string, std::string>> bindings;
};

/// The checked form of one model: its graph and tables.
struct Graph {
  std::string modelName;
  llvm::SMLoc loc;
  std::vector<Node> nodes;
  /// Input node ids in signature order.
  std::vector<unsigned> inputs;
  std::vector<std::string> inputNames;
  /// The model's result node.
  unsigned output = 0;
  /// The label node and loss node, when a train block targets this model.
  std::optional<unsigned> label, loss;
  std::vector<Instance> instances;
  std::vector<TableEntry> params, states;
  /// Nodes bound by a `let` in some body: node id -> (name, location).
  std::map<unsigned, std::pair<std::string, llvm::SMLoc>> letNames;
};

/// One argument of an augmentation: its name and one value, or two for a
/// range [lo, hi] (or a size [h, w]).
struct AugmentationArg {
  std::string name;
  std::vector<double> values;
  /// Written as an integer (a size, a padding).
  bool integer = false;
};

/// One augmentation of the training data (modelsupport/Augment.def).
struct Augmentation {
  /// The name, e.g. random_hflip.
  std::string kind;
  /// Every argument, defaults included, in the signature's order (colour
  /// jitter adds the pixels' white, 255 or 1).
  std::vector<AugmentationArg> args;
};

/// One split of a data set (train or test).
struct DataSplit {
  /// idx, npy, csv, images or text.
  std::string format;
  /// Absolute paths: images + labels (idx), inputs + labels (npy), the
  /// table (csv), the folder (images) or the token stream (text, and npy
  /// with seq: one path).
  std::vector<std::string> paths;
  /// CSV only: the label columns (one: class indices or one f32 target per
  /// sample; several: f32 targets of shape [k]) and the feature columns.
  std::vector<std::string> labelColumns;
  std::vector<std::string> featureColumns;
  /// Number of samples, when known at compile time (a token stream: its
  /// windows per epoch, once the validation fraction is known).
  int64_t numSamples = -1;
  /// A token stream (text, npy with seq): its length in tokens.
  int64_t numTokens = -1;
};

/// A folded `data` block.
struct DataConfig {
  std::string name;
  llvm::SMLoc loc;
  std::optional<DataSplit> train, test;
  /// Shape of one sample as stored (e.g. [28, 28]) and its stored dtype.
  Shape sampleShape;
  std::string storedType;
  /// The label dtype the model sees (i64 class indices or f32 targets) and
  /// the class count (-1 if unknown or not class indices).
  DType labelType = DType::I64;
  int64_t numClasses = -1;
  /// The per-sample shape of f32 targets: [] for one target per sample
  /// (which the loss also sees as [1] when the model's output is [B, 1]),
  /// [k] for k CSV label columns, the dimensions after the first of an IDX
  /// label file of floats or of rank > 1. Class indices: [] (one per
  /// sample), or [N] for the next-token labels of a token stream.
  Shape labelShape;
  /// f32 labels: why they are not class indices (a CSV label that is not
  /// one, at file:line:col; an IDX file's element type or rank), noted
  /// where a loss or metric needs class indices.
  std::string labelNote;
  llvm::SMLoc labelNoteLoc;
  /// The folded sample transform: x' = x * scale + shift.
  double scale = 1, shift = 0;
  std::vector<Augmentation> augment;
  /// `validation = f`: the fraction of the train split held out for
  /// validation (0: none; only without a test split).
  double valFraction = 0;
  /// x' = (x * scale - mean[k]) / std[k] instead of x * scale + shift:
  /// `standardize = true` (CSV: per feature, the mean and population
  /// standard deviation of the train file, scale 1) or `image =
  /// normalize(...)` (one value, or per channel); empty when off.
  std::vector<double> featureMean, featureStd;
  /// The class names (images: the class folders, sorted); empty when the
  /// classes have no names.
  std::vector<std::string> classNames;
  /// Token streams (text(path, seq=N), npy(path, seq=N)): the window
  /// length N (0: samples are not windows), how text becomes tokens
  /// ("chars", "bytes"; empty for npy) and, for chars, the vocabulary:
  /// token i is the code point vocab[i] (the training file's distinct code
  /// points, sorted). The vocabulary's size is numClasses.
  int64_t seqLen = 0;
  std::string tokens;
  std::vector<uint32_t> vocab;
  /// Where the input transform (`image = ...`, `standardize`) and the
  /// augmentations are set, when they are: integer inputs take neither.
  llvm::SMLoc transformLoc, augmentLoc;
  /// images(dir): `resize = [H, W]` (empty: none) and whether
  /// `center_crop = [H, W]` cuts the sample's H x W out of the centre.
  std::vector<int64_t> resize;
  bool centerCrop = false;
};

/// The C++ types of the schema's scalar option types.
namespace option {
using INT = int64_t;
using REAL = double;
} // namespace option

/// A folded `train` block. Its options and their defaults are those of the
/// schema, modelsupport/TrainConfig.def.
struct TrainConfig {
  std::string modelName, dataName;
  llvm::SMLoc loc;
  std::string optimizer;
  /// Optimizer hyperparameters with defaults filled in, in a fixed order.
  std::vector<std::pair<std::string, double>> optimizerArgs;
  std::string schedule = "constant";
  std::vector<std::pair<std::string, double>> scheduleArgs;
  /// multistep: the epochs after which lr *= gamma (increasing, >= 1).
  std::vector<int64_t> milestones;
  /// The schedule's lengths the source gave (cosine's `epochs`): they stay
  /// fixed, where a default one follows the run's epochs.
  std::vector<std::string> scheduleFixed;
  /// `early_stopping`: the rule ("patience"; empty: off) and its settings
  /// (the patience in epochs and the improvement that resets it).
  std::string earlyStopping;
  std::vector<std::pair<std::string, double>> earlyStoppingArgs;
  std::vector<std::string> metrics;
  /// `precision`: "f32" (the default), "bf16" or "tf32"
  /// (modelsupport::precisionSummary says what each computes in which
  /// type; docs/precision.md).
  std::string precision = "f32";
  /// Where the source gave `precision` (empty when it did not).
  llvm::SMRange precisionRange;
  /// `batch_norm`: "sync" (the default: statistics over the global batch
  /// of a data-parallel run) or "local" (each rank's slice alone).
  std::string batchNorm = "sync";
  /// The loss function's name (cross_entropy, mse_loss, ...).
  std::string lossKind;
  /// Whether the loss depends on `label`: without, the labels are read but
  /// neither used nor checked against a class count.
  bool usesLabels = true;
  /// Integer model inputs: the rows of the smallest embedding table the
  /// input indexes directly; the runtime checks every id in the data
  /// against it (0: unchecked).
  int64_t inputIdLimit = 0;
  // The scalar options: epochs, batch, seed, clip_norm (0: off),
  // accumulate (micro-batches per optimizer step).
#define MODELRT_TRAIN_OPTION(NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, ENC,  \
                             OMIT, ABI, DOC)                                   \
  option::TYPE NAME = DEFAULT;
#include "modelsupport/TrainConfig.def"
};

/// The decoding form of a model (Decode.cpp; docs/language.md, "Decoding one
/// position at a time"): the model elaborated again at one position of one
/// sequence (its input [1, 1, ...] instead of [B, T, ...]), where
/// `positions(table, T)` reads row `position` and each causal attention
/// attends over a key/value cache of the T positions. Checked to compute,
/// at each position, what the model computes there over the whole sequence.
struct DecodeForm {
  /// The graph: the same parameter and state tables as the model's; one
  /// Position leaf; attention_decode nodes numbered 0..numCaches-1.
  Graph graph;
  /// T, the trained sequence length: the positions 0..T-1 a decoder steps
  /// through, and the rows of every cache.
  int64_t length = 0;
  /// The Position leaf's node id.
  unsigned position = 0;
  /// The attention_decode nodes, each with one key and one value cache.
  unsigned numCaches = 0;
};

/// The result of semantic analysis of a main file and its imports.
struct Program {
  /// Every model of the main file, checked.
  std::vector<Graph> models;
  std::optional<DataConfig> data;
  std::optional<TrainConfig> train;
  /// The main model's decoding form, when it has one.
  std::optional<DecodeForm> decode;
  /// Why the main model has no decoding form, when it has attention but
  /// cannot be decoded one position at a time (empty otherwise).
  std::string noDecode;

  /// The model that training and MLIR generation target: the trained one,
  /// else the only one; nullptr when neither exists.
  const Graph *getMainModel() const;
};

/// Prints the checked program for `--emit=sema`: per model, the
/// instantiations with their bindings, every value with its type, and the
/// parameter and state tables; then the data and train configurations.
void printProgram(llvm::raw_ostream &os, const Program &program,
                  const llvm::SourceMgr &sourceMgr);

/// A number printed compactly ("0.001", "3136", "0.0353").
std::string formatNumber(double value);

/// "file.model:3:9" for a location.
std::string formatLoc(const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc);

} // namespace sema
} // namespace modelc

#endif // MODELC_SEMA_PROGRAM_H
