//===- EvaluatorCore.h - Internals shared by the evaluator files -*- C++ -*-===//
//
// The value environment and the index helpers the per-family handlers of
// the reference evaluator (EvaluatorOps.cpp, EvaluatorNN.cpp) use.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TEST_TRANSFORMS_EVALUATORCORE_H
#define MODELC_TEST_TRANSFORMS_EVALUATORCORE_H

#include "Evaluator.h"

#include "mdl/MDLOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

namespace modelc::test {

/// SSA values to tensors while a function runs.
struct Env {
  llvm::DenseMap<mlir::Value, Tensor> values;
  const std::map<std::string, Tensor> *params = nullptr;
  const Tensor &get(mlir::Value v) { return values[v]; }
  const Tensor &in(mlir::Operation *op, unsigned i) {
    return values[op->getOperand(i)];
  }
  void set(mlir::Operation *op, unsigned i, Tensor t) {
    values[op->getResult(i)] = std::move(t);
  }
};

using Handler = std::function<void(mlir::Operation *, Env &)>;
/// Registers the handlers of elementwise, reduction and shape ops.
void addBasicHandlers(llvm::StringMap<Handler> &map);
/// Registers the handlers of products, nn layers, losses and gradient ops.
void addNNHandlers(llvm::StringMap<Handler> &map);

/// The multi-index of row-major linear index `linear` in `shape`.
std::vector<int64_t> unravel(int64_t linear, const std::vector<int64_t> &shape);
/// The numpy broadcast of two shapes (assumed compatible).
std::vector<int64_t> broadcastShape(const std::vector<int64_t> &a,
                                    const std::vector<int64_t> &b);
/// The element of `t` that output index `index` (of a broadcast shape)
/// reads.
double readBroadcast(const Tensor &t, const std::vector<int64_t> &index);
/// Calls `fn(outer, inner)` for every slice along `axis`: elements
/// `outer * size * inner + k * inner + inner_i`, k < size.
void forEachSlice(const std::vector<int64_t> &shape, int64_t axis,
                  const std::function<void(int64_t base, int64_t stride)> &fn);
/// `axis` normalised to [0, rank).
int64_t normAxis(int64_t axis, int64_t rank);

} // namespace modelc::test

#endif // MODELC_TEST_TRANSFORMS_EVALUATORCORE_H
