//===- Diagnostics.cpp - Error reporting over llvm::SourceMgr -------------===//
//
// Implements DiagnosticEngine: prints through llvm::SourceMgr::PrintMessage,
// counts errors and enforces the error limit.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/Diagnostics.h"

using namespace modelc;

void DiagnosticEngine::emit(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                            const llvm::Twine &message,
                            llvm::ArrayRef<llvm::SMRange> ranges) {
  if (kind == llvm::SourceMgr::DK_Note) {
    if (lastPrinted)
      sourceMgr.PrintMessage(os, loc, kind, message, ranges);
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
  sourceMgr.PrintMessage(os, loc, kind, message, ranges);
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
    sourceMgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Note, message, ranges);
}

std::pair<unsigned, unsigned>
DiagnosticEngine::getLineAndColumn(llvm::SMLoc loc) const {
  return sourceMgr.getLineAndColumn(loc);
}
