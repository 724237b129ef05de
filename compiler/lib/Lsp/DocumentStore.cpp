//===- DocumentStore.cpp - Open documents, re-analysed when changed -------===//
//
// Implements the document store: the text of each open document, its
// latest analysis, and the worker thread that runs the debounced
// re-analyses (the earliest due first) and publishes them. An analysis
// reads the other open documents' texts for the modules it imports, so a
// change, save or close of one (or its opening with unsaved changes) makes
// the others stale.
//
//===----------------------------------------------------------------------===//

#include "DocumentStore.h"

#include "Utf16.h"

#include "modelc/Frontend/Lexer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace modelc;
using namespace modelc::lsp;
namespace proto = llvm::lsp;

/// True when \p text is the content of the file at \p path (with or
/// without its byte-order mark).
static bool sameAsFile(llvm::StringRef text, llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return false;
  llvm::StringRef content = (*file)->getBuffer();
  return content == text ||
         (content.consume_front(kByteOrderMark) && content == text);
}

DocumentStore::DocumentStore(AnalysisOptions options, unsigned debounceMs,
                             Callback onAnalysed)
    : options(std::move(options)), debounce(debounceMs),
      onAnalysed(std::move(onAnalysed)) {
  if (debounceMs != 0)
    worker = std::thread([this] { workerLoop(); });
}

DocumentStore::~DocumentStore() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  if (worker.joinable())
    worker.join();
}

void DocumentStore::open(const proto::URIForFile &uri, std::string text,
                         int64_t version) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(uri.file(), real))
    real.clear(); // no such file: nothing imports it
  // Opened with unsaved changes (an editor restoring its work): importers
  // read this text now, not the file's.
  bool unsaved = !real.empty() && !sameAsFile(text, real);
  {
    std::lock_guard<std::mutex> lock(mutex);
    Document &doc = docs[uri];
    doc = Document();
    doc.text = std::move(text);
    doc.version = version;
    doc.realPath = real.str().str();
    if (unsaved && debounce.count() != 0)
      othersStale(uri);
  }
  refresh(uri);
  if (unsaved && debounce.count() == 0)
    refreshOthers(uri);
}

/// Applies one change to \p text: the whole text without a range, else the
/// range's text, its positions in UTF-16 units (Utf16.h) and clamped to the
/// text as the protocol says (past a line's end: its end; past the last
/// line: the end), a start after the end taken as the end.
static void applyChange(const proto::TextDocumentContentChangeEvent &change,
                        std::string &text) {
  if (!change.range) {
    text = change.text;
    return;
  }
  size_t start =
      offsetAt(text, change.range->start.line, change.range->start.character);
  size_t end =
      offsetAt(text, change.range->end.line, change.range->end.character);
  start = std::min(start, end);
  text.replace(start, end - start, change.text);
}

bool DocumentStore::change(
    const proto::URIForFile &uri,
    llvm::ArrayRef<proto::TextDocumentContentChangeEvent> changes,
    int64_t version) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = docs.find(uri);
    if (it == docs.end())
      return false;
    std::string text = it->second.text;
    for (const proto::TextDocumentContentChangeEvent &change : changes)
      applyChange(change, text);
    it->second.text = std::move(text);
    it->second.version = version;
    if (debounce.count() != 0) {
      schedule(it->second);
      othersStale(uri);
      return true;
    }
  }
  refresh(uri);
  refreshOthers(uri);
  return true;
}

void DocumentStore::close(const proto::URIForFile &uri) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    docs.erase(uri);
    if (debounce.count() != 0) {
      othersStale(uri); // its importers read its file now
      return;
    }
  }
  refreshOthers(uri);
}

void DocumentStore::saved(const proto::URIForFile &uri) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (debounce.count() != 0) {
      othersStale(uri);
      return;
    }
  }
  refreshOthers(uri);
}

std::vector<proto::URIForFile>
DocumentStore::othersStale(const proto::URIForFile &uri) {
  std::vector<proto::URIForFile> others;
  for (auto &[other, doc] : docs) {
    if (other == uri)
      continue;
    doc.analysedVersion = -1; // stale: an import may have changed
    ++doc.generation;
    if (debounce.count() != 0)
      schedule(doc);
    others.push_back(other);
  }
  return others;
}

void DocumentStore::refreshOthers(const proto::URIForFile &uri) {
  std::vector<proto::URIForFile> others;
  {
    std::lock_guard<std::mutex> lock(mutex);
    others = othersStale(uri);
  }
  for (const proto::URIForFile &other : others)
    refresh(other);
}

OpenTexts DocumentStore::otherTexts(const proto::URIForFile &uri) const {
  OpenTexts open;
  for (const auto &[other, doc] : docs)
    if (other != uri && !doc.realPath.empty())
      open[doc.realPath] = doc.text;
  return open;
}

void DocumentStore::schedule(Document &doc) {
  doc.due = Clock::now() + debounce;
  wake.notify_all();
}

std::shared_ptr<const Analysis>
DocumentStore::get(const proto::URIForFile &uri) {
  return refresh(uri);
}

std::optional<std::string> DocumentStore::text(const proto::URIForFile &uri) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = docs.find(uri);
  if (it == docs.end())
    return std::nullopt;
  return it->second.text;
}

std::shared_ptr<const Analysis>
DocumentStore::refresh(const proto::URIForFile &uri) {
  std::string text;
  int64_t version;
  uint64_t generation;
  OpenTexts open;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = docs.find(uri);
    if (it == docs.end())
      return nullptr;
    if (it->second.analysedVersion == it->second.version && it->second.analysis)
      return it->second.analysis;
    text = it->second.text;
    version = it->second.version;
    generation = it->second.generation;
    open = otherTexts(uri);
  }
  std::shared_ptr<const Analysis> analysis =
      Analysis::run(uri.file(), text, options, open);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = docs.find(uri);
    if (it == docs.end() || it->second.version != version ||
        it->second.generation != generation)
      return analysis; // stale already: the pending re-analysis stays due
    if (it->second.analysedVersion == version)
      return it->second.analysis;
    it->second.analysis = analysis;
    it->second.analysedVersion = version;
    it->second.due.reset();
  }
  onAnalysed(uri, version, *analysis);
  return analysis;
}

void DocumentStore::workerLoop() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    const proto::URIForFile *next = nullptr;
    for (auto &[uri, doc] : docs)
      if (doc.due && (!next || *doc.due < *docs[*next].due))
        next = &uri;
    if (!next) {
      wake.wait(lock);
      continue;
    }
    if (Clock::now() < *docs[*next].due) {
      wake.wait_until(lock, *docs[*next].due);
      continue;
    }
    proto::URIForFile uri = *next;
    docs[uri].due.reset();
    lock.unlock();
    refresh(uri);
    lock.lock();
  }
}
