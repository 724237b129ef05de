//===- GradCheck.cpp - Compiled gradients against finite differences ------===//
//
// Implements checkGradients and its report (GradCheck.h): one train_step at
// the parameters gives the analytic gradients and L(p); then, for each
// sampled element, two more give L(p + h) and L(p - h) with everything else
// (batch, seed, step, state) the same. The f32 choices:
//
// * h = 1e-2 * max(1, |p|). The central difference's error is its
//   truncation, about h^2 |L'''| / 6, plus the rounding error of the two f32
//   losses divided by 2h; a loss of order 1 computed in f32 is off by a few
//   units of 2^-24, so the sum is smallest near h = 1e-2, and scaling with
//   |p| keeps the step a fixed fraction of a large weight. The perturbed
//   values are rounded to f32 before the call, so the step divided by is the
//   one actually taken, (p + h)_f32 - (p - h)_f32, computed exactly in
//   double.
// * The relative error is |a - n| / max(|a|, |n|, floor), where the floor
//   is the rounding noise of the difference (kLossUlps units in the last
//   place of the larger loss, over the step) divided by the tolerance: an
//   element whose gradient is below what the f32 loss can resolve passes
//   when |a - n| is within that noise.
// * An element that fails at h is checked again with h / 2 (two more
//   calls), and passes when that central difference agrees: a smaller step
//   has less truncation error and crosses fewer kinks.
// * A kink (relu, max-pool, abs) within h of p makes the central difference
//   mix two slopes. Where the loss is smooth, the differences barely move
//   with the step: the central differences at h and h / 2 differ by 3/4 of
//   the truncation error, and the gap between the one-sided differences
//   (L(p + h) - L(p)) / h and (L(p) - L(p - h)) / h is h L'', twice the gap
//   at h / 2. Their departures from that, beyond rounding noise, are the
//   element's spread. An element that fails at both steps is a kink,
//   reported and left out of the verdict, when its analytic gradient lies
//   within kSpreadFactor spreads (plus the tolerance) of the difference at
//   h / 2 (a relu layer's many kinks, one per sample and unit, move the
//   differences about as much as they move them away from the slope), or
//   when it matches one of the one-sided differences, at h or h / 2, that
//   disagree with each other: the slope on p's side of a kink lying on the
//   other side. A gradient that is wrong where the loss is smooth has no
//   spread and matches no side, and fails.
// * Many kinks: a relu layer over B * H * W positions puts hundreds of kinks
//   within h of p, each bending the loss a little, and a first-layer bias
//   or weight moves all of them. The differences at h and h / 2 then agree
//   with each other and still miss the slope at p by a few percent, even in
//   exact arithmetic (central differences in float64 of the example CNN at
//   h = 1e-2 miss PyTorch's gradient by up to 50% on small elements; only
//   h near 1e-5, below what an f32 loss resolves, agrees). So in a tensor
//   where the check has found kinks, an element that fails by at most
//   kInconclusiveFactor tolerances is inconclusive: listed, left out of the
//   verdict. Larger misses (a wrong rule is off by its factor) and every
//   miss in a tensor without kinks still fail. A tensor none of whose
//   checked elements passed was not verified: the verdict is then
//   INCONCLUSIVE, not PASS.
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/GradCheck.h"

#include "modelrt/core/Rng.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace modelrt {
namespace {

/// Units in the last place of an f32 loss taken as its rounding noise: a
/// mean of per-sample losses, each through a few layers of f32 sums (the
/// central differences of the test models' losses show 2 to 3).
constexpr double kLossUlps = 8;

/// How many spreads a kink may move the analytic gradient away from the
/// difference at h/2 (GradCheck.cpp's header; chosen on relu models, where
/// 3 left one element in 16,000 failing and 6 none).
constexpr double kSpreadFactor = 6;

/// Runs train_step at the model's current parameters from a fixed state,
/// with the same batch, seed and step every time.
class LossProbe {
public:
  LossProbe(StepRunner &runner, ModelState &model, const Batch &batch,
            const GradCheckOptions &options, int32_t numMetrics)
      : runner(runner), model(model), batch(batch), options(options),
        savedState(model.state), metrics(size_t(std::max(numMetrics, 0)) + 1) {
    for (const std::vector<float> &p : model.params)
      grads.emplace_back(p.size(), 0.0f);
    for (std::vector<float> &g : grads)
      gradPtrs.push_back(g.data());
  }
  /// One train_step; the state is restored before and after it, so that
  /// running statistics never drift between calls.
  Status run(float &loss) {
    restoreState();
    std::fill(metrics.begin(), metrics.end(), 0.0);
    Status st = runner.train(model, batch, options.seed, options.step, &loss, gradPtrs.data(),
                             metrics.data());
    restoreState();
    return st;
  }
  /// The gradients of the last run().
  const std::vector<std::vector<float>> &gradients() const { return grads; }

private:
  void restoreState() {
    for (size_t i = 0; i < savedState.size(); ++i)
      std::copy(savedState[i].begin(), savedState[i].end(), model.state[i].begin());
  }
  StepRunner &runner;
  ModelState &model;
  const Batch &batch;
  const GradCheckOptions &options;
  std::vector<std::vector<float>> savedState, grads;
  std::vector<float *> gradPtrs;
  std::vector<double> metrics;
};

/// |a - b| relative to the larger magnitude, floored at \p floor.
double relativeError(double a, double b, double floor) {
  double scale = std::max({std::fabs(a), std::fabs(b), floor});
  double diff = std::fabs(a - b);
  return diff == 0 ? 0 : scale > 0 ? diff / scale : HUGE_VAL;
}

/// The losses around one element: at p - h, p - h/2, p, p + h/2, p + h,
/// each position as the f32 value actually given to train_step.
struct Neighbourhood {
  double at[5] = {0, 0, 0, 0, 0};
  double loss[5] = {0, 0, 0, 0, 0};
  /// The central difference over positions \p lo and \p hi.
  double central(int lo, int hi) const { return (loss[hi] - loss[lo]) / (at[hi] - at[lo]); }
  /// Its noise floor (gradCheckFloor) for \p tol.
  double floor(int lo, int hi, double tol) const {
    return gradCheckFloor(loss[hi], loss[lo], at[hi] - at[lo], tol);
  }
};

/// Fills \p e from the losses at p and p +- h: passes, or needs p +- h/2.
bool judgeFullStep(GradCheckElement &e, const Neighbourhood &n, double tol) {
  e.step = n.at[4] - n.at[0];
  e.central = e.numeric = n.central(0, 4);
  e.forward = n.central(2, 4), e.backward = n.central(0, 2);
  if (!std::isfinite(e.numeric) || !std::isfinite(e.analytic)) {
    e.relError = HUGE_VAL, e.verdict = GradCheckVerdict::Fail;
    return true; // nothing more to learn
  }
  e.relError = relativeError(e.analytic, e.numeric, n.floor(0, 4, tol));
  e.verdict = e.relError <= tol ? GradCheckVerdict::Pass : GradCheckVerdict::Fail;
  return e.verdict == GradCheckVerdict::Pass;
}

/// True when the one-sided differences over positions \p lo..2 and 2..\p hi
/// disagree and the analytic gradient matches one of them: the slope on
/// p's side of a kink that lies on the other side.
bool matchesOneSide(const GradCheckElement &e, const Neighbourhood &n, int lo, int hi,
                    double tol) {
  double floor = 2 * n.floor(lo, hi, tol); // over half the step
  double forward = n.central(2, hi), backward = n.central(lo, 2);
  return relativeError(forward, backward, floor) > tol &&
         (relativeError(e.analytic, forward, floor) <= tol ||
          relativeError(e.analytic, backward, floor) <= tol);
}

/// Fills \p e's verdict from all five losses after the full step failed.
void judgeHalfStep(GradCheckElement &e, const Neighbourhood &n, double tol) {
  e.centralHalf = n.central(1, 3);
  double halfFloor = n.floor(1, 3, tol);
  double halfError = relativeError(e.analytic, e.centralHalf, halfFloor);
  if (halfError <= tol) {
    e.numeric = e.centralHalf, e.relError = halfError, e.verdict = GradCheckVerdict::Pass;
    return;
  }
  if (!std::isfinite(e.centralHalf)) {
    e.verdict = GradCheckVerdict::Fail;
    return;
  }
  // How far the differences move with the step beyond their rounding noise
  // (`noise`: the central difference's at h; the margins are about twice
  // the largest departures measured on smooth models): the two central
  // differences, and the one-sided gap against twice the gap at h/2.
  double noise = tol * n.floor(0, 4, tol);
  double gap = e.forward - e.backward, halfGap = n.central(2, 3) - n.central(1, 2);
  e.spread = std::max(0.0, std::fabs(e.central - e.centralHalf) - noise) +
             std::max(0.0, std::fabs(gap - 2 * halfGap) / 2 - 2 * noise);
  double allowed = tol * std::max({std::fabs(e.analytic), std::fabs(e.centralHalf), halfFloor});
  bool withinSpread = e.spread > 0 && std::fabs(e.analytic - e.centralHalf) <=
                                          allowed + kSpreadFactor * e.spread;
  bool oneSided = matchesOneSide(e, n, 0, 4, tol) || matchesOneSide(e, n, 1, 3, tol);
  e.verdict = withinSpread || oneSided ? GradCheckVerdict::Kink : GradCheckVerdict::Fail;
}

/// train_step's loss with parameter \p param set to \p value.
Status lossAt(LossProbe &probe, float &param, float value, double &loss) {
  float saved = param, l = 0;
  param = value;
  Status st = probe.run(l);
  param = saved;
  loss = l;
  return st;
}

/// Checks element \p index of parameter \p t (analytic gradient \p analytic).
Expected<GradCheckElement> checkElement(LossProbe &probe, ModelState &model, size_t t,
                                        int64_t index, double analytic, double loss0,
                                        double tol) {
  GradCheckElement e;
  e.index = index, e.analytic = analytic;
  float &param = model.params[t][size_t(index)];
  const float value = param;
  const double h = gradCheckStep(value), offsets[5] = {-h, -h / 2, 0, h / 2, h};
  Neighbourhood n;
  for (int k = 0; k < 5; ++k)
    n.at[k] = double(float(double(value) + offsets[k]));
  n.loss[2] = loss0;
  MODELRT_TRY(lossAt(probe, param, float(n.at[4]), n.loss[4]));
  MODELRT_TRY(lossAt(probe, param, float(n.at[0]), n.loss[0]));
  if (judgeFullStep(e, n, tol)) // passed, or not finite
    return e;
  MODELRT_TRY(lossAt(probe, param, float(n.at[3]), n.loss[3]));
  MODELRT_TRY(lossAt(probe, param, float(n.at[1]), n.loss[1]));
  judgeHalfStep(e, n, tol);
  return e;
}

/// Adds \p e to \p t's counts and maxima.
void account(GradCheckTensor &t, const GradCheckElement &e) {
  if (e.verdict == GradCheckVerdict::Kink) {
    ++t.kinks;
  } else {
    t.failures += e.verdict == GradCheckVerdict::Fail;
    double diff = std::fabs(e.analytic - e.numeric);
    t.maxAbsDiff = std::max(t.maxAbsDiff, std::isnan(diff) ? HUGE_VAL : diff);
    t.maxRelError = std::max(t.maxRelError, e.relError);
  }
  t.elements.push_back(e);
}

/// After a tensor is checked: when it has kinks of its own, its failures
/// within kInconclusiveFactor tolerances become inconclusive (file header).
void markInconclusive(GradCheckTensor &t, double tolerance) {
  if (t.kinks == 0)
    return;
  for (GradCheckElement &e : t.elements)
    if (e.verdict == GradCheckVerdict::Fail && e.relError <= kInconclusiveFactor * tolerance) {
      e.verdict = GradCheckVerdict::Inconclusive;
      --t.failures, ++t.inconclusive;
    }
}

/// "[i, j]" for flat index \p index of \p shape.
std::string elementName(const std::string &tensor, const std::vector<int64_t> &shape,
                        int64_t index) {
  std::string out;
  for (size_t d = shape.size(); d-- > 0;) {
    out = std::to_string(index % shape[d]) + (out.empty() ? "" : ", ") + out;
    index /= shape[d];
  }
  return tensor + "[" + out + "]";
}

/// The label of an element with verdict \p v in the lists.
const char *verdictName(GradCheckVerdict v) {
  return v == GradCheckVerdict::Kink ? "kink"
         : v == GradCheckVerdict::Inconclusive ? "inconclusive"
         : v == GradCheckVerdict::Fail ? "FAIL" : "pass";
}

/// Prints up to \p limit elements of \p r with verdict \p which.
void printElements(FILE *out, const GradCheckReport &r, GradCheckVerdict which, int limit) {
  int printed = 0, total = 0;
  for (const GradCheckTensor &t : r.tensors)
    for (const GradCheckElement &e : t.elements) {
      if (e.verdict != which || total++ >= limit)
        continue;
      ++printed;
      std::fprintf(out, "  %s %s: analytic %.6g, central %.6g (h/2: %.6g), one-sided %.6g / "
                        "%.6g, spread %.2g, rel %.3g\n", verdictName(which),
                   elementName(t.name, t.shape, e.index).c_str(), e.analytic, e.central,
                   e.centralHalf, e.backward, e.forward, e.spread, e.relError);
    }
  if (total > printed)
    std::fprintf(out, "  ... and %d more\n", total - printed);
}

/// The result column of \p t's row.
std::string tensorResult(const GradCheckTensor &t) {
  if (!t.passed())
    return "FAIL";
  if (!t.elements.empty() && t.kinks + t.inconclusive == int64_t(t.elements.size()))
    return "kinks only";
  return t.inconclusive ? "ok, " + std::to_string(t.inconclusive) + " inconclusive" : "ok";
}

/// The one-line verdict.
void printVerdict(FILE *out, const GradCheckReport &r) {
  int64_t failed = 0, kinks = 0, inconclusive = 0, checked = 0;
  std::string names;
  for (const GradCheckTensor &t : r.tensors) {
    kinks += t.kinks, inconclusive += t.inconclusive, checked += int64_t(t.elements.size());
    if (!t.passed())
      names += (failed++ ? ", " : "") + t.name;
  }
  std::string kinkNote = kinks ? ", " + std::to_string(kinks) + " kink(s)" : "";
  if (inconclusive)
    kinkNote += (kinks ? " and " : ", ") + std::to_string(inconclusive) + " inconclusive";
  if (kinks || inconclusive)
    kinkNote += " left out";
  if (failed == 0 && !r.verified()) {
    std::string unverified;
    for (const GradCheckTensor &t : r.tensors)
      if (!t.verified())
        unverified += (unverified.empty() ? "" : ", ") + t.name;
    std::fprintf(out, "gradcheck: INCONCLUSIVE: no checked element of %s matched its f32 "
                      "central difference: each sits near a kink%s; try another --batch, "
                      "--checkpoint or more --samples\n", unverified.c_str(), kinkNote.c_str());
  } else if (failed == 0)
    std::fprintf(out, "gradcheck: PASS: %lld of %lld elements of %zu parameter tensors match "
                      "their f32 central differences within %g%s\n",
                 (long long)(checked - kinks - inconclusive), (long long)checked,
                 r.tensors.size(), r.tolerance, kinkNote.c_str());
  else
    std::fprintf(out, "gradcheck: FAIL: %lld of %zu parameter tensors differ from their f32 "
                      "central differences beyond %g (%s)%s\n", (long long)failed,
                 r.tensors.size(), r.tolerance, names.c_str(), kinkNote.c_str());
}

} // namespace

bool GradCheckReport::verified() const {
  return passed() && std::all_of(tensors.begin(), tensors.end(),
                                 [](const GradCheckTensor &t) { return t.verified(); });
}

bool GradCheckReport::passed() const {
  return std::all_of(tensors.begin(), tensors.end(),
                     [](const GradCheckTensor &t) { return t.passed(); });
}

std::vector<int64_t> gradCheckIndices(int64_t count, int64_t samples, int64_t tensorIndex) {
  std::vector<int64_t> all(size_t(std::max<int64_t>(count, 0)));
  std::iota(all.begin(), all.end(), 0);
  if (count <= samples)
    return all;
  Rng rng(mixSeed(0x6c4ec4, uint64_t(tensorIndex)));
  for (int64_t i = 0; i < samples; ++i) // a partial Fisher-Yates shuffle
    std::swap(all[size_t(i)], all[size_t(i + int64_t(rng.below(uint64_t(count - i))))]);
  all.resize(size_t(samples));
  std::sort(all.begin(), all.end());
  return all;
}

double gradCheckStep(float value) { return 1e-2 * std::max(1.0, std::fabs(double(value))); }

double gradCheckFloor(double lossPlus, double lossMinus, double step, double tolerance) {
  double loss = std::max(std::fabs(lossPlus), std::fabs(lossMinus));
  double noise = kLossUlps * std::ldexp(std::max(loss, 1e-30), -23) / step;
  return noise / tolerance;
}

Expected<GradCheckReport> checkGradients(const ModelrtProgram &p, StepRunner &runner,
                                         ModelState &model, const Batch &batch,
                                         const GradCheckOptions &o) {
  if (o.samples < 1 || !(o.tolerance > 0))
    return errorf("gradcheck: samples must be >= 1 and the tolerance > 0");
  LossProbe probe(runner, model, batch, o, p.num_metrics);
  GradCheckReport r;
  r.batch = batch.size, r.tolerance = o.tolerance;
  MODELRT_TRY(probe.run(r.loss));
  const std::vector<std::vector<float>> analytic = probe.gradients();
  for (int32_t t = 0; t < p.num_params; ++t) {
    GradCheckTensor tensor;
    tensor.name = p.params[t].name;
    tensor.shape.assign(p.params[t].shape, p.params[t].shape + p.params[t].rank);
    for (int64_t i : gradCheckIndices(int64_t(analytic[size_t(t)].size()), o.samples, t)) {
      auto e = checkElement(probe, model, size_t(t), i, analytic[size_t(t)][size_t(i)], r.loss,
                            o.tolerance);
      if (!e)
        return errorf("gradcheck: %s: %s", elementName(tensor.name, tensor.shape, i).c_str(),
                      e.message().c_str());
      account(tensor, *e);
    }
    markInconclusive(tensor, o.tolerance);
    r.tensors.push_back(std::move(tensor));
  }
  return r;
}

void printGradCheckReport(FILE *out, const GradCheckReport &r) {
  size_t width = 9;
  for (const GradCheckTensor &t : r.tensors)
    width = std::max(width, t.name.size());
  std::fprintf(out, "%-*s  %-16s %7s %5s  %12s  %12s  %s\n", int(width), "parameter", "shape",
               "checked", "kinks", "max |a - n|", "max rel err", "result");
  for (const GradCheckTensor &t : r.tensors)
    std::fprintf(out, "%-*s  %-16s %7zu %5lld  %12.3e  %12.3e  %s\n", int(width), t.name.c_str(),
                 shapeToString(t.shape).c_str(), t.elements.size(), (long long)t.kinks,
                 t.maxAbsDiff, t.maxRelError, tensorResult(t).c_str());
  printElements(out, r, GradCheckVerdict::Fail, 10);
  printElements(out, r, GradCheckVerdict::Inconclusive, 10);
  printElements(out, r, GradCheckVerdict::Kink, 10);
  printVerdict(out, r);
}

} // namespace modelrt
