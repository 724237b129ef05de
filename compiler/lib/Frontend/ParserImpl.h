//===- ParserImpl.h - The parser's internal state ---------------*- C++ -*-===//
//
// Private to lib/Frontend: the recursive-descent parser class shared by
// Parser.cpp (declarations, statements, types, recovery) and ParseExpr.cpp
// (expressions). Parse functions return nullptr / false after reporting an
// error; callers recover by resynchronising.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_FRONTEND_PARSERIMPL_H
#define MODELC_LIB_FRONTEND_PARSERIMPL_H

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Frontend/Lexer.h"

#include <deque>

namespace modelc {
namespace detail {

/// Which kind of block a statement is parsed in.
enum class BlockKind { Function, Data, Train };

/// Recursive-descent parser over a Lexer with unbounded lookahead.
class ParserImpl {
public:
  /// Parses buffer `bufferId`; comments go to `comments` when it is given.
  ParserImpl(DiagnosticEngine &diags, unsigned bufferId,
             std::vector<Comment> *comments = nullptr);

  /// Parses the whole buffer.
  std::unique_ptr<Module> parseModule();

  // ---- Expressions (ParseExpr.cpp) ----
  ExprPtr parseExpr();

private:
  ExprPtr parseCompare();
  ExprPtr parseAdditive();
  ExprPtr parseTerm();
  ExprPtr parseUnary();
  ExprPtr parsePower();
  ExprPtr parsePostfix();
  ExprPtr parsePrimary();
  ExprPtr parseCall(ExprPtr callee);
  bool parseArg(std::vector<Arg> &args);
  /// Parses `base[...]`; the current token is the '['.
  ExprPtr parseSubscript(ExprPtr base);
  /// Parses one subscript entry (index, slice or `...`) into `items`.
  bool parseIndexItem(std::vector<IndexItem> &items);
  ExprPtr parseParenOrList();
  ExprPtr parsePipeTarget();
  bool enterNesting();

  // ---- Declarations and types (Parser.cpp), blocks (ParseStmt.cpp) ----
  bool parseImport(Module &module, bool afterDecl);
  DeclPtr parseDecl();
  DeclPtr parseFuncDecl();
  DeclPtr parseDataOrTrainDecl();
  bool parseSignature(std::vector<Param> &params,
                      std::optional<TypeRef> &result);
  bool parseParam(std::vector<Param> &params);
  bool parseType(TypeRef &type, llvm::StringRef context);
  bool parseDim(TypeRef &type, llvm::SMLoc &ellipsisLoc);
  bool parseBlock(BlockKind kind, llvm::StringRef owner,
                  std::vector<StmtPtr> *stmts, std::vector<Field> *fields);
  StmtPtr parseStmt(BlockKind kind);
  StmtPtr parseParamStmt(llvm::SMLoc start);
  bool parseTrainHeader(const std::string &model, std::string &dataName,
                        llvm::SMRange &dataRange);
  bool parseField(std::vector<Field> &fields);
  bool rejectMisplacedStmt(BlockKind kind);
  void skipNestedDecl();
  void syncStatement();
  void syncTopLevel();
  bool atStatementStart();

  // ---- Token helpers (Parser.cpp) ----
  const Token &peek(unsigned n = 1);
  void consume();
  bool consumeIf(TokenKind kind);
  /// Reports "expected <what>, found <tok>" at the current token.
  void errorExpected(const llvm::Twine &what);
  /// Reports `expected '<close>' to close <what>, found <tok>` plus a note
  /// at the opening delimiter.
  void errorUnclosed(TokenKind close, const llvm::Twine &what,
                     llvm::SMLoc open);
  llvm::SMRange rangeFrom(llvm::SMLoc start) const {
    return llvm::SMRange(start, prevEnd);
  }

  DiagnosticEngine &diags;
  unsigned bufferId;
  Lexer lexer;
  /// The current token.
  Token tok;
  /// Tokens lexed ahead of `tok`.
  std::deque<Token> ahead;
  /// End of the last consumed token.
  llvm::SMLoc prevEnd;
  /// Number of tokens consumed so far (used to guarantee progress).
  uint64_t consumed = 0;
  /// Current expression nesting (bounded to keep the stack safe).
  unsigned nesting = 0;
  /// Set by a call or a subscript before it parses an argument or entry,
  /// whose level it has counted: the next parseExpr counts none.
  bool levelCounted = false;
};

/// Maximum expression nesting (ParseExpr.cpp says what counts a level).
constexpr unsigned kMaxNesting = 256;

/// Restores the parser's nesting level on scope exit.
class NestingScope {
public:
  explicit NestingScope(unsigned &nesting) : nesting(nesting), saved(nesting) {}
  ~NestingScope() { nesting = saved; }

private:
  unsigned &nesting;
  unsigned saved;
};

} // namespace detail
} // namespace modelc

#endif // MODELC_LIB_FRONTEND_PARSERIMPL_H
