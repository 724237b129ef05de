//===- Writer.cpp - Lines, indentation and comments of the formatter ------===//
//
// The output buffer of the formatter: indentation, spaces, line breaks, and
// the comments of the source written back in order (see Writer.h for the
// rules).
//
//===----------------------------------------------------------------------===//

#include "Writer.h"

#include <algorithm>

using namespace modelc;
using namespace modelc::format;

unsigned format::columnWidth(llvm::StringRef text) {
  unsigned width = 0;
  for (char c : text)
    if (((unsigned char)c & 0xC0) != 0x80) // Not a UTF-8 continuation byte.
      ++width;
  return width;
}

Writer::Writer(llvm::StringRef source, llvm::ArrayRef<Comment> comments)
    : source(source), comments(comments) {
  contexts.push_back({0, 4});
}

unsigned Writer::column() const {
  if (!lineStarted)
    return indent;
  return col + (pendingSpace ? 1 : 0);
}

void Writer::write(llvm::StringRef text) {
  if (!lineStarted) {
    out.append(indent, ' ');
    col = indent;
    lineStarted = true;
  } else if (pendingSpace) {
    out += ' ';
    ++col;
  }
  pendingSpace = false;
  blockStart = false;
  afterTrailingBlock = false;
  out += text;
  size_t lastBreak = text.rfind('\n');
  if (lastBreak == llvm::StringRef::npos)
    col += columnWidth(text);
  else
    col = columnWidth(text.drop_front(lastBreak + 1));
}

void Writer::noteSource(const char *end) {
  if (!lastSource || end > lastSource)
    lastSource = end;
}

void Writer::token(llvm::StringRef text, llvm::SMLoc loc) {
  if (loc.isValid()) {
    flush(loc);
    noteSource(loc.getPointer() + text.size());
  }
  if (afterTrailingBlock && (text == ")" || text == "]" || text == ","))
    pendingSpace = false; // `f(x /* in */)`, `x /* in */, y`
  write(text);
}

void Writer::gap(unsigned n) {
  pendingSpace = false;
  out.append(n, ' ');
  col += n;
}

void Writer::newline() {
  if (lineStarted)
    out += '\n';
  lineStarted = false;
  pendingSpace = false;
  indent = top().cont;
}

void Writer::blankLine() {
  newline();
  if (blockStart || out.empty() || llvm::StringRef(out).ends_with("\n\n"))
    return;
  out += '\n';
}

bool Writer::sourceBreak(llvm::SMLoc from, llvm::SMLoc to) const {
  if (!from.isValid() || !to.isValid() || from.getPointer() >= to.getPointer())
    return false;
  return llvm::StringRef(from.getPointer(), to.getPointer() - from.getPointer())
      .contains('\n');
}

bool Writer::sourceBreakSinceWritten(llvm::SMLoc from, llvm::SMLoc to) const {
  if (lastSource && from.isValid() && lastSource > from.getPointer())
    from = llvm::SMLoc::getFromPointer(lastSource);
  return sourceBreak(from, to);
}

bool Writer::hasCommentBefore(llvm::SMLoc loc) const {
  return nextComment < comments.size() &&
         comments[nextComment].range.Start.getPointer() < loc.getPointer();
}

bool Writer::hasCommentIn(llvm::SMLoc from, llvm::SMLoc to,
                          bool ownLineOnly) const {
  for (const Comment &comment : comments) {
    const char *p = comment.range.Start.getPointer();
    if (p >= from.getPointer() && p < to.getPointer() &&
        (comment.ownLine || !ownLineOnly))
      return true;
  }
  return false;
}

bool Writer::hasBlankLine(llvm::SMLoc from, llvm::SMLoc to) const {
  // Two line breaks with only blanks (or ';') between them.
  bool sawBreak = false;
  for (const char *q = from.getPointer(); q < to.getPointer(); ++q) {
    if (*q == '\n') {
      if (sawBreak)
        return true;
      sawBreak = true;
    } else if (*q != ' ' && *q != '\t' && *q != '\r' && *q != ';') {
      sawBreak = false;
    }
  }
  return false;
}

unsigned Writer::sourceColumn(const char *p) const {
  const char *lineStart = p;
  while (lineStart > source.begin() && lineStart[-1] != '\n')
    --lineStart;
  return columnWidth(llvm::StringRef(lineStart, p - lineStart));
}

void Writer::flush(llvm::SMLoc loc) {
  while (hasCommentBefore(loc))
    emitComment(comments[nextComment++], /*asItem=*/false, 0);
}

void Writer::flushBeforeSeparator(llvm::SMLoc from, llvm::SMLoc to,
                                  char separator) {
  if (!from.isValid() || !to.isValid() || !hasCommentBefore(to))
    return;
  size_t next = nextComment;
  for (const char *p = from.getPointer(); p < to.getPointer(); ++p) {
    while (next < comments.size() && comments[next].range.End.getPointer() <= p)
      ++next;
    if (next < comments.size() && comments[next].range.Start.getPointer() <= p)
      continue; // inside a comment
    if (*p != separator)
      continue;
    return flush(llvm::SMLoc::getFromPointer(p));
  }
}

void Writer::breakBefore(llvm::SMLoc loc) {
  flush(loc);
  newline();
}

/// True when only blanks follow `p` up to the end of its line.
static bool endsLine(const char *p, const char *end) {
  for (; p < end && *p != '\n'; ++p)
    if (*p != ' ' && *p != '\t' && *p != '\r')
      return false;
  return true;
}

void Writer::writeTrailing(const Comment &comment, llvm::StringRef text) {
  if (comment.isBlock) {
    llvm::StringRef written(out);
    if (!written.ends_with("(") && !written.ends_with("["))
      space(); // `f(/* none */)`, `x /* in */`
    write(text);
    space();
    afterTrailingBlock = true;
    return;
  }
  // A `//` comment keeps its source column when the code leaves room.
  unsigned source = sourceColumn(text.begin());
  unsigned target = std::max(source, col + 1);
  gap(target - col);
  trailing.push_back({out.size(), target, source});
  write(text);
  newline();
}

void Writer::alignTrailingComments() {
  // End-of-line comments that shared a source column, one after the other
  // with no blank line between them, end up in one column: the furthest any
  // of them was pushed. Only spaces are added, from the end of the text so
  // earlier offsets stay valid.
  auto together = [&](const TrailingComment &a, const TrailingComment &b) {
    return a.sourceColumn == b.sourceColumn &&
           llvm::StringRef(out)
                   .slice(a.offset, b.offset)
                   .find("\n\n") == llvm::StringRef::npos;
  };
  size_t end = trailing.size();
  while (end > 0) {
    size_t begin = end - 1;
    unsigned column = trailing[begin].column;
    while (begin > 0 && together(trailing[begin - 1], trailing[begin]))
      column = std::max(column, trailing[--begin].column);
    for (size_t k = end; k-- > begin;)
      out.insert(trailing[k].offset, column - trailing[k].column, ' ');
    end = begin;
  }
  trailing.clear();
}

void Writer::emitComment(const Comment &comment, bool asItem,
                         unsigned itemIndent) {
  const char *start = comment.range.Start.getPointer();
  llvm::StringRef text(start, comment.range.End.getPointer() - start);
  bool trailing = !comment.ownLine && lineStarted;
  if (trailing) {
    writeTrailing(comment, text);
  } else {
    if (asItem && blankLineBefore(start))
      blankLine();
    newline();
    if (asItem)
      indent = itemIndent;
    write(text);
    if (!comment.isBlock || endsLine(text.end(), source.end()))
      newline();
    else
      space();
  }
  noteSource(text.end());
}

void Writer::beginItem(llvm::SMLoc loc, unsigned itemIndent) {
  endItems(loc, itemIndent);
  if (blankLineBefore(loc.getPointer()))
    blankLine();
  indent = itemIndent;
  itemOffset = out.size();
}

void Writer::endItems(llvm::SMLoc loc, unsigned itemIndent) {
  while (hasCommentBefore(loc))
    emitComment(comments[nextComment++], /*asItem=*/true, itemIndent);
  newline();
}

void Writer::finish() {
  endItems(llvm::SMLoc::getFromPointer(source.end()), 0);
  while (llvm::StringRef(out).ends_with("\n\n"))
    out.pop_back();
  alignTrailingComments();
}
