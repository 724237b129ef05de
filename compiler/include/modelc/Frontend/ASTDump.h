//===- ASTDump.h - Readable dump of the AST and of tokens -------*- C++ -*-===//
//
// The text printed by `modelc --emit=ast` and `modelc --emit=tokens`: an
// indented tree with `@line:col` on every node, and one token per line.
// The format is user-facing and tested with FileCheck; keep it stable.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_ASTDUMP_H
#define MODELC_FRONTEND_ASTDUMP_H

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Token.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace modelc {

/// Prints `module` as an indented tree (two spaces per level).
void dumpAST(const Module &module, const llvm::SourceMgr &sourceMgr,
             llvm::raw_ostream &os);

/// Prints one line per token: `kind 'spelling' @line:col`, followed by
/// ` bol` when the token is the first on its line.
void dumpTokens(llvm::ArrayRef<Token> tokens,
                const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

} // namespace modelc

#endif // MODELC_FRONTEND_ASTDUMP_H
