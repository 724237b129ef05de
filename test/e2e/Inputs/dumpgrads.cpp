//===- dumpgrads.cpp - One train_step's gradients written to files --------===//
//
// Linked with an object from `modelc --emit=obj --no-main`: fills the
// parameters (uniform in [-0.5, 0.5) times SCALE, default 1), the batch of
// inputs (uniform in [-1, 1) plus the offset given; a model of i64 ids:
// ids uniform in [0, input_id_limit)) and the labels (one per sample, or
// label_shape per sample; about one in five is the ignore index when the
// program has one) from a fixed LCG, runs one train_step of the exported
// `modelc_program` at the batch size given and writes every tensor as raw
// little-endian data into DIR: x.f32 (or x.i64), labels.i64, param<i>.f32,
// grad<i>.f32 and manifest.txt (the loss, then one line per parameter:
// "name rank d0 d1 ...").
// Usage: dumpgrads BATCH OFFSET DIR [SCALE].
//
//===----------------------------------------------------------------------===//

#include "modelrt/core/Program.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
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

/// Writes `n` elements of `data` to `path`; false on failure.
bool writeRaw(const std::string &path, const void *data, size_t bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return false;
  bool ok = std::fwrite(data, 1, bytes, f) == bytes;
  return std::fclose(f) == 0 && ok;
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5)
    return std::fprintf(stderr, "usage: dumpgrads BATCH OFFSET DIR [SCALE]\n"), 2;
  const ModelrtProgram &p = modelc_program;
  const int64_t batch = std::atoll(argv[1]);
  const double offset = std::atof(argv[2]);
  const std::string dir = argv[3];
  const double scale = argc == 5 ? std::atof(argv[4]) : 1.0;
  std::vector<std::vector<float>> params(p.num_params), grads(p.num_params);
  std::vector<float *> pp, gp;
  for (int32_t i = 0; i < p.num_params; ++i) {
    params[i].resize(count(p.params[i].shape, p.params[i].rank));
    for (float &v : params[i])
      v = float(scale * 0.5 * next());
    grads[i].resize(params[i].size());
    pp.push_back(params[i].data());
    gp.push_back(grads[i].data());
  }
  std::vector<std::vector<float>> st(p.num_state);
  std::vector<float *> sp;
  for (int32_t i = 0; i < p.num_state; ++i) {
    st[i].assign(count(p.state[i].shape, p.state[i].rank), 1.0f);
    sp.push_back(st[i].data());
  }
  bool ids = p.input_dtype == MODELRT_I64;
  std::vector<float> x(batch * count(p.input_shape, p.input_rank));
  std::vector<int64_t> xi(ids ? x.size() : 0);
  for (float &v : x)
    v = float(offset + next());
  for (int64_t &v : xi)
    v = int64_t((next() + 1) / 2 * double(p.input_id_limit)) % p.input_id_limit;
  std::vector<int64_t> labels(batch * count(p.label_shape, p.label_rank));
  for (int64_t &l : labels) {
    l = int64_t((next() + 1) / 2 * double(p.num_classes)) % p.num_classes;
    if (p.has_ignore_index && next() < -0.6)
      l = p.ignore_index;
  }
  const void *inputs = ids ? static_cast<const void *>(xi.data()) : x.data();
  std::vector<double> metrics(p.num_metrics + 1);
  float loss = 0;
  if (p.train_step(p.context, pp.data(), sp.data(), static_cast<const float *>(inputs),
                   labels.data(),
                   batch, 7, 0, &loss, gp.data(), metrics.data()) != 0)
    return std::fprintf(stderr, "train_step failed\n"), 1;
  bool ok = (ids ? writeRaw(dir + "/x.i64", xi.data(), xi.size() * sizeof(int64_t))
                 : writeRaw(dir + "/x.f32", x.data(), x.size() * sizeof(float))) &&
            writeRaw(dir + "/labels.i64", labels.data(),
                     labels.size() * sizeof(int64_t));
  std::string manifest = "loss " + std::to_string(loss) + "\n";
  for (int32_t i = 0; ok && i < p.num_params; ++i) {
    std::string k = std::to_string(i);
    ok = writeRaw(dir + "/param" + k + ".f32", params[i].data(),
                  params[i].size() * sizeof(float)) &&
         writeRaw(dir + "/grad" + k + ".f32", grads[i].data(),
                  grads[i].size() * sizeof(float));
    manifest += std::string(p.params[i].name) + " " +
                std::to_string(p.params[i].rank);
    for (int32_t d = 0; d < p.params[i].rank; ++d)
      manifest += " " + std::to_string(p.params[i].shape[d]);
    manifest += "\n";
  }
  if (!ok || !writeRaw(dir + "/manifest.txt", manifest.data(), manifest.size()))
    return std::fprintf(stderr, "cannot write into %s\n", dir.c_str()), 1;
  return 0;
}
