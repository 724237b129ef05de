//===- Analysis.h - One analysed version of a .model document ---*- C++ -*-===//
//
// What the language server knows about one version of a document: the
// compiler's diagnostics (captured, not printed), the parsed module, the
// checked program (kept even when there are errors, with what did check),
// the modules it imports, and two indexes over them: the names (each
// definition and every occurrence that refers to it) and the values (the
// inferred type at each pipeline stage, call, operator and binding).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LSP_ANALYSIS_H
#define MODELC_LSP_ANALYSIS_H

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Token.h"
#include "modelc/Sema/DataCache.h"
#include "modelc/Sema/Program.h"

#include "llvm/Support/SourceMgr.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace modelc {
namespace lsp {

/// A module the document imports, parsed on its own (for definitions and
/// the documentation of its functions).
struct ImportedModule {
  /// The name the import binds (`nn`).
  std::string boundName;
  /// The file it was read from.
  std::string path;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<Module> ast;
  std::vector<Comment> comments;

  /// The `//` comment lines right above `decl`, without the slashes.
  std::string docComment(const Decl &decl) const;
};

/// What a name denotes.
enum class DefKind {
  Model,
  Fn,
  Data,
  Train,
  Let,
  Param,
  Input,
  Field,
  Import,
  ImportedFn
};

/// A definition of a name.
struct Definition {
  DefKind kind;
  std::string name;
  /// The name's range, and the whole construct's (in the main file, or in
  /// `module`'s file for ImportedFn).
  llvm::SMRange nameRange, fullRange;
  /// The declaration (Model, Fn, Data, Train, ImportedFn).
  const Decl *decl = nullptr;
  /// The module (Import, ImportedFn).
  const ImportedModule *module = nullptr;
};

/// A name written in the document and the definition it refers to.
struct Occurrence {
  llvm::SMRange range;
  /// Index into SymbolIndex::defs.
  unsigned def;
};

/// Where a value is computed, as a hover or an inlay hint shows it.
enum class SiteKind { Stage, Call, Operator, Binding };

/// A place of the document whose value has an inferred type.
struct ValueSite {
  SiteKind kind;
  /// The text a hover on which shows this value.
  llvm::SMRange range;
  /// The location under which the type index knows the value.
  llvm::SMLoc key;
  /// Where an inlay hint goes (invalid: no hint).
  llvm::SMLoc hintAt;
  /// The callee as written (Stage, Call), or the bound name (Binding).
  std::string label;
};

/// The names and value sites of the main file (from its AST alone).
struct SymbolIndex {
  std::vector<Definition> defs;
  std::vector<Occurrence> occurrences;
  std::vector<ValueSite> sites;
};

/// One inferred type of a value site: one per instantiation of the
/// enclosing function (a model's body has exactly one).
struct TypeAt {
  std::string type;
  /// The enclosing instance ("block_0"), empty in a model's body.
  std::string context;
  /// The graph and node that computes it.
  unsigned graph = 0, node = 0;
};

/// A parameter of a layer call.
struct LayerParam {
  std::string name, type;
  int64_t count = 0;
};

/// The program's inferred types by source location (main file only).
struct TypeIndex {
  std::map<const char *, std::vector<TypeAt>> byLoc;
  /// The types known at `loc` (empty when none).
  llvm::ArrayRef<TypeAt> lookup(llvm::SMLoc loc) const;
};

/// Where imports are searched.
struct AnalysisOptions {
  /// The -I directories, then the standard library (last).
  std::vector<std::string> importPath;
  /// How many of importPath are -I directories (the rest: the stdlib).
  size_t numIncludeDirs = 0;
  /// Data blocks checked by earlier analyses (null: none kept).
  sema::DataCache *dataCache = nullptr;
};

/// The texts of the other open documents, by the real path of their file:
/// an import of one of them reads its unsaved text, not the file.
using OpenTexts = std::map<std::string, std::string>;

/// One analysed version of a document.
class Analysis {
public:
  /// Analyses `text`, the content of the file at `path`; imports of the
  /// files in `open` read their text there.
  static std::unique_ptr<Analysis> run(llvm::StringRef path,
                                       llvm::StringRef text,
                                       const AnalysisOptions &options,
                                       const OpenTexts &open = {});

  llvm::SourceMgr sourceMgr;
  unsigned mainBuffer = 0;
  std::unique_ptr<Module> module;
  /// False when the file has syntax errors (module is then partial).
  bool parsed = false;
  /// The checked program, possibly partial; null when not analysed.
  std::unique_ptr<sema::Program> program;
  /// Every diagnostic, in the order the compiler reported them.
  std::vector<llvm::SMDiagnostic> diagnostics;
  std::vector<std::unique_ptr<ImportedModule>> imports;
  SymbolIndex symbols;
  TypeIndex types;

  /// The location of a 0-based (line, character) in the main file, or an
  /// invalid one when outside it.
  llvm::SMLoc locAt(int line, int character) const;
  /// The occurrence or definition name at `loc`: the definition's index.
  std::optional<unsigned> definitionAt(llvm::SMLoc loc) const;
  /// The value site at `loc` (the innermost), or null.
  const ValueSite *siteAt(llvm::SMLoc loc) const;
  /// The parameters of the layer call at `key` (a call site), summed over
  /// the instance and the instances it calls, per instantiation of the
  /// enclosing code (first one only).
  std::vector<LayerParam> layerParams(llvm::SMLoc key) const;
};

/// The source text `range` covers; empty for an invalid or reversed range
/// (a partial AST after syntax errors may hold one).
llvm::StringRef textOf(llvm::SMRange range);

/// Fills analysis.symbols from its AST (SymbolIndex.cpp).
void buildSymbolIndex(Analysis &analysis);
/// Fills analysis.types from its checked program (TypeIndex.cpp).
void buildTypeIndex(Analysis &analysis);

} // namespace lsp
} // namespace modelc

#endif // MODELC_LSP_ANALYSIS_H
