//===- Diagnostics.cpp - Error reporting over llvm::SourceMgr -------------===//
//
// Implements DiagnosticEngine: prints through llvm::SourceMgr::PrintMessage,
// counts errors and enforces the error limit. LLVM leaves out the caret of
// a source line with a non-ASCII byte; here such a line gets its caret and
// underline by characters (UTF-8 code points), as a terminal shows them.
// A line longer than 160 bytes is shown cut to 160 around the caret.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/Diagnostics.h"

#include <algorithm>

using namespace modelc;

/// The column, in characters, of byte \p byte of the UTF-8 \p line.
static unsigned characterColumn(llvm::StringRef line, size_t byte) {
  unsigned column = 0;
  for (size_t i = 0; i < byte && i < line.size(); ++i)
    column += (uint8_t(line[i]) & 0xC0) != 0x80; // not a continuation byte
  return column;
}

/// The most bytes of a source line a diagnostic shows: a longer line is
/// cut to this many around the caret, with "..." where it was cut.
static constexpr size_t kMaxShownLine = 160;

/// The bytes [first, last) of \p line that a diagnostic at byte \p column
/// shows: all of it, or kMaxShownLine around the column, widened to UTF-8
/// character boundaries (by at most 3 bytes each way: invalid UTF-8 does
/// not widen it further).
static std::pair<size_t, size_t> shownPart(llvm::StringRef line,
                                           size_t column) {
  if (line.size() <= kMaxShownLine)
    return {0, line.size()};
  size_t first = column > kMaxShownLine / 2 ? column - kMaxShownLine / 2 : 0;
  first = std::min(first, line.size() - kMaxShownLine);
  size_t last = first + kMaxShownLine;
  auto continuation = [&](size_t i) {
    return i < line.size() && (uint8_t(line[i]) & 0xC0) == 0x80;
  };
  for (int i = 0; i < 3 && first > 0 && continuation(first); ++i)
    --first;
  for (int i = 0; i < 3 && continuation(last); ++i)
    ++last;
  return {first, last};
}

/// The source line that holds \p loc, found without copying it (a
/// diagnostic's own copy of a line of tens of MiB costs as much as the
/// file).
static llvm::StringRef lineAround(const llvm::SourceMgr &sourceMgr,
                                  llvm::SMLoc loc) {
  unsigned id = sourceMgr.FindBufferContainingLoc(loc);
  if (!id)
    return "";
  llvm::StringRef text = sourceMgr.getMemoryBuffer(id)->getBuffer();
  size_t at = loc.getPointer() - text.data();
  size_t begin = text.find_last_of("\n\r", at); // searches before `at`
  begin = begin == llvm::StringRef::npos ? 0 : begin + 1;
  return text.slice(begin, text.find_first_of("\n\r", at));
}

/// Prints the part of \p line that shownPart gives, with "..." where it
/// was cut, and under it the caret at \p loc and `~` under \p ranges, by
/// characters; a tab of the line stays a tab under it, so that a terminal
/// aligns both lines.
static void printExcerpt(llvm::raw_ostream &os, llvm::StringRef line,
                         llvm::SMLoc loc,
                         llvm::ArrayRef<llvm::SMRange> ranges) {
  auto [first, last] = shownPart(line, loc.getPointer() - line.data());
  llvm::StringRef before = first > 0 ? "..." : "";
  llvm::StringRef shown = line.slice(first, last);
  // The character column, in the printed text, of the byte at \p p (a
  // pointer outside the shown part is clamped to it).
  auto at = [&](const char *p) {
    size_t byte = p < line.data() ? 0 : size_t(p - line.data());
    byte = std::clamp(byte, first, last);
    return before.size() + characterColumn(shown, byte - first);
  };
  std::string marks(at(line.data() + last) + 1, ' ');
  for (size_t i = 0; i < shown.size(); ++i)
    if (shown[i] == '\t')
      marks[at(shown.data() + i)] = '\t';
  for (const llvm::SMRange &range : ranges)
    for (size_t c = at(range.Start.getPointer()),
                e = at(range.End.getPointer());
         c < e && c < marks.size(); ++c)
      marks[c] = '~';
  marks[at(loc.getPointer())] = '^';
  os << before << shown << (last < line.size() ? "..." : "") << "\n"
     << llvm::StringRef(marks).rtrim() << "\n";
}

void DiagnosticEngine::print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                             const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  llvm::StringRef line = loc.isValid() ? lineAround(sourceMgr, loc) : "";
  // A handler (the language server's) takes the diagnostic as it is.
  if (sourceMgr.getDiagHandler() || !loc.isValid() ||
      (line.size() <= kMaxShownLine &&
       llvm::all_of(line, [](char c) { return uint8_t(c) < 0x80; }))) {
    sourceMgr.PrintMessage(os,
                           sourceMgr.GetMessage(loc, kind, message, ranges));
    return;
  }
  // The location goes into the file name: a diagnostic without a line
  // number prints no source line of its own.
  auto [lineNo, columnNo] = sourceMgr.getLineAndColumn(loc);
  unsigned id = sourceMgr.FindBufferContainingLoc(loc);
  std::string where = (sourceMgr.getMemoryBuffer(id)->getBufferIdentifier() +
                       ":" + llvm::Twine(lineNo) + ":" + llvm::Twine(columnNo))
                          .str();
  sourceMgr.PrintMessage(os, llvm::SMDiagnostic(sourceMgr, loc, where,
                                                /*Line=*/-1, /*Col=*/-1, kind,
                                                message.str(), "", {}));
  printExcerpt(os, line, loc, ranges);
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
