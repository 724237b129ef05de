//===- Printer.h - The formatter's walk over the AST ------------*- C++ -*-===//
//
// Private to lib/Format: prints a Module in the canonical layout through a
// Writer. PrintDecl.cpp holds declarations, statements, fields and their
// alignment; PrintExpr.cpp expressions and types. Line breaks the author
// made at a break point (after ',', '(', '[' or '=', around an operator or
// before '->', around `|>`) are kept; a pipeline written on one line that
// does not fit in the width is broken before every `|>`; every other line
// break and space is the canonical one.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_FORMAT_PRINTER_H
#define MODELC_LIB_FORMAT_PRINTER_H

#include "Writer.h"

#include "modelc/Format/Format.h"
#include "modelc/Frontend/AST.h"

#include <functional>

namespace modelc {
namespace format {

/// Padding of an aligned item: the widths its name (and, for `param`, its
/// type) are padded to; zero means not aligned.
struct Align {
  unsigned name = 0;
  unsigned type = 0;
};

/// How an item takes part in a run of aligned items.
enum class ItemKind {
  /// Aligned with its neighbours when it fits on one line.
  Candidate,
  /// Not aligned, and the run goes on across it (a line of several fields).
  Transparent,
  /// Not aligned, and it ends the run (a statement other than `param`).
  Breaks,
};

/// Prints AST nodes through a Writer.
class Printer {
public:
  /// In `flat` mode nothing is broken (used to measure an expression).
  Printer(Writer &writer, const FormatOptions &options, bool flat = false)
      : w(writer), options(options), flat(flat) {}

  /// Prints the whole module and finishes the text.
  void printModule(const Module &module);
  /// Prints `expr`, parenthesised when the source had parentheses or when
  /// its precedence is below `minLevel`.
  void printExpr(const Expr &expr, unsigned minLevel = 0);

private:
  // ---- Declarations (PrintDecl.cpp) ----
  void printImport(const Import &import);
  void printDecl(const Decl &decl);
  void printFunc(const FuncDecl &func);
  void printSignature(const FuncDecl &func);
  void printBlock(llvm::SMLoc closeLoc, bool hasItems,
                  const std::function<void(unsigned)> &items);
  void printStmts(llvm::ArrayRef<StmtPtr> body, unsigned indent);
  void printStmt(const Stmt &stmt, Align align);
  void printFields(llvm::ArrayRef<Field> fields, unsigned indent);
  void printField(const Field &field, unsigned pad);
  void printAssigned(llvm::SMLoc after, const Expr &value);

  // ---- Alignment (Align.cpp) ----
  /// The padding of `count` items: runs of Candidate items (ended by a
  /// Breaks item or where `breaksBefore(i)` holds) are padded to their
  /// widest `widths`, leaving out items that `print` would spread over
  /// several lines (tried on a copy of the writer).
  std::vector<Align>
  alignRuns(size_t count, const std::function<bool(size_t)> &breaksBefore,
            const std::function<ItemKind(size_t)> &kind,
            const std::function<Align(size_t)> &widths,
            const std::function<void(size_t, Align)> &print);
  /// True when `print(i, align)` writes more than one line.
  bool spansLines(size_t i, Align align,
                  const std::function<void(size_t, Align)> &print);
  /// True when a blank line or a comment line separates two items.
  bool runBreak(llvm::SMLoc prevEnd, llvm::SMLoc nextStart) const;

  // ---- Expressions and types (PrintExpr.cpp) ----
  void printType(const TypeRef &type);
  void printLeaf(const Expr &expr);
  void printCall(const CallExpr &call);
  void printArg(const Arg &arg);
  void printPipe(const PipeExpr &pipe);
  void printBinary(const BinaryExpr &binary);
  void printList(const ListExpr &list);
  void printIndex(const IndexExpr &index);
  void printIndexItem(const IndexItem &item);
  void openBracket(llvm::StringRef text, llvm::SMLoc loc, llvm::SMLoc first);
  void closeBracket(llvm::StringRef text, llvm::SMLoc loc);
  void separate(llvm::SMLoc prevEnd, llvm::SMLoc nextStart);
  /// Writes the comments before `next`, then ends the line when the source
  /// breaks it between `prevEnd` (or the last comment) and `next`, or else
  /// puts a space.
  void keepBreak(llvm::SMLoc prevEnd, llvm::SMLoc next);
  unsigned flatWidth(const Expr &expr, unsigned minLevel);

  Writer &w;
  const FormatOptions &options;
  bool flat;
};

/// Where an expression starts and ends in the source, parentheses included.
llvm::SMLoc exprStart(const Expr &expr);
/// One past the expression's last character, parentheses included.
llvm::SMLoc exprEnd(const Expr &expr);

} // namespace format
} // namespace modelc

#endif // MODELC_LIB_FORMAT_PRINTER_H
