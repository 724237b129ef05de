//===- UnifiedDiff.cpp - Line diffs in the unified format -----------------===//
//
// A longest-common-subsequence diff over lines (after removing the common
// head and tail, which is all a formatter's changes usually leave), printed
// as unified hunks. A very large changed middle is shown as one replaced
// block rather than searched for common lines.
//
//===----------------------------------------------------------------------===//

#include "modelc/Format/UnifiedDiff.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <vector>

using namespace modelc;

namespace {
/// One step of an edit script, with the line positions before it.
struct Edit {
  char op; ///< ' ' kept, '-' removed, '+' added.
  size_t a, b;
};
} // namespace

/// The lines of `text`, each with its '\n' (the last may lack it).
static std::vector<llvm::StringRef> splitLines(llvm::StringRef text) {
  std::vector<llvm::StringRef> lines;
  while (!text.empty()) {
    size_t end = text.find('\n');
    end = end == llvm::StringRef::npos ? text.size() : end + 1;
    lines.push_back(text.take_front(end));
    text = text.drop_front(end);
  }
  return lines;
}

/// Appends the edits turning a[aLo, aHi) into b[bLo, bHi).
static void diffMiddle(const std::vector<llvm::StringRef> &a,
                       const std::vector<llvm::StringRef> &b, size_t aLo,
                       size_t aHi, size_t bLo, size_t bHi,
                       std::vector<Edit> &edits) {
  size_t n = aHi - aLo, m = bHi - bLo;
  if (n * m > 4000000) { // Too large to search: replace the whole middle.
    for (size_t i = 0; i < n; ++i)
      edits.push_back({'-', aLo + i, bLo});
    for (size_t j = 0; j < m; ++j)
      edits.push_back({'+', aHi, bLo + j});
    return;
  }
  // lcs[i][j]: the longest common subsequence of a[aLo+i..] and b[bLo+j..].
  std::vector<std::vector<unsigned>> lcs(n + 1,
                                         std::vector<unsigned>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[aLo + i] == b[bLo + j]
                      ? lcs[i + 1][j + 1] + 1
                      : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[aLo + i] == b[bLo + j]) {
      edits.push_back({' ', aLo + i++, bLo + j++});
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      edits.push_back({'-', aLo + i++, bLo + j});
    } else {
      edits.push_back({'+', aLo + i, bLo + j++});
    }
  }
}

/// Writes one line of a hunk, marking a missing final newline as diff does.
static void writeLine(llvm::raw_ostream &os, char op, llvm::StringRef line) {
  os << op << line;
  if (!line.ends_with("\n"))
    os << "\n\\ No newline at end of file\n";
}

/// Writes the hunk covering edits[first, last).
static void writeHunk(llvm::raw_ostream &os, const std::vector<Edit> &edits,
                      size_t first, size_t last,
                      const std::vector<llvm::StringRef> &a,
                      const std::vector<llvm::StringRef> &b) {
  size_t aLen = 0, bLen = 0;
  for (size_t k = first; k < last; ++k) {
    aLen += edits[k].op != '+';
    bLen += edits[k].op != '-';
  }
  size_t aStart = edits[first].a + (aLen ? 1 : 0);
  size_t bStart = edits[first].b + (bLen ? 1 : 0);
  os << "@@ -" << aStart << "," << aLen << " +" << bStart << "," << bLen
     << " @@\n";
  for (size_t k = first; k < last; ++k) {
    const Edit &e = edits[k];
    writeLine(os, e.op, e.op == '+' ? b[e.b] : a[e.a]);
  }
}

/// The edit script turning `a` into `b`.
static std::vector<Edit> buildEdits(const std::vector<llvm::StringRef> &a,
                                    const std::vector<llvm::StringRef> &b) {
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head])
    ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
    ++tail;
  std::vector<Edit> edits;
  for (size_t i = 0; i < head; ++i)
    edits.push_back({' ', i, i});
  diffMiddle(a, b, head, a.size() - tail, head, b.size() - tail, edits);
  for (size_t k = tail; k-- > 0;)
    edits.push_back({' ', a.size() - 1 - k, b.size() - 1 - k});
  return edits;
}

/// The end of the hunk holding the change at `k`: it takes in the next
/// changes closer than 2 * `context` lines, then `context` lines more.
static size_t hunkEnd(const std::vector<Edit> &edits, size_t k,
                      unsigned context) {
  size_t last = k + 1;
  while (true) {
    size_t gap = last;
    while (gap < edits.size() && edits[gap].op == ' ')
      ++gap;
    if (gap == edits.size() || gap - last > 2 * context)
      return std::min(edits.size(), last + context);
    last = gap + 1;
  }
}

std::string modelc::unifiedDiff(llvm::StringRef before, llvm::StringRef after,
                                llvm::StringRef beforeName,
                                llvm::StringRef afterName, unsigned context) {
  if (before == after)
    return "";
  std::vector<llvm::StringRef> a = splitLines(before), b = splitLines(after);
  std::vector<Edit> edits = buildEdits(a, b);
  std::string result;
  llvm::raw_string_ostream os(result);
  os << "--- " << beforeName << "\n+++ " << afterName << "\n";
  size_t k = 0;
  while (k < edits.size()) {
    if (edits[k].op == ' ') {
      ++k;
      continue;
    }
    size_t last = hunkEnd(edits, k, context);
    writeHunk(os, edits, k > context ? k - context : 0, last, a, b);
    k = last;
  }
  return result;
}
