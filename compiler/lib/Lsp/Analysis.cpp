//===- Analysis.cpp - Analysing one version of a document -----------------===//
//
// Parses the document, loads the modules it imports (for definitions and
// documentation; an open document's unsaved text rather than its file),
// runs semantic analysis keeping the partial program, and
// captures every diagnostic through the SourceMgr's handler instead of
// printing it. Also the position queries over the result.
//
//===----------------------------------------------------------------------===//

#include "modelc/Lsp/Analysis.h"

#include "Utf16.h"

#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Frontend/Lexer.h"
#include "modelc/Frontend/Parser.h"
#include "modelc/Frontend/SearchPath.h"
#include "modelc/Frontend/SourceFile.h"
#include "modelc/Sema/Sema.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace modelc;
using namespace modelc::lsp;

std::string ImportedModule::docComment(const Decl &decl) const {
  // Comments ending on the lines right above the declaration, bottom up.
  unsigned line = sourceMgr.getLineAndColumn(decl.getLoc()).first;
  std::vector<std::string> lines;
  for (auto it = comments.rbegin(); it != comments.rend(); ++it) {
    unsigned end = sourceMgr.getLineAndColumn(it->range.Start).first;
    if (end >= line)
      continue;
    if (end + 1 != line || it->isBlock || !it->ownLine)
      break;
    llvm::StringRef text = textOf(it->range);
    lines.insert(lines.begin(), text.drop_front(2).trim().str());
    line = end;
  }
  std::string doc;
  for (const std::string &l : lines)
    doc += (doc.empty() || l.empty() ? "" : " ") + l;
  return doc;
}

llvm::StringRef lsp::textOf(llvm::SMRange range) {
  if (!range.Start.isValid() || !range.End.isValid() ||
      range.End.getPointer() < range.Start.getPointer())
    return "";
  return llvm::StringRef(range.Start.getPointer(),
                         range.End.getPointer() - range.Start.getPointer());
}

/// The text of the module at `path` among the open documents, compared by
/// real path; none when it is not open.
static std::optional<std::string> openText(const OpenTexts &open,
                                           llvm::StringRef path) {
  if (open.empty())
    return std::nullopt;
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real))
    return std::nullopt;
  auto it = open.find(real.str().str());
  return it == open.end() ? std::nullopt : std::optional(it->second);
}

/// The module at `path`: its open document's text (as the editor has it),
/// else the file's, without a byte-order mark (as an editor shows it).
static std::unique_ptr<llvm::MemoryBuffer> readModule(const OpenTexts &open,
                                                      llvm::StringRef path) {
  if (std::optional<std::string> text = openText(open, path))
    return llvm::MemoryBuffer::getMemBufferCopy(*text, path);
  auto file = readSourceFile(path);
  if (!file) {
    llvm::consumeError(file.takeError());
    return nullptr;
  }
  return withoutByteOrderMark(std::move(*file));
}

/// Parses the module that `imp` names, searched in `search`; null when it
/// cannot be found or read (sema reports that).
static std::unique_ptr<ImportedModule>
loadImport(const Import &imp, llvm::ArrayRef<std::string> search,
           const OpenTexts &open) {
  std::optional<std::string> found = resolveImport(imp.path, search);
  if (!found)
    return nullptr;
  auto buffer = readModule(open, *found);
  if (!buffer)
    return nullptr;
  auto m = std::make_unique<ImportedModule>();
  m->boundName = imp.getBoundName().str();
  m->path = *found;
  unsigned id =
      m->sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  m->sourceMgr.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  llvm::raw_null_ostream null;
  DiagnosticEngine diags(m->sourceMgr, null);
  m->ast = parseModule(diags, id, &m->comments);
  return m;
}

/// The import search path of `path`, in sema's order: the -I directories,
/// the file's directory, the standard library.
static std::vector<std::string> searchPathOf(llvm::StringRef path,
                                             const AnalysisOptions &options) {
  size_t n = std::min(options.numIncludeDirs, options.importPath.size());
  std::vector<std::string> search(options.importPath.begin(),
                                  options.importPath.begin() + n);
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  search.push_back(dir.empty() ? "." : dir.str());
  search.insert(search.end(), options.importPath.begin() + n,
                options.importPath.end());
  return search;
}

std::unique_ptr<Analysis> Analysis::run(llvm::StringRef path,
                                        llvm::StringRef text,
                                        const AnalysisOptions &options,
                                        const OpenTexts &open) {
  auto a = std::make_unique<Analysis>();
  a->mainBuffer = a->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, path), llvm::SMLoc());
  a->sourceMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *context) {
        static_cast<Analysis *>(context)->diagnostics.push_back(d);
      },
      a.get());
  llvm::raw_null_ostream null;
  DiagnosticEngine diags(a->sourceMgr, null);
  a->module = parseModule(diags, a->mainBuffer);
  a->parsed = !diags.hasErrors();
  std::vector<std::string> search = searchPathOf(path, options);
  for (const Import &imp : a->module->getImports())
    if (!imp.path.empty())
      if (auto m = loadImport(imp, search, open))
        a->imports.push_back(std::move(m));
  if (a->parsed) {
    SemaOptions semaOptions;
    size_t n = std::min(options.numIncludeDirs, options.importPath.size());
    semaOptions.includeDirs.assign(options.importPath.begin(),
                                   options.importPath.begin() + n);
    if (options.importPath.size() > n)
      semaOptions.stdlibDir = options.importPath.back();
    semaOptions.keepPartial = true;
    semaOptions.dataCache = options.dataCache;
    semaOptions.moduleText = [&open](llvm::StringRef modulePath) {
      return openText(open, modulePath);
    };
    a->program = analyzeProgram(diags, *a->module, semaOptions);
  }
  buildSymbolIndex(*a);
  buildTypeIndex(*a);
  return a;
}

llvm::SMLoc Analysis::locAt(int line, int character) const {
  if (line < 0 || character < 0)
    return llvm::SMLoc();
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(mainBuffer);
  bool pastEnd = false;
  size_t offset = offsetAt(buffer->getBuffer(), line, character, &pastEnd);
  if (pastEnd)
    return llvm::SMLoc();
  return llvm::SMLoc::getFromPointer(buffer->getBufferStart() + offset);
}

/// True when `loc` lies in `range`, its end included (a cursor right after
/// a name is on it).
static bool touches(llvm::SMRange range, llvm::SMLoc loc) {
  return range.isValid() && range.Start.getPointer() <= loc.getPointer() &&
         loc.getPointer() <= range.End.getPointer();
}

std::optional<unsigned> Analysis::definitionAt(llvm::SMLoc loc) const {
  for (const Occurrence &o : symbols.occurrences)
    if (touches(o.range, loc))
      return o.def;
  for (unsigned i = 0; i < symbols.defs.size(); ++i)
    if (symbols.defs[i].kind != DefKind::ImportedFn &&
        touches(symbols.defs[i].nameRange, loc))
      return i;
  return std::nullopt;
}

const ValueSite *Analysis::siteAt(llvm::SMLoc loc) const {
  const ValueSite *best = nullptr;
  for (const ValueSite &s : symbols.sites) {
    if (!touches(s.range, loc))
      continue;
    size_t size = s.range.End.getPointer() - s.range.Start.getPointer();
    if (!best || size < size_t(best->range.End.getPointer() -
                               best->range.Start.getPointer()))
      best = &s;
  }
  return best;
}

llvm::ArrayRef<TypeAt> TypeIndex::lookup(llvm::SMLoc loc) const {
  auto it = byLoc.find(loc.getPointer());
  if (it == byLoc.end())
    return {};
  return it->second;
}
