//===- Sema.cpp - Module loading and the analysis driver ------------------===//
//
// Loads the modules a program imports (search order: -I directories, the
// importing file's directory, the standard library; cycles and unknown
// modules are errors at the import), collects each module's declarations,
// then checks every model of the main file, the data blocks and the train
// block, runs the warnings, and builds the main model's decoding form.
//
//===----------------------------------------------------------------------===//

#include "modelc/Sema/Sema.h"

#include "Config.h"
#include "Decode.h"

#include "modelc/Frontend/Lexer.h"
#include "modelc/Frontend/Parser.h"
#include "modelc/Frontend/SearchPath.h"
#include "modelc/Frontend/SourceFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace modelc;
using namespace modelc::sema;

namespace {
/// Loads and indexes modules; owns the imported ASTs.
class ModuleLoader {
public:
  ModuleLoader(DiagnosticEngine &diags, const SemaOptions &options)
      : diags(diags), options(options) {}

  /// Indexes `ast` (named `name`, read from `path`) and loads its imports.
  ModuleInfo *load(const Module &ast, std::string name, std::string path);
  /// Every loaded module.
  std::vector<const ModuleInfo *> all() const {
    std::vector<const ModuleInfo *> r;
    for (auto &m : infos)
      r.push_back(m.get());
    return r;
  }

private:
  const ModuleInfo *loadImport(const Import &imp, const ModuleInfo &from);
  /// Where the imports of the module read from `path` are searched: the -I
  /// directories, the module's own directory, the standard library.
  std::vector<std::string> importPathOf(llvm::StringRef path) const;
  /// The module at `path`: options.moduleText's text when it gives one,
  /// else the file's.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
  readModule(const std::string &path) const;

  DiagnosticEngine &diags;
  const SemaOptions &options;
  std::vector<std::unique_ptr<ModuleInfo>> infos;
  std::vector<std::unique_ptr<Module>> owned;
  std::map<std::string, ModuleInfo *> byPath;
  /// Files being loaded (for cycle detection).
  std::vector<std::string> loading;
  /// The most modules one chain of imports may nest (as the elaboration's
  /// calls): loading recurses once per module.
  static constexpr size_t kMaxImportDepth = 256;
};
} // namespace

/// The canonical form of a path (real path when it exists).
static std::string canonical(llvm::StringRef path) {
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(path, real))
    return real.str().str();
  return path.str();
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
ModuleLoader::readModule(const std::string &path) const {
  if (options.moduleText)
    if (std::optional<std::string> text = options.moduleText(path))
      return llvm::MemoryBuffer::getMemBufferCopy(*text, path);
  return readSourceFile(path);
}

ModuleInfo *ModuleLoader::load(const Module &ast, std::string name,
                               std::string path) {
  auto info = std::make_unique<ModuleInfo>();
  ModuleInfo *m = info.get();
  infos.push_back(std::move(info));
  m->name = std::move(name);
  m->ast = &ast;
  m->importPath = importPathOf(path);
  byPath[path] = m;
  for (const DeclPtr &d : ast.getDecls()) {
    if (llvm::isa<TrainDecl>(d.get()))
      continue;
    auto [it, inserted] = m->decls.insert({d->getName().str(), d.get()});
    if (!inserted) {
      diags.error(d->getNameRange().Start,
                  "'" + d->getName() + "' is already declared",
                  {d->getNameRange()});
      diags.note(it->second->getNameRange().Start, "previous declaration");
    }
  }
  loading.push_back(path);
  for (const Import &imp : ast.getImports()) {
    const ModuleInfo *dep = loadImport(imp, *m);
    if (!dep)
      continue;
    std::string bound = imp.getBoundName().str();
    if (m->imports.count(bound) || m->decls.count(bound)) {
      diags.error(imp.range.Start, "the name '" + bound +
                                       "' is already used in this module",
                  {imp.range});
      continue;
    }
    m->imports[bound] = dep;
  }
  loading.pop_back();
  return m;
}

std::vector<std::string>
ModuleLoader::importPathOf(llvm::StringRef path) const {
  std::vector<std::string> search = options.includeDirs;
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  search.push_back(dir.empty() ? "." : dir.str());
  if (!options.stdlibDir.empty())
    search.push_back(options.stdlibDir);
  return search;
}

const ModuleInfo *ModuleLoader::loadImport(const Import &imp,
                                           const ModuleInfo &from) {
  const std::vector<std::string> &search = from.importPath;
  std::string dotted = imp.getDottedPath();
  std::optional<std::string> found = resolveImport(imp.path, search);
  if (!found) {
    diags.error(imp.range.Start,
                "cannot find module '" + dotted + "' (looked for " +
                    llvm::join(imp.path, "/") + ".model in " +
                    llvm::join(search, ", ") + ")",
                {imp.range});
    return nullptr;
  }
  std::string path = canonical(*found);
  auto cycle = llvm::find(loading, path);
  if (cycle != loading.end()) {
    std::string chain;
    for (auto it = cycle; it != loading.end(); ++it)
      chain += llvm::sys::path::filename(*it).str() + " -> ";
    diags.error(imp.range.Start, "import cycle: " + chain +
                                     llvm::sys::path::filename(path),
                {imp.range});
    return nullptr;
  }
  if (ModuleInfo *done = byPath[path])
    return done;
  if (loading.size() >= kMaxImportDepth) {
    diags.error(imp.range.Start,
                "imports too deep: importing '" + dotted +
                    "' here would nest more than " +
                    llvm::Twine(kMaxImportDepth) +
                    " modules in one chain of imports (the limit of loading)",
                {imp.range});
    return nullptr;
  }
  auto buf = readModule(path);
  if (!buf) {
    diags.error(imp.range.Start,
                "cannot read module '" + dotted + "' from '" + path +
                    "': " + llvm::toString(buf.takeError()),
                {imp.range});
    return nullptr;
  }
  unsigned id = diags.getSourceMgr().AddNewSourceBuffer(
      withoutByteOrderMark(std::move(*buf)), imp.range.Start);
  unsigned before = diags.getNumErrors();
  owned.push_back(parseModule(diags, id));
  if (diags.getNumErrors() != before)
    return nullptr;
  return load(*owned.back(), dotted, path);
}

/// The directory relative data paths are resolved against.
static std::string dirOf(const Module &m) {
  llvm::SmallString<256> p(m.getFileName());
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_filename(p);
  return p.str().str();
}

/// Checks data block `data`, or takes it from the options' cache.
static std::optional<DataConfig> checkOrReuseData(DiagnosticEngine &diags,
                                                  const DataDecl &data,
                                                  llvm::StringRef dir,
                                                  const SemaOptions &options) {
  if (options.dataCache)
    if (std::optional<DataConfig> cached = options.dataCache->lookup(data, dir))
      return cached;
  unsigned before = diags.getNumErrors();
  std::optional<DataConfig> cfg = checkData(diags, data, dir);
  if (cfg && options.dataCache && diags.getNumErrors() == before)
    options.dataCache->store(data, dir, *cfg);
  return cfg;
}

std::unique_ptr<Program> modelc::analyzeProgram(DiagnosticEngine &diags,
                                                const Module &mainModule,
                                                const SemaOptions &options) {
  unsigned before = diags.getNumErrors();
  ModuleLoader loader(diags, options);
  ModuleInfo *main = loader.load(mainModule, "",
                                 canonical(mainModule.getFileName()));
  if (diags.getNumErrors() != before)
    return nullptr;
  std::vector<const ModuleInfo *> all = loader.all();
  auto program = std::make_unique<Program>();
  std::map<std::string, const FuncDecl *> modelDecls;
  for (const DeclPtr &d : mainModule.getDecls()) {
    auto *fn = llvm::dyn_cast<FuncDecl>(d.get());
    if (!fn || !fn->isModel())
      continue;
    Graph g;
    Elaborator el(diags, g, all);
    if (el.elaborateModel(*fn, *main)) {
      program->models.push_back(std::move(g));
      modelDecls[fn->getName().str()] = fn;
    } else if (options.keepPartial) {
      program->models.push_back(std::move(g));
    }
  }
  std::map<std::string, DataConfig> datas;
  for (const DeclPtr &d : mainModule.getDecls())
    if (auto *data = llvm::dyn_cast<DataDecl>(d.get()))
      if (auto cfg = checkOrReuseData(diags, *data, dirOf(mainModule), options))
        datas[cfg->name] = *cfg;
  const TrainDecl *trainDecl = nullptr;
  for (const DeclPtr &d : mainModule.getDecls()) {
    auto *t = llvm::dyn_cast<TrainDecl>(d.get());
    if (!t)
      continue;
    if (trainDecl) {
      diags.error(t->getLoc(), "only one train block is allowed per program");
      diags.note(trainDecl->getLoc(), "the first train block");
      continue;
    }
    trainDecl = t;
  }
  if (trainDecl && diags.getNumErrors() == before) {
    const Decl *m = main->decls.count(trainDecl->getModelName().str())
                        ? main->decls.at(trainDecl->getModelName().str())
                        : nullptr;
    const Decl *dd = main->decls.count(trainDecl->getDataName().str())
                         ? main->decls.at(trainDecl->getDataName().str())
                         : nullptr;
    if (!m || !llvm::isa<FuncDecl>(m) || !llvm::cast<FuncDecl>(m)->isModel())
      diags.error(trainDecl->getNameRange().Start,
                  "'" + trainDecl->getModelName() + "' is not a model " +
                      (m ? "(it is declared as a fn or data block)"
                         : "declared in this file"),
                  {trainDecl->getNameRange()});
    else if (!dd || !llvm::isa<DataDecl>(dd))
      diags.error(trainDecl->getDataRange().Start,
                  "'" + trainDecl->getDataName() +
                      "' is not a data block declared in this file",
                  {trainDecl->getDataRange()});
    else {
      Graph *g = nullptr;
      for (Graph &gr : program->models)
        if (gr.modelName == trainDecl->getModelName())
          g = &gr;
      program->data = datas[trainDecl->getDataName().str()];
      program->train =
          checkTrain(diags, *trainDecl, *g, *modelDecls[g->modelName],
                     &*program->data, *main, all);
    }
  } else if (datas.size() == 1) {
    program->data = datas.begin()->second;
  }
  if (diags.getNumErrors() != before)
    return options.keepPartial ? std::move(program) : nullptr;
  for (const Graph &g : program->models)
    lintGraph(diags, g);
  if (const Graph *g = program->getMainModel())
    program->decode = buildDecodeForm(diags, *g, *modelDecls[g->modelName],
                                      *main, all, program->noDecode);
  return program;
}
