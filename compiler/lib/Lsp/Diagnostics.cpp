//===- Diagnostics.cpp - The compiler's diagnostics as LSP diagnostics ----===//
//
// Converts the diagnostics analysis captured: the message as the compiler
// words it, the range it underlines (or the character at its caret), each
// note as related information of the error or warning before it. A
// diagnostic inside an imported file is shown at the import that leads to
// it, its message prefixed with the file's name and place.
//
//===----------------------------------------------------------------------===//

#include "Features.h"
#include "Utf16.h"

#include "llvm/Support/Path.h"

using namespace modelc;
using namespace modelc::lsp;

proto::Position lsp::toPosition(const llvm::SourceMgr &sourceMgr,
                                llvm::SMLoc loc) {
  if (!loc.isValid())
    return proto::Position(0, 0);
  auto [line, col] = sourceMgr.getLineAndColumn(loc);
  // The line's bytes before `loc`, counted in UTF-16 units.
  llvm::StringRef before(loc.getPointer() - (col - 1), col - 1);
  return proto::Position(int(line) - 1, utf16Length(before));
}

proto::Range lsp::toRange(const llvm::SourceMgr &sourceMgr,
                          llvm::SMRange range) {
  return proto::Range(toPosition(sourceMgr, range.Start),
                      toPosition(sourceMgr, range.End));
}

llvm::SMLoc lsp::toLoc(const Analysis &a, const proto::Position &pos) {
  return a.locAt(pos.line, pos.character);
}

/// The location in the main file that `loc` is reached from: itself, or
/// the import that (through others) loaded its file.
static llvm::SMLoc inMainFile(const Analysis &a, llvm::SMLoc loc) {
  for (unsigned depth = 0; loc.isValid() && depth < 64; ++depth) {
    unsigned id = a.sourceMgr.FindBufferContainingLoc(loc);
    if (id == 0)
      return llvm::SMLoc();
    if (id == a.mainBuffer)
      return loc;
    loc = a.sourceMgr.getParentIncludeLoc(id);
  }
  return llvm::SMLoc();
}

/// The range a diagnostic underlines on its line (the first one that holds
/// its caret), else the caret's character.
static proto::Range rangeOf(const llvm::SMDiagnostic &d) {
  int line = d.getLineNo() - 1, col = d.getColumnNo();
  llvm::StringRef text = d.getLineContents();
  // The diagnostic's byte columns on its line, in UTF-16 units.
  auto units = [&](size_t bytes) {
    return utf16Length(text.take_front(bytes));
  };
  for (const std::pair<unsigned, unsigned> &r : d.getRanges())
    if (int(r.first) <= col && col <= int(r.second) && r.first < r.second)
      return proto::Range(proto::Position(line, units(r.first)),
                          proto::Position(line, units(r.second)));
  // The caret's character: two units for one outside the BMP.
  int width = size_t(col) < text.size() && utf8SequenceLength(text, col) == 4 ? 2 : 1;
  return proto::Range(proto::Position(line, units(col)),
                      proto::Position(line, units(col) + width));
}

static proto::DiagnosticSeverity severityOf(llvm::SourceMgr::DiagKind kind) {
  switch (kind) {
  case llvm::SourceMgr::DK_Error:
    return proto::DiagnosticSeverity::Error;
  case llvm::SourceMgr::DK_Warning:
    return proto::DiagnosticSeverity::Warning;
  case llvm::SourceMgr::DK_Remark:
  case llvm::SourceMgr::DK_Note:
    return proto::DiagnosticSeverity::Information;
  }
  return proto::DiagnosticSeverity::Error;
}

/// "nn.model:3:9: " for a diagnostic outside the main file.
static std::string placePrefix(const llvm::SMDiagnostic &d) {
  return (llvm::sys::path::filename(d.getFilename()) + ":" +
          llvm::Twine(d.getLineNo()) + ":" + llvm::Twine(d.getColumnNo() + 1) +
          ": ")
      .str();
}

/// Converts one error or warning; the range and message are those of the
/// main file's place.
static proto::Diagnostic convert(const Analysis &a,
                                 const llvm::SMDiagnostic &d) {
  proto::Diagnostic out;
  out.severity = severityOf(d.getKind());
  out.source = "modelc";
  out.message = d.getMessage().str();
  llvm::SMLoc main = inMainFile(a, d.getLoc());
  if (main == d.getLoc() && main.isValid()) {
    out.range = rangeOf(d);
  } else {
    proto::Position at = toPosition(a.sourceMgr, main);
    out.range = proto::Range(at, proto::Position(at.line, at.character + 1));
    out.message = placePrefix(d) + out.message;
  }
  return out;
}

std::vector<proto::Diagnostic>
lsp::toDiagnostics(const Analysis &a, const proto::URIForFile &uri) {
  std::vector<proto::Diagnostic> out;
  for (const llvm::SMDiagnostic &d : a.diagnostics) {
    if (d.getKind() != llvm::SourceMgr::DK_Note) {
      out.push_back(convert(a, d));
      continue;
    }
    if (out.empty())
      continue;
    llvm::SMLoc main = inMainFile(a, d.getLoc());
    proto::Location where(uri, main == d.getLoc() && main.isValid()
                                   ? rangeOf(d)
                                   : toRange(a.sourceMgr, {main, main}));
    std::string message = d.getMessage().str();
    if (main != d.getLoc())
      message = placePrefix(d) + message;
    if (!out.back().relatedInformation)
      out.back().relatedInformation.emplace();
    out.back().relatedInformation->emplace_back(std::move(where),
                                                std::move(message));
  }
  return out;
}
