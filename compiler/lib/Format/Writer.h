//===- Writer.h - Lines, indentation and comments of the formatter -*- C++ -*-//
//
// Private to lib/Format: the formatter's output buffer. It tracks the current
// column and the indentation of continuation lines (a stack of contexts:
// statement, bracket, pipeline) and re-inserts the source's comments by
// position: before a token at source location L it writes every comment that
// starts before L. A comment that had a token before it on its line stays at
// the end of the output line (at its source column when there is room, and
// still aligned with the nearby comments that shared its source column); any
// other comment gets a line of its own. It also keeps blank lines between
// items (declarations, statements, fields), collapsed to one.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_FORMAT_WRITER_H
#define MODELC_LIB_FORMAT_WRITER_H

#include "modelc/Frontend/Token.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>
#include <vector>

namespace modelc {
namespace format {

/// Where continuation lines start inside one construct.
struct Context {
  /// The column the construct is anchored at (a statement's indentation, or
  /// the column after an open bracket).
  unsigned base;
  /// The indentation of a line broken inside the construct.
  unsigned cont;
};

/// The formatted text being built, with the source's comments.
class Writer {
public:
  /// `source` is the buffer the locations point into; `comments` its
  /// comments in source order (both may be empty for a scratch writer).
  Writer(llvm::StringRef source, llvm::ArrayRef<Comment> comments);

  /// Writes the comments before `loc` (when valid), then `text`.
  void token(llvm::StringRef text, llvm::SMLoc loc = llvm::SMLoc());
  /// Puts one space before the next text (none at a line start).
  void space() { pendingSpace = true; }
  /// Writes `n` spaces now (the gap between fields on one line).
  void gap(unsigned n);
  /// Ends the current line, if anything is on it; the next line starts at
  /// the innermost context's continuation indent.
  void newline();
  /// Writes the comments before `loc` inside an expression.
  void flush(llvm::SMLoc loc);
  /// Writes the comments before `loc`, then ends the line.
  void breakBefore(llvm::SMLoc loc);
  /// Writes the comments that the source has between `from` and the first
  /// `separator` after it (outside comments, before `to`), so that a
  /// comment written before a comma or a closing bracket without a location
  /// stays before it: `x /* in */, y`.
  void flushBeforeSeparator(llvm::SMLoc from, llvm::SMLoc to, char separator);

  /// Starts an item (declaration, statement, field line) at `loc` on a new
  /// line indented by `indent`: writes the comments before it as items too,
  /// and one blank line where the source had at least one.
  void beginItem(llvm::SMLoc loc, unsigned indent);
  /// After a '{': no blank line before the block's first item.
  void openBlock() { blockStart = true; }
  /// Writes the comments left before `loc` as items at `indent` (the end of
  /// a block or of the file) and ends the line.
  void endItems(llvm::SMLoc loc, unsigned indent);
  /// Ends the text: every comment left, then exactly one final newline
  /// (nothing for an empty file).
  void finish();

  /// Enters a construct.
  void push(Context context) { contexts.push_back(context); }
  /// Leaves the innermost construct.
  void pop() { contexts.pop_back(); }
  /// The innermost construct.
  const Context &top() const { return contexts.back(); }

  /// The column the next text would start at.
  unsigned column() const;
  /// The indentation of the current line.
  unsigned lineIndent() const { return indent; }
  /// True when the source has a line break between `from` and `to`.
  bool sourceBreak(llvm::SMLoc from, llvm::SMLoc to) const;
  /// True when the source has a line break between `from` (or the end of
  /// the last source text written, if later) and `to`.
  bool sourceBreakSinceWritten(llvm::SMLoc from, llvm::SMLoc to) const;
  /// True when a comment not yet written starts before `loc`.
  bool hasCommentBefore(llvm::SMLoc loc) const;
  /// True when a comment (with `ownLineOnly`: a comment on a line of its
  /// own) lies between `from` and `to`.
  bool hasCommentIn(llvm::SMLoc from, llvm::SMLoc to, bool ownLineOnly) const;
  /// True when the source has an empty line between `from` and `to`.
  bool hasBlankLine(llvm::SMLoc from, llvm::SMLoc to) const;
  /// Sets the indentation of the line about to start.
  void setIndent(unsigned n) { indent = n; }
  /// Where the text of the last item begun starts in text().
  size_t itemStart() const { return itemOffset; }
  /// The text so far.
  const std::string &text() const { return out; }

private:
  void write(llvm::StringRef text);
  void emitComment(const Comment &comment, bool asItem, unsigned itemIndent);
  void writeTrailing(const Comment &comment, llvm::StringRef text);
  bool blankLineBefore(const char *p) const {
    return lastSource && hasBlankLine(llvm::SMLoc::getFromPointer(lastSource),
                                      llvm::SMLoc::getFromPointer(p));
  }
  void blankLine();
  unsigned sourceColumn(const char *p) const;
  void noteSource(const char *end);

  llvm::StringRef source;
  llvm::ArrayRef<Comment> comments;
  /// The next comment not yet written.
  size_t nextComment = 0;
  std::string out;
  /// Code points written on the current line (indentation included).
  unsigned col = 0;
  /// Whether anything is on the current line yet.
  bool lineStarted = false;
  /// The current line's indentation (pending until it starts).
  unsigned indent = 0;
  bool pendingSpace = false;
  /// The last text written is a block comment at the end of code (a
  /// closing bracket or a separator then follows it with no space).
  bool afterTrailingBlock = false;
  /// Suppresses a blank line before a block's first item.
  bool blockStart = true;
  /// The end of the last source text written (token or comment).
  const char *lastSource = nullptr;
  std::vector<Context> contexts;
  size_t itemOffset = 0;

  /// A `//` comment written at the end of a line.
  struct TrailingComment {
    size_t offset;         ///< Where it starts in `out`.
    unsigned column;       ///< Its output column.
    unsigned sourceColumn; ///< Its column in the source.
  };
  std::vector<TrailingComment> trailing;
  void alignTrailingComments();
};

/// The number of code points in `text` (its width in columns).
unsigned columnWidth(llvm::StringRef text);

} // namespace format
} // namespace modelc

#endif // MODELC_LIB_FORMAT_WRITER_H
