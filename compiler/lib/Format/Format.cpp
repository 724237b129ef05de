//===- Format.cpp - Formatting a buffer and verifying the result ----------===//
//
// formatBuffer(): parse with comments, print in the canonical layout, then
// verify before returning: the result must parse to the same AST dump
// (locations removed) and keep the same comments in the same order, so a
// bug in the printer is reported instead of reaching a user's file.
//
//===----------------------------------------------------------------------===//

#include "modelc/Format/Format.h"

#include "Printer.h"

#include "modelc/Frontend/ASTDump.h"
#include "modelc/Frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace modelc;

std::string modelc::printModule(const Module &module, llvm::StringRef source,
                                llvm::ArrayRef<Comment> comments,
                                const FormatOptions &options) {
  format::Writer writer(source, comments);
  format::Printer(writer, options).printModule(module);
  return writer.text();
}

/// Removes a trailing ` @line:col` from one dump line.
static llvm::StringRef stripLocation(llvm::StringRef line) {
  size_t at = line.rfind(" @");
  if (at == llvm::StringRef::npos)
    return line;
  llvm::StringRef loc = line.drop_front(at + 2);
  auto [l, c] = loc.split(':');
  if (l.empty() || c.empty() ||
      !llvm::all_of(l, llvm::isDigit) || !llvm::all_of(c, llvm::isDigit))
    return line;
  return line.take_front(at);
}

std::string modelc::dumpWithoutLocations(const Module &module,
                                         const llvm::SourceMgr &sourceMgr) {
  std::string dump;
  llvm::raw_string_ostream os(dump);
  dumpAST(module, sourceMgr, os);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(dump).split(lines, '\n');
  std::string result;
  for (llvm::StringRef line : lines)
    result += stripLocation(line).str() + "\n";
  return result;
}

/// The comments' texts, in order.
static std::vector<std::string> commentTexts(llvm::ArrayRef<Comment> comments) {
  std::vector<std::string> texts;
  for (const Comment &comment : comments)
    texts.emplace_back(comment.range.Start.getPointer(),
                       comment.range.End.getPointer());
  return texts;
}

/// Describes the first line where two dumps differ.
static std::string firstDifference(llvm::StringRef before,
                                   llvm::StringRef after) {
  while (!before.empty() || !after.empty()) {
    auto [lineA, restA] = before.split('\n');
    auto [lineB, restB] = after.split('\n');
    if (lineA != lineB)
      return "'" + lineA.trim().str() + "' became '" + lineB.trim().str() +
             "'";
    before = restA;
    after = restB;
  }
  return "the dumps differ";
}

/// Parses `text` as if it were the buffer named `name`; returns the module,
/// or nullptr with the first error message in `error`.
static std::unique_ptr<Module>
parseText(llvm::SourceMgr &sourceMgr, llvm::StringRef text,
          llvm::StringRef name, std::vector<Comment> &comments,
          std::string &error) {
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
  llvm::raw_string_ostream os(error);
  DiagnosticEngine diags(sourceMgr, os, /*errorLimit=*/1);
  std::unique_ptr<Module> module = parseModule(diags, id, &comments);
  if (!diags.hasErrors())
    return module;
  error = llvm::StringRef(error).split('\n').first.str(); // The message only.
  return nullptr;
}

llvm::Error modelc::verifyFormatted(DiagnosticEngine &diags, unsigned bufferId,
                                    llvm::StringRef formatted) {
  const llvm::MemoryBuffer *buffer =
      diags.getSourceMgr().getMemoryBuffer(bufferId);
  llvm::StringRef name = buffer->getBufferIdentifier();
  llvm::SourceMgr originalMgr, formattedMgr;
  std::vector<Comment> originalComments, formattedComments;
  std::string error;
  std::unique_ptr<Module> original = parseText(
      originalMgr, buffer->getBuffer(), name, originalComments, error);
  if (!original)
    return llvm::createStringError("the file does not parse: " + error);
  std::unique_ptr<Module> result =
      parseText(formattedMgr, formatted, name, formattedComments, error);
  if (!result)
    return llvm::createStringError("the formatted text does not parse: " +
                                   error);
  std::string before = dumpWithoutLocations(*original, originalMgr);
  std::string after = dumpWithoutLocations(*result, formattedMgr);
  if (before != after)
    return llvm::createStringError(
        "formatting would change the program: " +
        firstDifference(before, after));
  if (commentTexts(originalComments) != commentTexts(formattedComments))
    return llvm::createStringError(
        "formatting would lose or reorder a comment");
  return llvm::Error::success();
}

/// The test hook of FormatOptions::debugCorrupt.
static void corrupt(std::string &text, llvm::StringRef how) {
  if (how == "ast") {
    text += "\nfn formatter_test_damage() {\n  return 0\n}\n";
  } else if (how == "comment") {
    size_t start = text.find("//");
    if (start != std::string::npos)
      text.erase(start, text.find('\n', start) - start);
  }
}

llvm::Expected<std::string> modelc::formatBuffer(DiagnosticEngine &diags,
                                                 unsigned bufferId,
                                                 const FormatOptions &options) {
  std::vector<Comment> comments;
  std::unique_ptr<Module> module = parseModule(diags, bufferId, &comments);
  if (diags.hasErrors())
    return llvm::createStringError("the file has syntax errors");
  llvm::StringRef source =
      diags.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  std::string text = printModule(*module, source, comments, options);
  corrupt(text, options.debugCorrupt);
  if (llvm::Error error = verifyFormatted(diags, bufferId, text))
    return std::move(error);
  return text;
}
