//===- DocumentStore.h - Open documents, re-analysed when changed -*- C++ -*-=//
//
// The documents the client has open, their text and latest analysis. A
// change schedules a re-analysis after a quiet period (the debounce), of
// the document and of the others (which may import it); a
// worker thread runs it and hands the result to a callback (which publishes
// the diagnostics). A request that needs the analysis of the current text
// before then runs it at once.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_LSP_DOCUMENTSTORE_H
#define MODELC_LIB_LSP_DOCUMENTSTORE_H

#include "modelc/Lsp/Analysis.h"

#include "llvm/Support/LSP/Protocol.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace modelc {
namespace lsp {

/// The open documents.
class DocumentStore {
public:
  /// Called with each new analysis of a document version, from the thread
  /// that ran it.
  using Callback = std::function<void(const llvm::lsp::URIForFile &,
                                      int64_t version, const Analysis &)>;

  /// With `debounceMs` 0, open and change analyse before returning.
  DocumentStore(AnalysisOptions options, unsigned debounceMs,
                Callback onAnalysed);
  /// Stops the worker thread.
  ~DocumentStore();

  void open(const llvm::lsp::URIForFile &uri, std::string text,
            int64_t version);
  /// Applies `changes` to the text (a range past the text clamped to it);
  /// false for a document that is not open.
  bool change(const llvm::lsp::URIForFile &uri,
              llvm::ArrayRef<llvm::lsp::TextDocumentContentChangeEvent> changes,
              int64_t version);
  /// Forgets the document; the others are analysed again (their imports
  /// of it read its file now).
  void close(const llvm::lsp::URIForFile &uri);
  /// `uri` was saved: every other open document is analysed again (an
  /// import of a file that is not open reads it from disk).
  void saved(const llvm::lsp::URIForFile &uri);

  /// The analysis of the document's current text (run now if stale); null
  /// for a document that is not open.
  std::shared_ptr<const Analysis> get(const llvm::lsp::URIForFile &uri);
  /// The document's current text, if open.
  std::optional<std::string> text(const llvm::lsp::URIForFile &uri);

private:
  using Clock = std::chrono::steady_clock;
  struct Document {
    std::string text;
    /// The real path of its file (empty when it has none on disk), which
    /// imports are matched against.
    std::string realPath;
    int64_t version = 0;
    std::shared_ptr<const Analysis> analysis;
    int64_t analysedVersion = -1;
    /// When the pending re-analysis is due (unset: none pending).
    std::optional<Clock::time_point> due;
    /// Bumped when a save makes the analysis stale with the text unchanged:
    /// an analysis begun before it is not kept.
    uint64_t generation = 0;
  };

  /// Analyses `uri` if its analysis is stale; publishes a new one.
  std::shared_ptr<const Analysis> refresh(const llvm::lsp::URIForFile &uri);
  /// Marks every document but `uri` stale (scheduled, with a debounce);
  /// returns them. Called with the mutex held.
  std::vector<llvm::lsp::URIForFile>
  othersStale(const llvm::lsp::URIForFile &uri);
  /// Marks every document but `uri` stale and analyses them now.
  void refreshOthers(const llvm::lsp::URIForFile &uri);
  /// The texts of the open documents but `uri`, by real path. Called with
  /// the mutex held.
  OpenTexts otherTexts(const llvm::lsp::URIForFile &uri) const;
  void schedule(Document &doc);
  void workerLoop();

  AnalysisOptions options;
  std::chrono::milliseconds debounce;
  Callback onAnalysed;
  std::mutex mutex;
  std::condition_variable wake;
  std::map<llvm::lsp::URIForFile, Document> docs;
  bool stopping = false;
  std::thread worker;
};

} // namespace lsp
} // namespace modelc

#endif // MODELC_LIB_LSP_DOCUMENTSTORE_H
