//===- AST.h - Abstract syntax tree of the modelc language ------*- C++ -*-===//
//
// The AST produced by the parser: expressions and types (ASTExpr.h),
// statements and the four kinds of top-level declarations (fn, model, data,
// train), plus the Module that owns them. Every node carries the llvm::SMRange of the source text it
// came from (later turned into MLIR FileLineColLoc). Nodes are owned through
// std::unique_ptr and use LLVM-style RTTI (getKind() + classof), so clients
// use llvm::isa / llvm::dyn_cast / llvm::cast on them.
//
// The front end knows no MLIR: this header depends only on LLVM Support.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_AST_H
#define MODELC_FRONTEND_AST_H

#include "modelc/Frontend/ASTExpr.h"

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
// Statements (inside fn / model bodies)
//===----------------------------------------------------------------------===//

/// Base class of the statements of a fn or model body.
class Stmt {
public:
  /// The concrete kind of a statement, for LLVM-style RTTI.
  enum class Kind {
    Let,    ///< name = expr
    Param,  ///< param name: type = init
    Return, ///< return expr
  };

  virtual ~Stmt() = default;
  /// The kind of this node.
  Kind getKind() const { return kind; }
  /// The source text this statement covers.
  llvm::SMRange getRange() const { return range; }
  /// The first character of the statement.
  llvm::SMLoc getLoc() const { return range.Start; }

protected:
  Stmt(Kind kind, llvm::SMRange range) : kind(kind), range(range) {}

private:
  Kind kind;
  llvm::SMRange range;
};

/// Owning pointer to a statement.
using StmtPtr = std::unique_ptr<Stmt>;

/// `name = value`: binds (or rebinds) a local name.
class LetStmt : public Stmt {
public:
  LetStmt(llvm::SMRange range, std::string name, llvm::SMRange nameRange,
          ExprPtr value)
      : Stmt(Kind::Let, range), name(std::move(name)), nameRange(nameRange),
        value(std::move(value)) {}
  /// The bound name.
  llvm::StringRef getName() const { return name; }
  /// Range of the name.
  llvm::SMRange getNameRange() const { return nameRange; }
  /// The bound value.
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Let; }

private:
  std::string name;
  llvm::SMRange nameRange;
  ExprPtr value;
};

/// `param name: type = init`: a trainable parameter and its initialiser.
class ParamStmt : public Stmt {
public:
  ParamStmt(llvm::SMRange range, std::string name, llvm::SMRange nameRange,
            TypeRef type, ExprPtr init)
      : Stmt(Kind::Param, range), name(std::move(name)), nameRange(nameRange),
        type(std::move(type)), init(std::move(init)) {}
  /// The parameter's name.
  llvm::StringRef getName() const { return name; }
  /// Range of the name.
  llvm::SMRange getNameRange() const { return nameRange; }
  /// The declared type.
  const TypeRef &getType() const { return type; }
  /// The initialiser expression (e.g. `kaiming_uniform(fan_in=I)`).
  const Expr &getInit() const { return *init; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Param; }

private:
  std::string name;
  llvm::SMRange nameRange;
  TypeRef type;
  ExprPtr init;
};

/// `return value`.
class ReturnStmt : public Stmt {
public:
  ReturnStmt(llvm::SMRange range, ExprPtr value)
      : Stmt(Kind::Return, range), value(std::move(value)) {}
  /// The returned value.
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

private:
  ExprPtr value;
};

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

/// A parameter of a fn or model signature: `name: type [= default]`.
struct Param {
  /// The parameter's name.
  std::string name;
  /// Range of the name.
  llvm::SMRange nameRange;
  /// The declared type.
  TypeRef type;
  /// The default value, or nullptr.
  ExprPtr defaultValue;
  /// The whole parameter's range.
  llvm::SMRange range;
};

/// A `name = value` entry of a data or train block.
struct Field {
  /// The field's name (`root`, `optimizer`, `epochs`, ...).
  std::string name;
  /// Range of the name.
  llvm::SMRange nameRange;
  /// The field's value.
  ExprPtr value;
  /// The whole entry's range.
  llvm::SMRange range;
};

/// Base class of the top-level declarations.
class Decl {
public:
  /// The concrete kind of a declaration, for LLVM-style RTTI.
  enum class Kind { Fn, Model, Data, Train };

  virtual ~Decl() = default;
  /// The kind of this node.
  Kind getKind() const { return kind; }
  /// The declared name (for train: the model's name).
  llvm::StringRef getName() const { return name; }
  /// Range of the declared name.
  llvm::SMRange getNameRange() const { return nameRange; }
  /// The whole declaration's range (keyword through closing '}').
  llvm::SMRange getRange() const { return range; }
  /// The declaration's first character (its keyword).
  llvm::SMLoc getLoc() const { return range.Start; }

protected:
  Decl(Kind kind, llvm::SMRange range, std::string name,
       llvm::SMRange nameRange)
      : kind(kind), name(std::move(name)), nameRange(nameRange),
        range(range) {}

private:
  Kind kind;
  std::string name;
  llvm::SMRange nameRange;
  llvm::SMRange range;
};

/// Owning pointer to a declaration.
using DeclPtr = std::unique_ptr<Decl>;

/// `fn` and `model` declarations share one shape: a signature and a body.
/// A `model` is a function that can be trained (the entry point of `train`).
class FuncDecl : public Decl {
public:
  FuncDecl(Kind kind, llvm::SMRange range, std::string name,
           llvm::SMRange nameRange, std::vector<Param> params,
           std::optional<TypeRef> resultType, std::vector<StmtPtr> body)
      : Decl(kind, range, std::move(name), nameRange),
        params(std::move(params)), resultType(std::move(resultType)),
        body(std::move(body)) {}
  /// True for `model`, false for `fn`.
  bool isModel() const { return getKind() == Kind::Model; }
  /// The signature's parameters.
  llvm::ArrayRef<Param> getParams() const { return params; }
  /// The declared result type (`-> type`), if any.
  const std::optional<TypeRef> &getResultType() const { return resultType; }
  /// The body's statements in order.
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }
  static bool classof(const Decl *d) {
    return d->getKind() == Kind::Fn || d->getKind() == Kind::Model;
  }

private:
  std::vector<Param> params;
  std::optional<TypeRef> resultType;
  std::vector<StmtPtr> body;
};

/// `data Name { field = expr ... }`: a data set description.
class DataDecl : public Decl {
public:
  DataDecl(llvm::SMRange range, std::string name, llvm::SMRange nameRange,
           std::vector<Field> fields)
      : Decl(Kind::Data, range, std::move(name), nameRange),
        fields(std::move(fields)) {}
  /// The fields in source order (names may repeat; sema decides).
  llvm::ArrayRef<Field> getFields() const { return fields; }
  static bool classof(const Decl *d) { return d->getKind() == Kind::Data; }

private:
  std::vector<Field> fields;
};

/// `train Model on Data { field = expr ... }`: a training configuration.
/// getName() is the model's name.
class TrainDecl : public Decl {
public:
  TrainDecl(llvm::SMRange range, std::string modelName,
            llvm::SMRange modelRange, std::string dataName,
            llvm::SMRange dataRange, std::vector<Field> fields)
      : Decl(Kind::Train, range, std::move(modelName), modelRange),
        dataName(std::move(dataName)), dataRange(dataRange),
        fields(std::move(fields)) {}
  /// The trained model's name (same as getName()).
  llvm::StringRef getModelName() const { return getName(); }
  /// The data set's name (after `on`).
  llvm::StringRef getDataName() const { return dataName; }
  /// Range of the data set's name.
  llvm::SMRange getDataRange() const { return dataRange; }
  /// The fields in source order.
  llvm::ArrayRef<Field> getFields() const { return fields; }
  static bool classof(const Decl *d) { return d->getKind() == Kind::Train; }

private:
  std::string dataName;
  llvm::SMRange dataRange;
  std::vector<Field> fields;
};

/// `import a.b [as c]`.
struct Import {
  /// The dotted path's segments (`nn` -> {"nn"}).
  std::vector<std::string> path;
  /// The alias after `as`; empty when none.
  std::string alias;
  /// The whole import's range.
  llvm::SMRange range;

  /// The path joined with '.'.
  std::string getDottedPath() const;
  /// The name the import binds: the alias, else the last path segment.
  llvm::StringRef getBoundName() const {
    return alias.empty() ? llvm::StringRef(path.back()) : alias;
  }
};

/// One parsed source file.
class Module {
public:
  Module(std::string fileName, unsigned bufferId)
      : fileName(std::move(fileName)), bufferId(bufferId) {}
  /// The file name as given to the SourceMgr.
  llvm::StringRef getFileName() const { return fileName; }
  /// The file's buffer id in the llvm::SourceMgr.
  unsigned getBufferId() const { return bufferId; }
  /// The imports, in order.
  llvm::ArrayRef<Import> getImports() const { return imports; }
  /// The declarations, in order.
  llvm::ArrayRef<DeclPtr> getDecls() const { return decls; }
  /// Appends an import (used by the parser).
  void addImport(Import import) { imports.push_back(std::move(import)); }
  /// Appends a declaration (used by the parser).
  void addDecl(DeclPtr decl) { decls.push_back(std::move(decl)); }

private:
  std::string fileName;
  unsigned bufferId;
  std::vector<Import> imports;
  std::vector<DeclPtr> decls;
};

} // namespace modelc

#endif // MODELC_FRONTEND_AST_H
