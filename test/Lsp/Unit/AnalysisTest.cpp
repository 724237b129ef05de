//===- AnalysisTest.cpp - Unit tests of the language server's analysis ----===//
//
// The inferred types the server shows, against hand-worked shapes and
// parameter counts of the CNN example (PyTorch's SimpleCNN of the same
// layers has 320 + 18,496 + 401,536 + 1,290 = 421,642 parameters); one type
// per instantiation of a shape-generic fn; the types kept when a later
// statement has an error; for every example and stdlib file, a type at
// every value site of every model that checks; and the data blocks kept
// between analyses while their text and files are unchanged.
//
//===----------------------------------------------------------------------===//

#include "modelc/Lsp/Analysis.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace modelc;
using namespace modelc::lsp;

namespace {

AnalysisOptions stdlibOptions() {
  AnalysisOptions options;
  options.importPath = {MODELC_SOURCE_DIR "/stdlib"};
  return options;
}

std::unique_ptr<Analysis> analyseFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  EXPECT_TRUE(bool(buffer)) << path.str();
  if (!buffer)
    return nullptr;
  return Analysis::run(path, (*buffer)->getBuffer(), stdlibOptions());
}

bool hasErrors(const Analysis &a) {
  for (const llvm::SMDiagnostic &d : a.diagnostics)
    if (d.getKind() == llvm::SourceMgr::DK_Error)
      return true;
  return false;
}

/// "label: type" for each site of `kind`, in source order.
std::vector<std::string> sitesOf(const Analysis &a, SiteKind kind) {
  std::vector<std::string> out;
  for (const ValueSite &s : a.symbols.sites) {
    if (s.kind != kind)
      continue;
    llvm::ArrayRef<TypeAt> types = a.types.lookup(s.key);
    out.push_back(s.label + ": " + (types.empty() ? "?" : types.front().type));
  }
  return out;
}

TEST(LspAnalysis, CnnShapesAndParameters) {
  auto a = analyseFile(MODELC_SOURCE_DIR "/examples/fashion_mnist/cnn.model");
  ASSERT_TRUE(a && a->program);
  EXPECT_EQ(sitesOf(*a, SiteKind::Stage),
            (std::vector<std::string>{
                "relu: f32[B, 32, 28, 28]", "max_pool: f32[B, 32, 14, 14]",
                "dropout: f32[B, 32, 14, 14]", "relu: f32[B, 64, 14, 14]",
                "max_pool: f32[B, 64, 7, 7]", "dropout: f32[B, 64, 7, 7]",
                "nn.linear: f32[B, 128]", "relu: f32[B, 128]",
                "dropout: f32[B, 128]"}));
  EXPECT_EQ(
      sitesOf(*a, SiteKind::Binding),
      (std::vector<std::string>{"h: f32[B, 32, 14, 14]", "h: f32[B, 64, 7, 7]",
                                "h: f32[B, 128]"}));
  std::vector<int64_t> counts;
  for (const ValueSite &s : a->symbols.sites) {
    std::vector<LayerParam> params = a->layerParams(s.key);
    if (params.empty())
      continue;
    int64_t total = 0;
    for (const LayerParam &p : params)
      total += p.count;
    counts.push_back(total);
  }
  EXPECT_EQ(counts, (std::vector<int64_t>{320, 18496, 401536, 1290}));
}

TEST(LspAnalysis, OneTypePerInstantiation) {
  auto a = Analysis::run("/virtual/generic.model", R"(
fn block(x: f32[B, C]) -> f32[B, C] {
  return x |> relu
}

model M(x: f32[B, 4]) {
  h = block(x)
  return block(concat([h, h], axis=1))
}
)",
                         stdlibOptions());
  ASSERT_TRUE(a->program);
  std::vector<std::string> stage;
  for (const ValueSite &s : a->symbols.sites)
    if (s.kind == SiteKind::Stage && s.label == "relu")
      for (const TypeAt &t : a->types.lookup(s.key))
        stage.push_back(t.context + " " + t.type);
  EXPECT_EQ(stage, (std::vector<std::string>{"block_0 f32[B, 4]",
                                             "block_1 f32[B, 8]"}));
}

TEST(LspAnalysis, TypesBeforeAnErrorAreKept) {
  auto a = Analysis::run("/virtual/partial.model", R"(
model Bad(x: f32[B, 8]) {
  a = x |> relu
  b = a @ a
  return a
}

model Good(x: f32[B, 3]) {
  return x |> relu
}
)",
                         stdlibOptions());
  EXPECT_TRUE(hasErrors(*a));
  ASSERT_TRUE(a->program);
  EXPECT_EQ(sitesOf(*a, SiteKind::Binding),
            (std::vector<std::string>{"a: f32[B, 8]", "b: ?"}));
  EXPECT_EQ(sitesOf(*a, SiteKind::Stage),
            (std::vector<std::string>{"relu: f32[B, 8]", "relu: f32[B, 3]"}));
}

TEST(LspAnalysis, EveryModelSiteOfTheExamplesHasAType) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator
           it(MODELC_SOURCE_DIR "/examples", ec),
       end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".model"))
      files.push_back(it->path());
  ASSERT_GE(files.size(), 5u);
  for (const std::string &path : files) {
    auto a = analyseFile(path);
    ASSERT_TRUE(a);
    if (hasErrors(*a)) // data files not prepared on this machine
      continue;
    for (const DeclPtr &d : a->module->getDecls()) {
      auto *fn = llvm::dyn_cast<FuncDecl>(d.get());
      if (!fn || !fn->isModel())
        continue;
      for (const ValueSite &s : a->symbols.sites) {
        if (d->getRange().Start.getPointer() <= s.key.getPointer() &&
            s.key.getPointer() <= d->getRange().End.getPointer()) {
          EXPECT_FALSE(a->types.lookup(s.key).empty())
              << path << ": no type for '" << s.label << "' at line "
              << a->sourceMgr.getLineAndColumn(s.key).first;
        }
      }
    }
  }
}

/// Writes `text` to `path`.
void writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << path;
  os << text;
}

TEST(LspAnalysis, DataBlocksAreReusedWhileUnchanged) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("lsp-data-cache", dir));
  std::string corpus = (dir + "/corpus.txt").str();
  writeFile(corpus, "abcabcabcabcabcabc\n");
  std::string source = "data D {\n  train = text(\"corpus.txt\", seq=4)\n}\n";
  std::string path = (dir + "/m.model").str();
  sema::DataCache cache;
  AnalysisOptions options = stdlibOptions();
  options.dataCache = &cache;
  auto first = Analysis::run(path, source, options);
  ASSERT_TRUE(first->program && first->program->data);
  EXPECT_EQ(first->program->data->numClasses, 4); // a, b, c and the newline
  EXPECT_EQ(cache.getHits(), 0u);

  // A keystroke elsewhere: the block is reused, its location in the new text.
  auto second = Analysis::run(path, source + "// typed\n", options);
  ASSERT_TRUE(second->program && second->program->data);
  EXPECT_EQ(cache.getHits(), 1u);
  EXPECT_EQ(second->program->data->numClasses, 4);
  EXPECT_EQ(
      second->sourceMgr.FindBufferContainingLoc(second->program->data->loc),
      second->mainBuffer);

  // The corpus changes: the block is checked again.
  writeFile(corpus, "abcdabcdabcdabcdabcdx\n");
  auto third = Analysis::run(path, source, options);
  ASSERT_TRUE(third->program && third->program->data);
  EXPECT_EQ(cache.getHits(), 1u);
  EXPECT_EQ(third->program->data->numClasses, 6);
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
