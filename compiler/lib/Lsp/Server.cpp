//===- Server.cpp - The modelc language server ----------------------------===//
//
// Wires LLVM's LSP transport and message handler (llvm/Support/LSP) to the
// document store and the features: answers `initialize` with the server's
// capabilities, keeps the documents, publishes each analysis's diagnostics
// and answers the requests from the current analysis.
//
//===----------------------------------------------------------------------===//

#include "modelc/Lsp/Server.h"

#include "DocumentStore.h"
#include "Features.h"

#include "llvm/Support/LSP/Transport.h"

using namespace modelc;
using namespace modelc::lsp;
namespace json = llvm::json;

namespace modelc {
namespace lsp {
/// The parameters of a message, undecoded.
struct RawParams {
  json::Value value = nullptr;
};
bool fromJSON(const json::Value &value, RawParams &result, json::Path) {
  result.value = value;
  return true;
}
} // namespace lsp
} // namespace modelc

namespace {
using Reply = proto::Callback<json::Value>;

/// The most arrays and objects a message may nest: llvm::json parses
/// recursively, so a deeper message would overflow the server's stack.
constexpr size_t kMaxJsonDepth = 512;

/// Whether \p text nests arrays and objects more than kMaxJsonDepth deep
/// (brackets inside strings do not count).
bool nestsTooDeep(llvm::StringRef text) {
  size_t depth = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      inString = escaped || c != '"';
      escaped = !escaped && c == '\\';
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

/// The input of the transport, passing on only JSON-RPC messages: LLVM's
/// transport stops at a JSON value that is not one (an array, a number, an
/// object without "jsonrpc": "2.0", or without a string method or an id),
/// as it does at `exit`. Such a message is logged and skipped; one that is
/// not JSON at all goes on to the transport, which logs it and reads on;
/// one nesting too deep (nestsTooDeep) is logged and skipped unparsed.
class RpcMessagesOnly : public proto::JSONTransportInput {
public:
  RpcMessagesOnly(std::FILE *in, proto::JSONStreamStyle style)
      : proto::JSONTransportInput(style), file(in, style) {}

  bool hasError() const override { return file.hasError(); }
  bool isEndOfInput() const override { return file.isEndOfInput(); }
  llvm::LogicalResult readDelimitedMessage(std::string &text) override {
    return readRpc(text);
  }
  llvm::LogicalResult readStandardMessage(std::string &text) override {
    return readRpc(text);
  }

private:
  proto::JSONTransportInputOverFile file;

  /// The next message that is not a JSON value other than a JSON-RPC one.
  llvm::LogicalResult readRpc(std::string &text) {
    while (true) {
      if (llvm::failed(file.readMessage(text)))
        return llvm::failure();
      if (nestsTooDeep(text)) {
        proto::Logger::error("ignored a message that nests more than {0} "
                             "arrays and objects: {1}",
                             kMaxJsonDepth,
                             llvm::StringRef(text).trim().take_front(200));
        continue;
      }
      llvm::Expected<json::Value> value = json::parse(text);
      if (!value) {
        llvm::consumeError(value.takeError());
        return llvm::success();
      }
      const json::Object *o = value->getAsObject();
      if (o &&
          o->getString("jsonrpc") == std::optional<llvm::StringRef>("2.0") &&
          (o->getString("method") || o->get("id")))
        return llvm::success();
      proto::Logger::error("ignored a message that is not a JSON-RPC request, "
                           "notification or response: {0}",
                           llvm::StringRef(text).trim().take_front(200));
    }
  }
};

class Server {
public:
  Server(const ServerOptions &options, proto::JSONTransport &transport)
      : handler(transport),
        publish(handler.outgoingNotification<proto::PublishDiagnosticsParams>(
            "textDocument/publishDiagnostics")),
        store(options.analysis, options.litTest ? 0 : options.debounceMs,
              [this](const proto::URIForFile &uri, int64_t version,
                     const Analysis &a) {
                proto::PublishDiagnosticsParams params(uri, version);
                params.diagnostics = toDiagnostics(a, uri);
                publish(params);
              }) {
    handler.method("initialize", this, &Server::onInitialize);
    handler.notification("initialized", this, &Server::onIgnored);
    handler.method("shutdown", this, &Server::onShutdown);
    handler.notification("textDocument/didOpen", this, &Server::onOpen);
    handler.notification("textDocument/didChange", this, &Server::onChange);
    handler.notification("textDocument/didClose", this, &Server::onClose);
    handler.notification("textDocument/didSave", this, &Server::onSave);
    handler.method("textDocument/hover", this, &Server::onHover);
    handler.method("textDocument/definition", this, &Server::onDefinition);
    handler.method("textDocument/references", this, &Server::onReferences);
    handler.method("textDocument/completion", this, &Server::onCompletion);
    handler.method("textDocument/documentSymbol", this, &Server::onSymbols);
    handler.method("textDocument/inlayHint", this, &Server::onInlayHints);
    handler.method("textDocument/formatting", this, &Server::onFormatting);
  }

  proto::MessageHandler handler;
  bool shutdownRequested = false;
  bool initialized = false;

private:
  void onInitialize(const RawParams &params, Reply reply) {
    if (std::exchange(initialized, true)) {
      reply(
          llvm::make_error<proto::LSPError>("the server is already initialized",
                                            proto::ErrorCode::InvalidRequest));
      return;
    }
    bool hints = true;
    if (const json::Object *o = params.value.getAsObject())
      if (const json::Object *init = o->getObject("initializationOptions"))
        hints = init->getBoolean("inlayHints").value_or(true);
    json::Object caps{
        {"textDocumentSync",
         json::Object{{"openClose", true},
                      {"change", int(proto::TextDocumentSyncKind::Incremental)},
                      {"save", true}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"referencesProvider", true},
        {"documentSymbolProvider", true},
        {"documentFormattingProvider", true},
        {"completionProvider",
         json::Object{{"triggerCharacters", json::Array{".", "(", ","}}}},
    };
    if (hints)
      caps["inlayHintProvider"] = true;
    reply(json::Object{{"capabilities", std::move(caps)},
                       {"serverInfo", json::Object{{"name", "modelc-lsp"}}}});
  }

  void onIgnored(const RawParams &) {}

  void onShutdown(const RawParams &, Reply reply) {
    shutdownRequested = true;
    reply(nullptr);
  }

  void onOpen(const proto::DidOpenTextDocumentParams &params) {
    store.open(params.textDocument.uri, params.textDocument.text,
               params.textDocument.version);
  }

  void onChange(const proto::DidChangeTextDocumentParams &params) {
    if (!store.change(params.textDocument.uri, params.contentChanges,
                      params.textDocument.version))
      proto::Logger::error("cannot apply the change to {0}",
                           params.textDocument.uri.file());
  }

  /// A saved file may be imported by the open documents: they are analysed
  /// again.
  void onSave(const RawParams &params) {
    const json::Object *o = params.value.getAsObject();
    const json::Object *doc = o ? o->getObject("textDocument") : nullptr;
    std::optional<llvm::StringRef> uri =
        doc ? doc->getString("uri") : std::nullopt;
    llvm::Expected<proto::URIForFile> file =
        uri ? proto::URIForFile::fromURI(*uri)
            : llvm::createStringError("didSave without textDocument.uri");
    if (!file) {
      proto::Logger::error("{0}", llvm::toString(file.takeError()));
      return;
    }
    store.saved(*file);
  }

  /// Forgets the document and clears its diagnostics in the client.
  void onClose(const proto::DidCloseTextDocumentParams &params) {
    store.close(params.textDocument.uri);
    publish(proto::PublishDiagnosticsParams(params.textDocument.uri, 0));
  }

  /// The current analysis of `uri`, or an error reply.
  std::shared_ptr<const Analysis> analysisOf(const proto::URIForFile &uri,
                                             Reply &reply) {
    std::shared_ptr<const Analysis> a = store.get(uri);
    if (!a)
      reply(llvm::make_error<proto::LSPError>("the document is not open: " +
                                                  uri.uri().str(),
                                              proto::ErrorCode::InvalidParams));
    return a;
  }

  void onHover(const proto::TextDocumentPositionParams &params, Reply reply) {
    if (auto a = analysisOf(params.textDocument.uri, reply)) {
      std::optional<proto::Hover> h = hover(*a, params.position);
      reply(h ? json::Value(*h) : json::Value(nullptr));
    }
  }

  void onDefinition(const proto::TextDocumentPositionParams &params,
                    Reply reply) {
    if (auto a = analysisOf(params.textDocument.uri, reply))
      reply(json::Value(
          definition(*a, params.textDocument.uri, params.position)));
  }

  void onReferences(const proto::ReferenceParams &params, Reply reply) {
    if (auto a = analysisOf(params.textDocument.uri, reply))
      reply(json::Value(references(*a, params.textDocument.uri, params.position,
                                   params.context.includeDeclaration)));
  }

  void onCompletion(const proto::CompletionParams &params, Reply reply) {
    if (auto a = analysisOf(params.textDocument.uri, reply))
      reply(json::Value(complete(*a, params.position)));
  }

  void onSymbols(const proto::DocumentSymbolParams &params, Reply reply) {
    if (auto a = analysisOf(params.textDocument.uri, reply))
      reply(json::Value(documentSymbols(*a)));
  }

  void onInlayHints(const proto::InlayHintsParams &params, Reply reply) {
    if (auto a = analysisOf(params.textDocument.uri, reply))
      reply(json::Value(inlayHints(*a, params.range)));
  }

  void onFormatting(const RawParams &params, Reply reply) {
    proto::TextDocumentIdentifier doc;
    json::Path::Root root;
    const json::Object *o = params.value.getAsObject();
    const json::Value *td = o ? o->get("textDocument") : nullptr;
    if (!td || !fromJSON(*td, doc, root))
      return reply(llvm::make_error<proto::LSPError>(
          "formatting needs a textDocument", proto::ErrorCode::InvalidParams));
    std::optional<std::string> text = store.text(doc.uri);
    if (!text)
      return reply(llvm::make_error<proto::LSPError>(
          "the document is not open: " + doc.uri.uri().str(),
          proto::ErrorCode::InvalidParams));
    auto edits = formatDocument(doc.uri.file(), *text);
    if (!edits)
      return reply(llvm::make_error<proto::LSPError>(
          llvm::toString(edits.takeError()), proto::ErrorCode::RequestFailed));
    reply(json::Value(std::move(*edits)));
  }

  proto::OutgoingNotification<proto::PublishDiagnosticsParams> publish;
  DocumentStore store;
};
} // namespace

int lsp::runServer(const ServerOptions &serverOptions, std::FILE *in,
                   llvm::raw_ostream &out) {
  // The data blocks of every document, checked once while unchanged.
  sema::DataCache dataCache;
  ServerOptions options = serverOptions;
  if (!options.analysis.dataCache)
    options.analysis.dataCache = &dataCache;
  proto::Logger::setLogLevel(proto::Logger::Level::Error);
  proto::JSONTransport transport(
      std::make_unique<RpcMessagesOnly>(
          in, options.litTest ? proto::JSONStreamStyle::Delimited
                              : proto::JSONStreamStyle::Standard),
      out, /*PrettyOutput=*/options.litTest);
  bool shutdown = false;
  llvm::Error error = llvm::Error::success();
  {
    Server server(options, transport);
    error = transport.run(server.handler);
    shutdown = server.shutdownRequested;
  }
  if (error) {
    proto::Logger::error("{0}", llvm::toString(std::move(error)));
    return 1;
  }
  return shutdown ? 0 : 1;
}
