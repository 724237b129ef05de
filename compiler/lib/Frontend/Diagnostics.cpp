//===- Diagnostics.cpp - Error reporting over llvm::SourceMgr -------------===//
//
// Implements DiagnosticEngine: prints through llvm::SourceMgr::PrintMessage,
// counts errors and enforces the error limit. LLVM leaves out the caret of
// a source line with a non-ASCII byte; here such a line gets its caret and
// underline by characters (UTF-8 code points), as a terminal shows them.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/Diagnostics.h"

using namespace modelc;

/// The column, in characters, of byte \p byte of the UTF-8 \p line.
static unsigned characterColumn(llvm::StringRef line, size_t byte) {
  unsigned column = 0;
  for (size_t i = 0; i < byte && i < line.size(); ++i)
    column += (uint8_t(line[i]) & 0xC0) != 0x80; // not a continuation byte
  return column;
}

void DiagnosticEngine::print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                             const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  llvm::SMDiagnostic d = sourceMgr.GetMessage(loc, kind, message, ranges);
  llvm::StringRef line = d.getLineContents();
  // A handler (the language server's) takes the diagnostic as it is.
  if (sourceMgr.getDiagHandler() ||
      llvm::all_of(line, [](char c) { return uint8_t(c) < 0x80; })) {
    sourceMgr.PrintMessage(os, d);
    return;
  }
  // The location goes into the file name: a diagnostic without a line
  // number prints no source line of its own.
  std::string where = (d.getFilename() + ":" + llvm::Twine(d.getLineNo()) +
                       ":" + llvm::Twine(d.getColumnNo() + 1))
                          .str();
  sourceMgr.PrintMessage(os, llvm::SMDiagnostic(sourceMgr, d.getLoc(), where,
                                                /*Line=*/-1, /*Col=*/-1, kind,
                                                d.getMessage(), "", {}));
  std::string marks(characterColumn(line, line.size()) + 1, ' ');
  for (auto [begin, end] : d.getRanges())
    for (unsigned c = characterColumn(line, begin),
                  e = characterColumn(line, end);
         c < e && c < marks.size(); ++c)
      marks[c] = '~';
  if (d.getColumnNo() >= 0)
    marks[characterColumn(line, d.getColumnNo())] = '^';
  os << line << "\n" << llvm::StringRef(marks).rtrim() << "\n";
}

void DiagnosticEngine::emit(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                            const llvm::Twine &message,
                            llvm::ArrayRef<llvm::SMRange> ranges) {
  if (kind == llvm::SourceMgr::DK_Note) {
    if (lastPrinted)
      print(loc, kind, message, ranges);
    return;
  }
  if (kind == llvm::SourceMgr::DK_Error) {
    ++numErrors;
    if (numErrors > errorLimit) {
      if (numErrors == errorLimit + 1)
        os << "error: too many errors (" << errorLimit
           << "), stopping now\n";
      lastPrinted = false;
      return;
    }
  } else if (numErrors > errorLimit) {
    lastPrinted = false;
    return;
  }
  lastPrinted = true;
  print(loc, kind, message, ranges);
}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  emit(loc, llvm::SourceMgr::DK_Error, message, ranges);
}

void DiagnosticEngine::error(llvm::SMRange range, const llvm::Twine &message) {
  emit(range.Start, llvm::SourceMgr::DK_Error, message, {range});
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message,
                               llvm::ArrayRef<llvm::SMRange> ranges) {
  emit(loc, llvm::SourceMgr::DK_Warning, message, ranges);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message,
                            llvm::ArrayRef<llvm::SMRange> ranges) {
  emit(loc, llvm::SourceMgr::DK_Note, message, ranges);
}

void DiagnosticEngine::standaloneNote(llvm::SMLoc loc,
                                      const llvm::Twine &message,
                                      llvm::ArrayRef<llvm::SMRange> ranges) {
  lastPrinted = numErrors <= errorLimit;
  if (lastPrinted)
    print(loc, llvm::SourceMgr::DK_Note, message, ranges);
}

std::pair<unsigned, unsigned>
DiagnosticEngine::getLineAndColumn(llvm::SMLoc loc) const {
  return sourceMgr.getLineAndColumn(loc);
}
