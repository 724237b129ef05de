//===- ASTExpr.h - Expressions and types of the modelc AST ------*- C++ -*-===//
//
// The expression nodes (literals, names, members, calls, pipes, operators,
// lists, subscripts) and the written form of types (TypeRef, Dim). Included by AST.h,
// which adds statements, declarations and the Module; include AST.h.
// Every node carries its llvm::SMRange and uses LLVM-style RTTI.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_ASTEXPR_H
#define MODELC_FRONTEND_ASTEXPR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace modelc {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Base class of every expression node.
class Expr {
public:
  /// The concrete kind of an expression, for LLVM-style RTTI.
  enum class Kind {
    IntLit,    ///< 42
    FloatLit,  ///< 1e-3
    StringLit, ///< "text"
    BoolLit,   ///< true / false
    Name,      ///< x
    Member,    ///< base.name (e.g. nn.conv2d)
    Call,      ///< callee(args...)
    Pipe,      ///< lhs |> rhs
    Binary,    ///< lhs op rhs
    Unary,     ///< -operand
    List,      ///< [a, b, c]
    Index,     ///< base[i, a:b:c, ...]
  };

  virtual ~Expr() = default;
  /// The kind of this node.
  Kind getKind() const { return kind; }
  /// The source text this expression covers.
  llvm::SMRange getRange() const { return range; }
  /// The first character of the expression.
  llvm::SMLoc getLoc() const { return range.Start; }
  /// The outermost parentheses written around the expression, '(' through
  /// ')'; invalid when there are none. Syntax only (the formatter keeps
  /// them): the tree's shape already says how the expression groups.
  llvm::SMRange getParenRange() const { return parenRange; }
  /// Records the parentheses around the expression (used by the parser).
  void setParenRange(llvm::SMRange range) { parenRange = range; }

protected:
  Expr(Kind kind, llvm::SMRange range) : kind(kind), range(range) {}

private:
  Kind kind;
  llvm::SMRange range;
  llvm::SMRange parenRange;
};

/// Owning pointer to an expression.
using ExprPtr = std::unique_ptr<Expr>;

/// An integer literal; always fits in int64_t (the lexer rejects others).
class IntLitExpr : public Expr {
public:
  IntLitExpr(llvm::SMRange range, int64_t value)
      : Expr(Kind::IntLit, range), value(value) {}
  /// The literal's value.
  int64_t getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IntLit; }

private:
  int64_t value;
};

/// A floating-point literal; keeps its spelling for faithful printing.
class FloatLitExpr : public Expr {
public:
  FloatLitExpr(llvm::SMRange range, double value, std::string spelling)
      : Expr(Kind::FloatLit, range), value(value),
        spelling(std::move(spelling)) {}
  /// The literal's value (as a double).
  double getValue() const { return value; }
  /// The literal exactly as written in the source (e.g. "0.2860").
  llvm::StringRef getSpelling() const { return spelling; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::FloatLit; }

private:
  double value;
  std::string spelling;
};

/// A string literal with its escapes already decoded.
class StringLitExpr : public Expr {
public:
  StringLitExpr(llvm::SMRange range, std::string value)
      : Expr(Kind::StringLit, range), value(std::move(value)) {}
  /// The decoded string value (without quotes, escapes resolved).
  llvm::StringRef getValue() const { return value; }
  static bool classof(const Expr *e) {
    return e->getKind() == Kind::StringLit;
  }

private:
  std::string value;
};

/// `true` or `false`.
class BoolLitExpr : public Expr {
public:
  BoolLitExpr(llvm::SMRange range, bool value)
      : Expr(Kind::BoolLit, range), value(value) {}
  /// The literal's value.
  bool getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolLit; }

private:
  bool value;
};

/// A reference to a name: a variable, a function, a module alias, a metric...
class NameExpr : public Expr {
public:
  NameExpr(llvm::SMRange range, std::string name)
      : Expr(Kind::Name, range), name(std::move(name)) {}
  /// The identifier.
  llvm::StringRef getName() const { return name; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  std::string name;
};

/// Member access `base.name`, e.g. `nn.conv2d` (base is NameExpr "nn").
class MemberExpr : public Expr {
public:
  MemberExpr(llvm::SMRange range, ExprPtr base, std::string name,
             llvm::SMRange nameRange)
      : Expr(Kind::Member, range), base(std::move(base)),
        name(std::move(name)), nameRange(nameRange) {}
  /// The expression left of the '.'.
  const Expr &getBase() const { return *base; }
  /// The member name right of the '.'.
  llvm::StringRef getName() const { return name; }
  /// Source range of the member name only.
  llvm::SMRange getNameRange() const { return nameRange; }
  /// If the base is a chain of names (`a.b.c`), the full dotted path;
  /// otherwise std::nullopt.
  std::optional<std::string> getDottedPath() const;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Member; }

private:
  ExprPtr base;
  std::string name;
  llvm::SMRange nameRange;
};

/// One argument of a call: positional (no keyword) or `keyword = value`.
struct Arg {
  /// The keyword; empty for a positional argument.
  std::string keyword;
  /// Range of the keyword (invalid for a positional argument).
  llvm::SMRange keywordRange;
  /// The argument's value.
  ExprPtr value;

  /// True for `keyword = value` arguments.
  bool isKeyword() const { return !keyword.empty(); }
  /// The range of the whole argument (keyword included).
  llvm::SMRange getRange() const;
};

/// A call `callee(args...)`. The parser guarantees that every positional
/// argument precedes every keyword argument and that keywords are unique.
class CallExpr : public Expr {
public:
  CallExpr(llvm::SMRange range, ExprPtr callee, std::vector<Arg> args,
           llvm::SMLoc lParenLoc)
      : Expr(Kind::Call, range), callee(std::move(callee)),
        args(std::move(args)), lParenLoc(lParenLoc) {}
  /// The called expression (usually a NameExpr or MemberExpr).
  const Expr &getCallee() const { return *callee; }
  /// All arguments, positional ones first.
  llvm::ArrayRef<Arg> getArgs() const { return args; }
  /// Location of the '(' that opens the argument list.
  llvm::SMLoc getLParenLoc() const { return lParenLoc; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  ExprPtr callee;
  std::vector<Arg> args;
  llvm::SMLoc lParenLoc;
};

/// A pipe `lhs |> rhs`. The rhs is a NameExpr, MemberExpr or CallExpr
/// (checked by the parser). `x |> f(a, k=1)` means `f(x, a, k=1)` and
/// `x |> relu` means `relu(x)`; the node is kept as written so diagnostics
/// can point at the pipe.
class PipeExpr : public Expr {
public:
  PipeExpr(llvm::SMRange range, ExprPtr lhs, ExprPtr rhs, llvm::SMLoc opLoc)
      : Expr(Kind::Pipe, range), lhs(std::move(lhs)), rhs(std::move(rhs)),
        opLoc(opLoc) {}
  /// The value piped in (becomes the first argument).
  const Expr &getLHS() const { return *lhs; }
  /// The function (name, member path or call) receiving the value.
  const Expr &getRHS() const { return *rhs; }
  /// Location of the `|>` operator.
  llvm::SMLoc getOpLoc() const { return opLoc; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Pipe; }

private:
  ExprPtr lhs, rhs;
  llvm::SMLoc opLoc;
};

/// Binary operators, in the language's notation.
enum class BinaryOp {
  Add,    ///< +
  Sub,    ///< -
  Mul,    ///< *
  Div,    ///< /
  MatMul, ///< @
  Pow,    ///< **
  Eq,     ///< ==
  Ne,     ///< !=
  Lt,     ///< <
  Le,     ///< <=
  Gt,     ///< >
  Ge,     ///< >=
};

/// The source spelling of a binary operator ("+", "@", "**", ...).
llvm::StringRef getBinaryOpSpelling(BinaryOp op);

/// A binary operation `lhs op rhs`.
class BinaryExpr : public Expr {
public:
  BinaryExpr(llvm::SMRange range, BinaryOp op, ExprPtr lhs, ExprPtr rhs,
             llvm::SMLoc opLoc)
      : Expr(Kind::Binary, range), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)), opLoc(opLoc) {}
  /// The operator.
  BinaryOp getOp() const { return op; }
  /// Left operand.
  const Expr &getLHS() const { return *lhs; }
  /// Right operand.
  const Expr &getRHS() const { return *rhs; }
  /// Location of the operator token.
  llvm::SMLoc getOpLoc() const { return opLoc; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }

private:
  BinaryOp op;
  ExprPtr lhs, rhs;
  llvm::SMLoc opLoc;
};

/// Unary negation `-operand` (the only unary operator).
class UnaryExpr : public Expr {
public:
  UnaryExpr(llvm::SMRange range, ExprPtr operand)
      : Expr(Kind::Unary, range), operand(std::move(operand)) {}
  /// The negated expression.
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }

private:
  ExprPtr operand;
};

/// A list literal `[a, b, c]` (e.g. `metrics = [accuracy]`).
class ListExpr : public Expr {
public:
  ListExpr(llvm::SMRange range, std::vector<ExprPtr> elements)
      : Expr(Kind::List, range), elements(std::move(elements)) {}
  /// The elements in order.
  llvm::ArrayRef<ExprPtr> getElements() const { return elements; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }

private:
  std::vector<ExprPtr> elements;
};

/// One entry of a subscript `x[...]`: an integer index (`-1`), a slice
/// (`a:b:c`, each part optional) or `...` (all the dimensions not named).
struct IndexItem {
  /// What the entry is.
  enum class Kind { Index, Slice, Ellipsis };
  Kind kind = Kind::Index;
  /// The index (Kind::Index only).
  ExprPtr index;
  /// The slice's start, stop and step (Kind::Slice only; null when omitted).
  ExprPtr start, stop, step;
  /// Source range of the entry.
  llvm::SMRange range;
};

/// A subscript `base[items...]`: indexing and slicing of a tensor.
class IndexExpr : public Expr {
public:
  IndexExpr(llvm::SMRange range, ExprPtr base, std::vector<IndexItem> items,
            llvm::SMLoc lBracketLoc)
      : Expr(Kind::Index, range), base(std::move(base)),
        items(std::move(items)), lBracketLoc(lBracketLoc) {}
  /// The subscripted expression.
  const Expr &getBase() const { return *base; }
  /// The entries between the brackets, in order (at least one).
  llvm::ArrayRef<IndexItem> getItems() const { return items; }
  /// Location of the '[' that opens the subscript.
  llvm::SMLoc getLBracketLoc() const { return lBracketLoc; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Index; }

private:
  ExprPtr base;
  std::vector<IndexItem> items;
  llvm::SMLoc lBracketLoc;
};

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// One dimension of a shape: `...`, a symbolic name (`B`) or a constant.
struct Dim {
  /// What the dimension is.
  enum class Kind { Ellipsis, Symbol, Constant };
  Kind kind;
  /// The symbol's name (Kind::Symbol only).
  std::string name;
  /// The constant's value (Kind::Constant only).
  int64_t value = 0;
  /// Source range of the dimension.
  llvm::SMRange range;
};

/// A type as written: `f32[B, 1, 28, 28]`, the scalar `f32`, or a bare name
/// such as `N` or `int` (a parameter `out: N` binds the dimension variable N).
struct TypeRef {
  /// The base name (`f32`, `int`, `N`, ...).
  std::string name;
  /// Range of the base name.
  llvm::SMRange nameRange;
  /// True when a `[...]` shape was written (then `dims` is non-empty).
  bool hasShape = false;
  /// The dimensions, in order (empty when !hasShape).
  std::vector<Dim> dims;
  /// The whole type's range (name through the closing ']').
  llvm::SMRange range;

  /// The type in source notation, normalised: "f32[B, 1, 28, 28]".
  std::string str() const;
};

} // namespace modelc

#endif // MODELC_FRONTEND_ASTEXPR_H
