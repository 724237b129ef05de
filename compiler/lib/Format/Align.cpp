//===- Align.cpp - Runs of aligned items in the formatter -----------------===//
//
// Consecutive `param` statements and data/train fields are aligned the way
// the examples write them (`root  = ...` under `train = ...`). A run is a
// sequence of items with no blank line or comment line between them; an
// item that spans several lines keeps a single space (it is tried at the
// run's padding on a copy of the writer, and the run's widths are computed
// again without it until they are stable).
//
//===----------------------------------------------------------------------===//

#include "Printer.h"

using namespace modelc;
using namespace modelc::format;

bool Printer::runBreak(llvm::SMLoc prevEnd, llvm::SMLoc nextStart) const {
  return w.hasBlankLine(prevEnd, nextStart) ||
         w.hasCommentIn(prevEnd, nextStart, /*ownLineOnly=*/true);
}

bool Printer::spansLines(size_t i, Align align,
                         const std::function<void(size_t, Align)> &print) {
  Writer saved = w;
  print(i, align);
  bool spans = w.text().find('\n', w.itemStart()) != std::string::npos;
  w = saved;
  return spans;
}

/// The widest padding among `members`.
static Align widest(const std::vector<size_t> &members,
                    const std::function<Align(size_t)> &widths) {
  Align result;
  for (size_t m : members) {
    Align a = widths(m);
    result.name = std::max(result.name, a.name);
    result.type = std::max(result.type, a.type);
  }
  return result;
}

std::vector<Align>
Printer::alignRuns(size_t count,
                   const std::function<bool(size_t)> &breaksBefore,
                   const std::function<ItemKind(size_t)> &kind,
                   const std::function<Align(size_t)> &widths,
                   const std::function<void(size_t, Align)> &print) {
  std::vector<Align> aligns(count);
  size_t i = 0;
  while (i < count) {
    if (kind(i) != ItemKind::Candidate) {
      ++i;
      continue;
    }
    std::vector<size_t> members{i};
    size_t next = i + 1;
    for (; next < count && !breaksBefore(next) &&
           kind(next) != ItemKind::Breaks;
         ++next)
      if (kind(next) == ItemKind::Candidate)
        members.push_back(next);
    // Drop the items that would not fit on one line, until stable.
    Align align;
    bool dropped = true;
    while (dropped && !members.empty()) {
      align = widest(members, widths);
      size_t before = members.size();
      llvm::erase_if(members,
                     [&](size_t m) { return spansLines(m, align, print); });
      dropped = members.size() != before;
    }
    for (size_t m : members)
      aligns[m] = align;
    i = next;
  }
  return aligns;
}
