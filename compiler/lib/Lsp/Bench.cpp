//===- Bench.cpp - The language server's keystroke benchmark --------------===//
//
// Implements measureKeystrokes(): the file's text with a space typed at the
// end of the first line of its first model's body, and without it, in turn,
// each analysed as the server analyses a changed document.
//
//===----------------------------------------------------------------------===//

#include "modelc/Lsp/Bench.h"

#include "Features.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <chrono>

using namespace modelc;
using namespace modelc::lsp;

double KeystrokeTimes::quantile(double p) const {
  if (milliseconds.empty())
    return 0;
  size_t i = size_t(p * (milliseconds.size() - 1) + 0.5);
  return milliseconds[std::min(i, milliseconds.size() - 1)];
}

/// Where the benchmark types: the end of the first line of the first
/// model's body.
static size_t keystrokeOffset(llvm::StringRef text) {
  size_t model = text.find("\nmodel ");
  size_t brace = text.find("{\n", model == llvm::StringRef::npos ? 0 : model);
  if (brace == llvm::StringRef::npos)
    return text.size();
  size_t eol = text.find('\n', brace + 2);
  return eol == llvm::StringRef::npos ? text.size() : eol;
}

llvm::Expected<KeystrokeTimes>
lsp::measureKeystrokes(llvm::StringRef file, unsigned runs,
                       const AnalysisOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + file +
                                       "': " + buffer.getError().message());
  llvm::SmallString<256> path(file);
  llvm::sys::fs::make_absolute(path);
  llvm::Expected<proto::URIForFile> uri = proto::URIForFile::fromFile(path);
  if (!uri)
    return uri.takeError();
  std::string text = (*buffer)->getBuffer().str();
  size_t at = keystrokeOffset(text);
  KeystrokeTimes times;
  sema::DataCache dataCache; // As the server keeps it.
  AnalysisOptions analysis = options;
  if (!analysis.dataCache)
    analysis.dataCache = &dataCache;
  for (unsigned i = 0; i <= std::max(1u, runs); ++i) {
    std::string typed = text;
    if (i % 2)
      typed.insert(at, " ");
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<Analysis> a = Analysis::run(path, typed, analysis);
    times.diagnostics = toDiagnostics(*a, *uri).size();
    times.inlayHints = inlayHints(*a, {{0, 0}, {1 << 30, 0}}).size();
    std::chrono::duration<double, std::milli> d =
        std::chrono::steady_clock::now() - start;
    if (i > 0) // The first run warms the caches.
      times.milliseconds.push_back(d.count());
  }
  std::sort(times.milliseconds.begin(), times.milliseconds.end());
  return times;
}
