//===- IndexRanges.h - Bounds of computed indices (internal) ----*- C++ -*-===//
//
// Internal interface of semantic analysis for the indices a model computes
// (IndexRanges.cpp): an embedding lookup's ids and cross_entropy's class
// targets that are not the data's own ids or labels (which the runtime
// checks as it reads them) must provably stay inside the table or the
// classes.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_SEMA_INDEXRANGES_H
#define MODELC_LIB_SEMA_INDEXRANGES_H

#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Sema/Program.h"

#include <cstdint>
#include <optional>

namespace modelc {
namespace sema {

/// A closed interval of integers [lo, hi].
struct IntRange {
  int64_t lo = 0, hi = 0;
};

/// The values the data can give a graph leaf: the model input's ids and
/// the labels that are classes (the runtime also lets the loss's
/// ignore_index through), each when the runtime checks them on reading, and
/// a float input's values when its stored type and transform bound them.
struct LeafRanges {
  std::optional<IntRange> input, label;
  std::optional<std::pair<double, double>> values;
};

/// Reports, at the op, each embedding lookup whose computed ids and each
/// cross_entropy whose computed targets (or labels, when its logits are not
/// the model's output) are not provably inside [0, rows) or [0, classes),
/// ignore_index aside; the bounds come from the leaves' ranges through
/// constants, + - * /, maximum/minimum, relu, abs, neg, argmax, casts,
/// comparisons, where, concat and the ops that move values. Returns false
/// after an error.
bool checkIndexRanges(DiagnosticEngine &diags, const Graph &graph,
                      const LeafRanges &leaves);

} // namespace sema
} // namespace modelc

#endif // MODELC_LIB_SEMA_INDEXRANGES_H
