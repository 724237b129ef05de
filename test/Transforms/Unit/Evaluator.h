//===- Evaluator.h - Reference interpreter of mdl functions -----*- C++ -*-===//
//
// A slow, obviously-correct float64 interpreter of mdl ops on small tensors,
// used by the autodiff tests to evaluate a loss and its generated gradient
// function (and compare against finite differences and PyTorch). Every
// value is a dense row-major array of doubles (integers and i1 included).
// Test-only: the compiled code replaces it later.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TEST_TRANSFORMS_EVALUATOR_H
#define MODELC_TEST_TRANSFORMS_EVALUATOR_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>
#include <vector>

namespace modelc::test {

/// A dense row-major tensor of doubles.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<double> data;

  Tensor() = default;
  Tensor(std::vector<int64_t> shape, double fill = 0.0);
  int64_t numel() const { return static_cast<int64_t>(data.size()); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// Row-major strides of `shape`.
  std::vector<int64_t> strides() const;
  /// The element at a multi-index.
  double &at(const std::vector<int64_t> &index);
};

/// Interprets mdl functions. `params` holds the value of each mdl.parameter.
class Evaluator {
public:
  explicit Evaluator(std::map<std::string, Tensor> params = {})
      : params(std::move(params)) {}

  /// Runs `fn` on `args`; on an unsupported op returns false and sets
  /// `error`.
  bool run(mlir::func::FuncOp fn, const std::vector<Tensor> &args,
           std::vector<Tensor> &results, std::string &error);

private:
  std::map<std::string, Tensor> params;
};

/// The dropout word of element `index` (docs/dialect.md): output word
/// index % 4 of Philox4x32-10 with key `seed` and counter index / 4.
uint32_t dropoutWord(uint64_t seed, uint64_t index);

} // namespace modelc::test

#endif // MODELC_TEST_TRANSFORMS_EVALUATOR_H
