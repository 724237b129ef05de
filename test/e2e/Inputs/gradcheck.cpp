//===- gradcheck.cpp - Compiled gradients vs central finite differences ---===//
//
// Linked with an object from `modelc --emit=obj --no-main`: drives the
// exported `modelc_program` (runtime/include/modelrt/core/Program.h) directly.
// Parameters, inputs and labels are filled from a fixed LCG; train_step
// gives the loss and gradients; each parameter element's gradient is then
// compared with the central difference (L(p+h) - L(p-h)) / 2h of the loss
// train_step reports (same seed, so any dropout mask is the same). Also
// checks that eval_step's mean loss equals train_step's for a model
// without dropout or batch norm. Prints one line per parameter and exits 1
// on any mismatch.
//
//===----------------------------------------------------------------------===//

#include "modelrt/core/Program.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" const ModelrtProgram modelc_program;

namespace {
uint64_t state = 42;
/// Uniform in [-1, 1) from a 64-bit LCG (Knuth's MMIX constants).
double next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return double(state >> 11) / double(1ull << 53) * 2 - 1;
}

int64_t count(const int64_t *shape, int32_t rank) {
  int64_t n = 1;
  for (int32_t i = 0; i < rank; ++i)
    n *= shape[i];
  return n;
}
} // namespace

int main() {
  const ModelrtProgram &p = modelc_program;
  const int64_t batch = 5;
  std::vector<std::vector<float>> params(p.num_params), grads(p.num_params);
  std::vector<float *> pp, gp;
  for (int32_t i = 0; i < p.num_params; ++i) {
    params[i].resize(count(p.params[i].shape, p.params[i].rank));
    for (float &v : params[i])
      v = float(0.5 * next());
    grads[i].resize(params[i].size());
    pp.push_back(params[i].data());
    gp.push_back(grads[i].data());
  }
  std::vector<std::vector<float>> state(p.num_state);
  std::vector<float *> sp;
  for (int32_t i = 0; i < p.num_state; ++i) {
    state[i].assign(count(p.state[i].shape, p.state[i].rank), 1.0f);
    sp.push_back(state[i].data());
  }
  std::vector<float> x(batch * count(p.input_shape, p.input_rank));
  for (float &v : x)
    v = float(next());
  std::vector<int64_t> labels(batch);
  for (int64_t n = 0; n < batch; ++n)
    labels[n] = int64_t((next() + 1) / 2 * double(p.num_classes)) % p.num_classes;

  std::vector<double> metrics(p.num_metrics + 1);
  auto lossAt = [&]() {
    float loss = 0;
    std::vector<std::vector<float>> scratch = grads;
    std::vector<float *> sg;
    for (auto &g : scratch)
      sg.push_back(g.data());
    p.train_step(p.context, pp.data(), sp.data(), x.data(), labels.data(),
                 batch, 7, 0, &loss, sg.data(), metrics.data());
    return double(loss);
  };
  float loss = 0;
  if (p.train_step(p.context, pp.data(), sp.data(), x.data(), labels.data(),
                   batch, 7, 0, &loss, gp.data(), metrics.data()) != 0)
    return std::printf("train_step failed\n"), 1;
  float evalLoss = 0;
  p.eval_step(p.context, pp.data(), sp.data(), x.data(), labels.data(), batch,
              &evalLoss, metrics.data());
  std::printf("loss %.6f eval loss %.6f\n", loss, evalLoss);
  int failures = std::fabs(loss - evalLoss) > 1e-5 * (1 + std::fabs(loss));
  const float h = 5e-3f;
  for (int32_t i = 0; i < p.num_params; ++i) {
    double worst = 0;
    for (size_t k = 0; k < params[i].size(); ++k) {
      float saved = params[i][k];
      params[i][k] = saved + h;
      double up = lossAt();
      params[i][k] = saved - h;
      double down = lossAt();
      params[i][k] = saved;
      double fd = (up - down) / (2.0 * h);
      double err = std::fabs(fd - grads[i][k]) / (1e-3 + std::fabs(fd));
      worst = std::max(worst, err);
      if (std::fabs(fd - grads[i][k]) > 2e-3 + 2e-2 * std::fabs(fd)) {
        std::printf("MISMATCH %s[%zu]: compiled %.6g, finite difference %.6g\n",
                    p.params[i].name, k, double(grads[i][k]), fd);
        ++failures;
      }
    }
    std::printf("param %s: %zu elements, worst relative error %.2e\n",
                p.params[i].name, params[i].size(), worst);
  }
  std::printf(failures ? "FAILED\n" : "gradients OK\n");
  return failures ? 1 : 0;
}
