//===- GradCheck.h - Compiled gradients against finite differences --------===//
//
// Implements the check behind `NAME gradcheck` (docs/cli.md): on one batch,
// every parameter tensor's gradient from the program's train_step is
// compared, on a deterministic sample of its elements, with the central
// finite difference (L(p + h e_i) - L(p - h e_i)) / 2h of the loss
// train_step reports. Every call uses the same batch, seed and step, and
// the state (running statistics) is restored before each one, so only the
// perturbed element changes. The program computes in f32: the element's
// step h, the noise floor of the comparison and the treatment of kinks
// (relu, max-pool) are described at their definitions (GradCheck.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_GRADCHECK_H
#define MODELRT_TRAIN_GRADCHECK_H

#include "modelrt/core/Device.h"
#include "modelrt/core/Model.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace modelrt {

/// How the check samples elements and judges them.
struct GradCheckOptions {
  /// Elements checked per tensor at most; a tensor with fewer is checked
  /// whole.
  int64_t samples = 32;
  /// The largest relative error that passes (relative to the larger of the
  /// two gradients, floored at the f32 noise level: gradCheckFloor).
  double tolerance = 1e-2;
  /// train_step's seed (dropout masks), the same for every call.
  uint64_t seed = 0;
  /// train_step's step argument, the same for every call.
  int64_t step = 0;
};

/// What one element's check found. Inconclusive: the element failed by at
/// most kInconclusiveFactor tolerances in a tensor with kinks (the loss
/// is piecewise linear in the parameters, and its f32 differences at h can
/// miss the slope at p by a few percent; GradCheck.cpp).
enum class GradCheckVerdict { Pass, Fail, Kink, Inconclusive };

/// How many tolerances an element of a kinked loss may miss by and count as
/// inconclusive rather than failed.
constexpr double kInconclusiveFactor = 10;

/// The comparison of one parameter element.
struct GradCheckElement {
  int64_t index = 0;        ///< flat index into the tensor
  double analytic = 0;      ///< train_step's gradient
  double numeric = 0;       ///< the central difference judged (at h, or h/2)
  double central = 0;       ///< (L(p + h) - L(p - h)) / 2h
  double centralHalf = NAN; ///< the same with h/2 (NaN when not needed)
  double forward = 0;       ///< (L(p + h) - L(p)) / h
  double backward = 0;      ///< (L(p) - L(p - h)) / h
  double step = 0;          ///< 2h as taken: (p + h)_f32 - (p - h)_f32
  /// How far the differences move with the step beyond rounding noise (0
  /// where the loss is smooth; GradCheck.cpp); computed for elements that
  /// fail at h.
  double spread = 0;
  double relError = 0;      ///< |analytic - numeric| / max(|a|, |n|, floor)
  GradCheckVerdict verdict = GradCheckVerdict::Pass;
};

/// The comparison of one parameter tensor.
struct GradCheckTensor {
  std::string name;                       ///< the parameter's name
  std::vector<int64_t> shape;             ///< the parameter's shape
  std::vector<GradCheckElement> elements; ///< the checked elements, by index
  int64_t failures = 0;                   ///< elements with verdict Fail
  int64_t kinks = 0;                      ///< elements with verdict Kink
  int64_t inconclusive = 0;               ///< elements with verdict Inconclusive
  double maxAbsDiff = 0;  ///< over the elements that are not kinks
  double maxRelError = 0; ///< over the elements that are not kinks
  /// True when no element failed (kinks and inconclusive elements are left
  /// out).
  bool passed() const { return failures == 0; }
  /// True when some checked element passed: the tensor was verified.
  bool verified() const {
    return failures + kinks + inconclusive < int64_t(elements.size());
  }
};

/// The whole check.
struct GradCheckReport {
  float loss = 0;                       ///< L(p) on the batch
  int64_t batch = 0;                    ///< samples in the batch
  double tolerance = 0;                 ///< GradCheckOptions::tolerance
  std::vector<GradCheckTensor> tensors; ///< in the program's parameter order
  /// True when every tensor passed.
  bool passed() const;
  /// True when every tensor passed and was verified (INCONCLUSIVE when
  /// passed() but not this).
  bool verified() const;
};

/// The flat indices \p gradCheck checks in a tensor of \p count elements:
/// all of them when \p count <= \p samples, else \p samples distinct ones
/// drawn with a fixed seed per tensor (\p tensorIndex), sorted: the same on
/// every run, and spread over every row and column (an even stride would
/// keep to the columns it divides).
std::vector<int64_t> gradCheckIndices(int64_t count, int64_t samples, int64_t tensorIndex);

/// The step h for an element of value \p value: 1e-2 * max(1, |value|).
double gradCheckStep(float value);

/// The noise floor of the relative error: the rounding error of a central
/// difference of f32 losses \p lossPlus, \p lossMinus over a step of
/// \p step, divided by \p tolerance.
double gradCheckFloor(double lossPlus, double lossMinus, double step, double tolerance);

/// Checks the gradients of \p program at \p model on \p batch with
/// \p runner's train step (the CPU's). \p model's parameters and state are
/// the same afterwards.
Expected<GradCheckReport> checkGradients(const ModelrtProgram &program, StepRunner &runner,
                                         ModelState &model, const Batch &batch,
                                         const GradCheckOptions &options);

/// Prints the per-tensor table, the kinks and failures (the worst elements
/// of each failing tensor), and the one-line verdict.
void printGradCheckReport(FILE *out, const GradCheckReport &report);

} // namespace modelrt

#endif // MODELRT_TRAIN_GRADCHECK_H
