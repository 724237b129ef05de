//===- Elaborator.h - Symbolic evaluation of models (internal) --*- C++ -*-===//
//
// Internal interface of semantic analysis. The Elaborator evaluates a model
// body symbolically: compile-time numbers are folded, tensor operations
// become typed Nodes of a Graph, and every call of a user function is
// instantiated at its call site (its dimension variables unified with the
// argument shapes) and inlined. Builtins (relu, convolution, cross_entropy,
// ...) are implemented in Builtins.cpp / BuiltinsNN.cpp against this
// interface; operators in Operators.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_SEMA_ELABORATOR_H
#define MODELC_LIB_SEMA_ELABORATOR_H

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Sema/Program.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace modelc {
namespace sema {

struct ModuleInfo;
struct BuiltinInfo;

/// A compile-time value of the symbolic evaluation.
struct Value {
  enum class Kind {
    Error,  ///< an error was already reported; propagate silently
    None,   ///< an absent optional argument
    Tensor, ///< a graph node
    Int,
    Float,
    Bool,
    String,
    List,
    SymDim, ///< a symbolic dimension such as the batch size B
    DTypeName, ///< f32, i64, ... (argument of cast)
    Func,    ///< a user fn or model
    Builtin, ///< a builtin function
    Module,  ///< an imported module
  };
  Kind kind = Kind::Error;
  unsigned node = 0;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<Value> list;
  DType dtype = DType::F32;
  const FuncDecl *fn = nullptr;
  const ModuleInfo *module = nullptr;
  const BuiltinInfo *builtin = nullptr;
  /// The source range that produced the value.
  llvm::SMRange range;

  static Value error() { return Value(); }
  bool isError() const { return kind == Kind::Error; }
  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float; }
  double asDouble() const { return kind == Kind::Int ? double(i) : f; }
  /// Where the value starts in the source, or \p fallback (the call) when
  /// it has no range (a defaulted argument).
  llvm::SMLoc startOr(llvm::SMLoc fallback) const {
    return range.isValid() ? range.Start : fallback;
  }
  /// A short description for messages: "tensor f32[B, 10]", "integer 3".
  std::string describe(const Graph &graph) const;
};

/// A parsed module and its top-level names.
struct ModuleInfo {
  /// The qualified name used in messages ("nn"; the main file's base name).
  std::string name;
  const Module *ast = nullptr;
  /// Top-level declarations by name.
  std::map<std::string, const Decl *> decls;
  /// Imported modules by bound name.
  std::map<std::string, const ModuleInfo *> imports;
  /// The directories this module's imports are searched in, in order.
  std::vector<std::string> importPath;
};

/// An evaluated call argument.
struct ArgValue {
  std::string keyword;
  Value value;
  llvm::SMRange range;
};

/// The evaluation context of one body (the model's, or an instantiation's).
struct Frame {
  const ModuleInfo *module = nullptr;
  /// Local names (function parameters, let bindings, params).
  std::map<std::string, Value> vars;
  /// Dimension variables and where each was bound.
  std::map<std::string, SDim> dims;
  std::map<std::string, std::string> dimOrigins;
  /// The `...` binding.
  std::optional<Shape> ellipsis;
  /// Index of the instantiation in Graph::instances (-1: model body).
  int instance = -1;
  /// Call sites from the innermost outwards.
  std::vector<llvm::SMLoc> callStack;
  /// Prefix of parameter names declared in this body ("linear_0").
  std::string paramPrefix;
  /// Where the names are looked up and which ones it has, appended to an
  /// unknown-name error (" in the loss; it can use logits, label, x").
  std::string nameScope;
};

/// How the decoding form of a model is elaborated (Decode.cpp): the input
/// is one position of one sequence, positions() and causal attention read
/// the position being decoded.
struct DecodeMode {
  /// The sequence length T of the model as written.
  int64_t length = 0;
  /// The Position leaf (made after the model's inputs).
  unsigned position = 0;
  /// The attention_decode nodes made so far (the next one's cache number).
  unsigned caches = 0;
};

/// Evaluates model bodies into a Graph.
class Elaborator {
public:
  Elaborator(DiagnosticEngine &diags, Graph &graph,
             const std::vector<const ModuleInfo *> &allModules,
             DecodeMode *decode = nullptr)
      : diags(diags), graph(graph), decode(decode), allModules(allModules) {}

  /// Checks the model `decl` of `module` and fills the graph. False on error.
  bool elaborateModel(const FuncDecl &decl, const ModuleInfo &module);

  /// Evaluates an expression. The value's range is the expression's unless
  /// its evaluation gave it one (a name keeps its own).
  Value eval(const Expr &expr, Frame &frame);
  /// eval's cases, one per kind of expression.
  Value evalKind(const Expr &expr, Frame &frame);
  /// Calls `callee` with evaluated arguments; `loc` is the call's location.
  Value call(const Value &callee, std::vector<ArgValue> args, llvm::SMLoc loc,
             llvm::SMRange range, Frame &frame);

  /// Checks that \p shape, an op's result, has at most
  /// modelsupport::kMaxTensorRank dimensions and that its fixed part has at
  /// most modelsupport::kMaxTensorElements elements, reporting at \p loc if
  /// not.
  bool checkSize(llvm::SMLoc loc, const Shape &shape, Frame &frame);
  /// Adds a node of kind `K` with its typed attributes; returns a tensor
  /// Value referring to it.
  template <OpKind K>
  Value addNode(std::vector<unsigned> operands, TensorType type,
                const OpAttrs<K> &attrs, llvm::SMLoc loc, Frame &frame,
                std::string origin) {
    return addNodeWithAttrs(K, std::move(operands), std::move(type),
                            attrs.toList(), loc, frame, std::move(origin));
  }
  /// Adds a node of a kind without attributes.
  Value addNode(OpKind kind, std::vector<unsigned> operands, TensorType type,
                llvm::SMLoc loc, Frame &frame, std::string origin);
  /// The type of a tensor value.
  const TensorType &typeOf(const Value &v) const {
    return graph.nodes[v.node].type;
  }
  /// Reports (at the number) a number that \p dtype cannot hold
  /// (overflowOf); true when it fits.
  bool numberFits(const Value &v, DType dtype, Frame &frame);
  /// Converts a compile-time number into a constant node of `dtype`
  /// (reports an error if the number does not fit the dtype).
  Value materialize(const Value &v, DType dtype, Frame &frame);
  /// Applies a broadcasting binary operator (Add..Min, Cmp).
  Value binaryOp(OpKind kind, llvm::StringRef spelling, Value lhs, Value rhs,
                 llvm::SMLoc loc, Frame &frame, llvm::StringRef pred = "");
  /// Matrix product `lhs @ rhs`.
  Value matmul(Value lhs, Value rhs, llvm::SMLoc loc, Frame &frame);
  /// `lhs @ rhs` on stacks of matrices: the batch dimensions broadcast.
  Value batchMatmul(Value lhs, Value rhs, llvm::SMLoc loc, Frame &frame);

  /// "cnn.model:3:9".
  std::string where(llvm::SMLoc loc) const;
  /// Adds notes "note: in call to 'nn.linear' from here" for each call site.
  void noteCallStack(const Frame &frame);
  /// Notes where an operand's value came from.
  void noteOrigin(const Value &v, llvm::StringRef what);
  /// Reports an error followed by the instantiation notes.
  void error(llvm::SMLoc loc, const llvm::Twine &msg, const Frame &frame);

  DiagnosticEngine &diags;
  Graph &graph;
  /// Set while the decoding form is elaborated; null otherwise.
  DecodeMode *decode;

private:
  /// Adds a node of \p kind with its typed attributes \p attrs; returns it.
  Value addNodeWithAttrs(OpKind kind, std::vector<unsigned> operands,
                         TensorType type, std::vector<NodeAttr> attrs,
                         llvm::SMLoc loc, Frame &frame, std::string origin);
  Value evalName(const NameExpr &e, Frame &frame);
  Value evalMember(const MemberExpr &e, Frame &frame);
  Value evalCall(const Expr &calleeExpr, const Expr *piped,
                 llvm::ArrayRef<Arg> args, llvm::SMLoc loc,
                 llvm::SMRange range, Frame &frame);
  Value evalBinary(const BinaryExpr &e, Frame &frame);
  /// A subscript `x[...]` (Indexing.cpp).
  Value evalIndex(const IndexExpr &e, Frame &frame);
  Value instantiate(const FuncDecl &fn, const ModuleInfo &module,
                    std::vector<ArgValue> args, llvm::SMLoc loc,
                    Frame &caller);
  bool bindParam(const Param &p, const Value &v, llvm::SMRange argRange,
                 const FuncDecl &fn, Frame &frame);
  /// Checks a function's tensor result against its declared type: the
  /// element type (no implicit conversion), then the shape.
  bool checkResult(const FuncDecl &fn, Value &result, Frame &frame);
  bool unifyShape(const TypeRef &pattern, const TensorType &actual,
                  llvm::StringRef what, llvm::SMRange at, const FuncDecl &fn,
                  Frame &frame, const Value *actualValue = nullptr);
  /// checkSize at `type`, for the `shape` resolved from it.
  bool checkSize(const TypeRef &type, const Shape &shape, Frame &frame);
  std::optional<Shape> resolveType(const TypeRef &type, Frame &frame,
                                   bool allowSymbolic);
  bool runBody(llvm::ArrayRef<StmtPtr> body, Frame &frame, Value &result);
  /// Reports (at \p loc) an initialiser whose values would overflow the
  /// parameter's element type: constant's value, uniform's bounds,
  /// normal's mean +- 4 std.
  bool initializerFits(const Initializer &init, const TensorType &type,
                       llvm::StringRef name, llvm::SMLoc loc, Frame &frame);
  bool declareParam(const ParamStmt &p, Frame &frame);
  std::optional<Initializer> evalInitializer(const Expr &e, Frame &frame);
  void reportUnknownName(llvm::StringRef name, llvm::SMRange range,
                         const Frame &frame);

  const std::vector<const ModuleInfo *> &allModules;
  /// The most function calls elaboration nests (a deeper chain is an error,
  /// not a stack overflow).
  static constexpr size_t kMaxCallDepth = 256;
  /// The most function instances one model may have: each call site
  /// instantiates its function, so calls that each call twice grow
  /// exponentially with the depth.
  static constexpr size_t kMaxInstances = 100000;
  /// Functions being instantiated (recursion detection) and their calls.
  std::vector<std::pair<const FuncDecl *, llvm::SMLoc>> activeCalls;
  /// Per-callee instance counters ("linear" -> 2).
  std::map<std::string, unsigned> instanceCounters;
};

/// A builtin's handler: arguments are bound to the builtin's parameters in
/// order (Kind::None for an absent optional one).
using BuiltinHandler = Value (*)(Elaborator &el, llvm::ArrayRef<Value> args,
                                 llvm::SMLoc loc, Frame &frame);

/// One parameter of a builtin.
struct BuiltinParam {
  const char *name;
  /// False when the argument must be given.
  bool optional;
};

/// A builtin function of the language.
struct BuiltinInfo {
  const char *name;
  std::vector<BuiltinParam> params;
  BuiltinHandler handler;
  /// The signature as shown in notes: "max_pool(x, kernel, stride=kernel, pad=0)".
  const char *signature;
  /// The op whose shape rule `handler` implements (none for the argument
  /// specs of initialisers).
  std::optional<OpKind> op;
};

/// Binds call arguments to the parameters of `spec` (positional, then
/// keywords); absent optional ones become Kind::None. Reports too many
/// arguments, unknown or repeated keywords and missing arguments.
bool bindArgsToSpec(Elaborator &el, const BuiltinInfo &spec,
                    llvm::ArrayRef<ArgValue> args, llvm::SMLoc loc,
                    std::vector<Value> &bound);

/// The builtin table: every builtin function of the language.
llvm::ArrayRef<BuiltinInfo> getBuiltins();
/// The builtin named `name`, or nullptr.
const BuiltinInfo *lookupBuiltin(llvm::StringRef name);
/// Every builtin's name (for "did you mean").
std::vector<llvm::StringRef> getBuiltinNames();

} // namespace sema
} // namespace modelc

#endif // MODELC_LIB_SEMA_ELABORATOR_H
