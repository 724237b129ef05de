//===- Formatting.cpp - Formatting a document with `modelc fmt` -----------===//
//
// Formats the document's text with the formatter of `modelc fmt` (the same
// verification included) and answers one edit replacing the whole text, or
// none when the text is already formatted.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "Utf16.h"

#include "modelc/Format/Format.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace modelc;
using namespace modelc::lsp;

/// The position just past the end of `text`.
static proto::Position endOf(llvm::StringRef text) {
  size_t lastNewline = text.rfind('\n');
  int line = int(text.count('\n'));
  return proto::Position(line, utf16Length(lastNewline == llvm::StringRef::npos
                                               ? text
                                               : text.substr(lastNewline + 1)));
}

llvm::Expected<std::vector<proto::TextEdit>>
lsp::formatDocument(llvm::StringRef path, llvm::StringRef text) {
  llvm::SourceMgr sourceMgr;
  std::string firstError;
  sourceMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *context) {
        auto *first = static_cast<std::string *>(context);
        if (first->empty() && d.getKind() == llvm::SourceMgr::DK_Error)
          *first = (llvm::Twine(d.getLineNo()) + ":" +
                    llvm::Twine(d.getColumnNo() + 1) + ": " + d.getMessage())
                       .str();
      },
      &firstError);
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, path), llvm::SMLoc());
  llvm::raw_null_ostream null;
  DiagnosticEngine diags(sourceMgr, null);
  llvm::Expected<std::string> formatted = formatBuffer(diags, id);
  if (!formatted) {
    std::string why = llvm::toString(formatted.takeError());
    return llvm::createStringError("cannot format: " +
                                   (firstError.empty() ? why : firstError));
  }
  if (*formatted == text)
    return std::vector<proto::TextEdit>();
  proto::TextEdit edit;
  edit.range = proto::Range(proto::Position(0, 0), endOf(text));
  edit.newText = *formatted;
  return std::vector<proto::TextEdit>{std::move(edit)};
}
