//===- CudaGpuCheck.cpp - The CUDA layer on a real GPU (device check) ------===//
//
// A program, not a unit test: run it on a machine with an NVIDIA GPU to check
// modelrt's CUDA layer against the real driver and cuBLAS. It runs the host
// code MLIR 22 generated from GeneratedHostCode.mlir (PTX JIT-loaded by the
// driver), modelrt_cuda_sgemm against a double-precision CPU reference for
// both orders, all transpositions and odd shapes (split-K products too),
// modelrt_cuda_gemm_bf16 / _tf32 (rounded operands: errors between f32's
// and the rounding's bound),
// the fused attention kernels against the CPU's (every width class, both
// layouts, causal or not, fewer queries than keys), the cuDNN convolutions
// (CudnnGpuCheck.cpp),
// the pool's reuse, an
// asynchronous upload, the scratch cells, CUDA graph capture and replay, and
// last a sticky error. Prints one
// line per check; exit status 0 when all pass, 1 on a failure, 2 when no GPU
// is usable (the reason is printed). `--no-timing` skips the 4096^3 sgemm
// timing (for a run against the fake driver of the unit tests).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Attention.h"
#include "modelrt/cuda/AttentionKernels.h"
#include "modelrt/cuda/Cuda.h"
#include "modelrt/cuda/GpuAbi.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace modelrt;
using namespace modelrt::cuda;

namespace {
struct MemRef1D {
  float *allocated, *aligned;
  int64_t offset, size, stride;
};
} // namespace

extern "C" void _mlir_ciface_fill(MemRef1D *buf, float v);

/// The cuDNN convolutions' checks (CudnnGpuCheck.cpp): the number of
/// failures.
int checkCudnnConvolutions(bool timing);

namespace {

int failures = 0;

void report(bool ok, const std::string &what) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
  if (!ok)
    ++failures;
}

bool statusOk() { return modelrt_cuda_status() == 0; }

void checkGeneratedCode() {
  float data[16];
  for (int i = 0; i < 16; ++i)
    data[i] = float(i);
  MemRef1D desc{data, data, 0, 16, 1};
  _mlir_ciface_fill(&desc, 1.5f);
  bool ok = statusOk();
  for (int i = 0; i < 16; ++i)
    ok = ok && data[i] == float(i) + 1.5f;
  report(ok, std::string("MLIR-generated host code + JIT-loaded PTX kernel ") +
                 modelrt_cuda_error_message());
}

/// The operands of one sgemm case, stored in the case's order.
struct GemmCase {
  bool rowMajor, ta, tb;
  int64_t M, N, K, lda, ldb, ldc;
  std::vector<float> A, B, C;
  float el(const std::vector<float> &m, int64_t ld, int64_t r,
           int64_t c) const {
    return rowMajor ? m[r * ld + c] : m[r + c * ld];
  }
};

/// 0.75 op(A) op(B) - 0.5 C in double precision, stored like C.
std::vector<double> reference(const GemmCase &g) {
  std::vector<double> expected(g.M * g.N);
  for (int64_t i = 0; i < g.M; ++i)
    for (int64_t j = 0; j < g.N; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < g.K; ++p)
        sum += double(g.ta ? g.el(g.A, g.lda, p, i) : g.el(g.A, g.lda, i, p)) *
               (g.tb ? g.el(g.B, g.ldb, j, p) : g.el(g.B, g.ldb, p, j));
      expected[g.rowMajor ? i * g.ldc + j : i + j * g.ldc] =
          0.75 * sum - 0.5 * g.el(g.C, g.ldc, i, j);
    }
  return expected;
}

/// Random operands for op(A) M x K, op(B) K x N.
GemmCase makeCase(bool rowMajor, bool ta, bool tb, int64_t M, int64_t N,
                  int64_t K, std::mt19937 &rng) {
  int64_t aRows = ta ? K : M, aCols = ta ? M : K;
  int64_t bRows = tb ? N : K, bCols = tb ? K : N;
  GemmCase g{rowMajor, ta, tb, M, N, K,
             rowMajor ? aCols : aRows, rowMajor ? bCols : bRows,
             rowMajor ? N : M, {}, {}, {}};
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  g.A.resize(aRows * aCols);
  g.B.resize(bRows * bCols);
  g.C.resize(M * N);
  for (std::vector<float> *v : {&g.A, &g.B, &g.C})
    for (float &x : *v)
      x = dist(rng);
  return g;
}

using GemmEntry = decltype(&modelrt_cuda_sgemm);

/// One product case on the GPU through \p entry; the largest relative error.
double sgemmCase(GemmCase g, GemmEntry entry = modelrt_cuda_sgemm) {
  std::vector<double> expected = reference(g);
  Expected<DeviceBuffer> dA = DeviceBuffer::allocate(g.A.size() * 4);
  Expected<DeviceBuffer> dB = DeviceBuffer::allocate(g.B.size() * 4);
  Expected<DeviceBuffer> dC = DeviceBuffer::allocate(g.C.size() * 4);
  if (!dA || !dB || !dC || !uploadFloats(*dA, g.A.data(), g.A.size()) ||
      !uploadFloats(*dB, g.B.data(), g.B.size()) ||
      !uploadFloats(*dC, g.C.data(), g.C.size()))
    return 1e9;
  entry(g.rowMajor ? 101 : 102, g.ta ? 112 : 111, g.tb ? 112 : 111, g.M, g.N, g.K, 0.75f,
        dA->floats(), g.lda, dB->floats(), g.ldb, -0.5f, dC->floats(), g.ldc);
  if (!downloadFloats(g.C.data(), *dC, g.C.size()))
    return 1e9;
  double worst = 0;
  for (size_t i = 0; i < g.C.size(); ++i)
    worst = std::max(worst, std::fabs(g.C[i] - expected[i]) /
                                (1.0 + std::fabs(expected[i])));
  return worst;
}

void checkSgemm() {
  std::mt19937 rng(7);
  const int64_t dims[] = {1, 7, 63, 65, 257};
  double worst = 0;
  int cases = 0;
  for (bool rowMajor : {true, false})
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        for (int64_t M : dims)
          for (int64_t N : dims)
            for (int64_t K : dims) {
              worst = std::max(
                  worst, sgemmCase(makeCase(rowMajor, ta, tb, M, N, K, rng)));
              ++cases;
            }
  char line[160];
  std::snprintf(line, sizeof(line),
                "modelrt_cuda_sgemm: %d cases, worst relative error %.2e", cases,
                worst);
  report(statusOk() && worst < 1e-4, line);
}

/// Products with few outputs and a long inner dimension, which
/// modelrt_cuda_sgemm splits (GemmMapping.h: planSplitK): every order and
/// transposition of a short one, then the CNN's first weight gradient at
/// batch 512 and a square 64 x 64 output.
void checkSplitK() {
  std::mt19937 rng(11);
  double worst = 0;
  int cases = 0;
  for (bool rowMajor : {true, false})
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        worst = std::max(worst, sgemmCase(makeCase(rowMajor, ta, tb, 3, 5, 8195, rng)));
        ++cases;
      }
  worst = std::max(worst, sgemmCase(makeCase(true, false, true, 9, 32, 401408, rng)));
  worst = std::max(worst, sgemmCase(makeCase(false, true, false, 64, 64, 16384, rng)));
  cases += 2;
  char line[160];
  std::snprintf(line, sizeof(line),
                "modelrt_cuda_sgemm split-K: %d cases, worst relative error %.2e", cases,
                worst);
  report(statusOk() && worst < 1e-4, line);
}

/// modelrt_cuda_gemm_bf16 and _tf32 (the tensor cores) against the same
/// float64 reference of the unrounded operands, 7 x 9 over K = 4096 (and
/// a split one, 3 x 5 over 8195). Each operand in [-1, 1] is off by at
/// most one unit in the last place of the rounded format (2^-7 in bf16,
/// 2^-10 in TF32, whatever the rounding mode), so each term by 2 ulps, and
/// the result by 0.75 K 2 ulp at most (the f32 accumulation adds far
/// less). The error must also exceed the f32 check's 1e-4: the operands
/// were rounded.
void checkTensorCoreProducts() {
  const std::pair<const char *, GemmEntry> entries[] = {{"bf16", modelrt_cuda_gemm_bf16},
                                                        {"tf32", modelrt_cuda_gemm_tf32}};
  for (const auto &[name, entry] : entries) {
    double ulp = std::ldexp(1.0, std::strcmp(name, "bf16") == 0 ? -7 : -10), worst = 0;
    std::mt19937 rng(13);
    for (int64_t K : {4096, 8195})
      worst = std::max(worst, sgemmCase(makeCase(true, false, true, K == 4096 ? 7 : 3,
                                                 K == 4096 ? 9 : 5, K, rng),
                                        entry));
    double bound = 0.75 * 8195 * 2 * ulp;
    char line[160];
    std::snprintf(line, sizeof(line),
                  "modelrt_cuda_gemm_%s: worst relative error %.2e (in (1e-4, %.2g))", name,
                  worst, bound);
    report(statusOk() && worst > 1e-4 && worst < bound, line);
  }
}

void checkPoolReuse() {
  const uint64_t sizes[] = {4, 1000, 70000, 3 << 20, 100 << 20};
  uint64_t before = 0;
  for (int step = 0; step < 10; ++step) {
    if (step == 1)
      before = devicePoolStats().backendAllocations;
    std::vector<DeviceBuffer> buffers;
    for (uint64_t s : sizes)
      if (Expected<DeviceBuffer> b = DeviceBuffer::allocate(s))
        buffers.push_back(b.take());
  }
  DevicePoolStats stats = devicePoolStats();
  report(statusOk() && stats.backendAllocations == before,
         "device pool: no cuMemAlloc after the first step (" +
             std::to_string(stats.reuses) + " reuses, peak " +
             std::to_string(stats.peakReserved >> 20) + " MiB reserved)");
}

void checkAsyncUpload() {
  const size_t n = 1 << 20;
  Expected<PinnedBuffer> pinned = PinnedBuffer::allocate(n * 4);
  Expected<DeviceBuffer> dev = DeviceBuffer::allocate(n * 4);
  Expected<UploadFence> fence = UploadFence::create();
  bool ok = pinned && dev && fence;
  if (ok) {
    for (size_t i = 0; i < n; ++i)
      pinned->floats()[i] = float(i % 1000);
    ok = uploadAsync(dev->data(), *pinned, n * 4, *fence).isOk() &&
         fence->wait().isOk();
    std::vector<float> back(n);
    ok = ok && downloadFloats(back.data(), *dev, n).isOk();
    for (size_t i = 0; ok && i < n; ++i)
      ok = back[i] == float(i % 1000);
  }
  report(ok && statusOk(), "uploadAsync on the copy stream + UploadFence");
}

void checkScratch() {
  char cells[64 * 64];
  std::memset(cells, 1, sizeof(cells));
  void *cell0 = modelrt_cuda_scratch(0);
  modelrt_cuda_download(cells, cell0, sizeof(cells));
  bool zero = true;
  for (char c : cells)
    zero = zero && c == 0;
  float loss = 3.25f, back = 0;
  modelrt_cuda_upload(modelrt_cuda_scratch(5), &loss, 4);
  modelrt_cuda_download(&back, modelrt_cuda_scratch(5), 4);
  // All cells back at once, into the pinned mirror (the adapters' path).
  float fetched = 0;
  std::memcpy(&fetched, static_cast<const char *>(modelrt_cuda_fetch_scratch(6)) + 5 * 64, 4);
  report(statusOk() && zero && back == loss && fetched == loss,
         "scratch cells (one at a time, and fetched together)");
}

/// A CUDA graph of a copy and an sgemm (C = A B, 64x64x64): the capture runs
/// nothing, a replay computes with the data of its time, the seed is written
/// outside the graph; a capture of host code that waits fails without a
/// sticky error.
void checkGraphs() {
  const int64_t n = 64;
  Expected<DeviceBuffer> a = DeviceBuffer::allocate(n * n * 4), a2 = DeviceBuffer::allocate(n * n * 4),
                         c = DeviceBuffer::allocate(n * n * 4), seed = DeviceBuffer::allocate(8);
  if (!a || !a2 || !c || !seed)
    return report(false, "CUDA graph: allocation");
  std::vector<float> hostA(n * n), hostC(n * n), zeros(n * n, 0.0f);
  uploadFloats(*c, zeros.data(), n * n);
  Expected<StepGraph> graph = StepGraph::capture([&] {
    modelrt_cuda_copy(a2->data(), a->data(), n * n * 4);
    modelrt_cuda_sgemm(101, 111, 111, n, n, n, 1.0f, a2->floats(), n, a2->floats(), n, 0.0f,
                       c->floats(), n);
    modelrt_cuda_copy(seed->data(), modelrt_cuda_seed_cell(1), 8);
    return stickyStatus();
  });
  bool ok = graph.isOk();
  bool ranNothing = ok && downloadFloats(hostC.data(), *c, n * n).isOk() && hostC == zeros;
  for (int round = 0; ok && round < 2; ++round) {
    for (int64_t i = 0; i < n * n; ++i)
      hostA[i] = float((i * 7 + round * 3) % 11) - 5.0f;
    uint64_t want = 1000 + uint64_t(round), got = 0;
    ok = uploadFloats(*a, hostA.data(), n * n).isOk() && modelrt_cuda_seed_cell(want) &&
         graph->launch().isOk() && downloadFloats(hostC.data(), *c, n * n).isOk() &&
         download(&got, seed->data(), 8).isOk() && got == want;
    for (int64_t i = 0; ok && i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double ref = 0;
        for (int64_t k = 0; k < n; ++k)
          ref += double(hostA[i * n + k]) * hostA[k * n + j];
        ok = ok && std::fabs(hostC[i * n + j] - ref) <= 1e-3 * (1 + std::fabs(ref));
      }
  }
  report(ok && ranNothing && statusOk(),
         "CUDA graph: copy + sgemm + seed cell captured, replayed twice with new data " +
             (graph ? std::to_string(graph->nodeCount()) + " nodes" : graph.message()));
  float data[16] = {};
  MemRef1D desc{data, data, 0, 16, 1};
  Expected<StepGraph> waits = StepGraph::capture([&] {
    _mlir_ciface_fill(&desc, 1.0f); // copies to and from host memory: waits
    return stickyStatus();
  });
  report(!waits.isOk() && statusOk(),
         "CUDA graph: a capture that waits fails, no sticky error: " +
             (waits ? std::string("captured") : waits.message()));
}

void timeSgemm() {
  const int64_t n = 4096;
  Expected<DeviceBuffer> a = DeviceBuffer::allocate(n * n * 4);
  Expected<DeviceBuffer> c = DeviceBuffer::allocate(n * n * 4);
  if (!a || !c)
    return;
  modelrt_cuda_sgemm(101, 111, 111, n, n, n, 1.0f, a->floats(), n,
                     a->floats(), n, 0.0f, c->floats(), n); // warm-up
  synchronize();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i)
    modelrt_cuda_sgemm(101, 111, 111, n, n, n, 1.0f, a->floats(), n,
                       a->floats(), n, 0.0f, c->floats(), n);
  bool ok = synchronize().isOk();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           start).count();
  std::printf("INFO sgemm 4096^3 (FP32): %.1f TFLOP/s\n",
              10 * 2.0 * n * n * n / s / 1e12);
  report(ok, "sgemm timing run");
}

/// Device copies of host vectors, and the largest relative difference of a
/// device result from the CPU's.
struct AttentionCase {
  std::vector<DeviceBuffer> buffers;
  bool ok = true;

  float *upload(const std::vector<float> &host) {
    Expected<DeviceBuffer> b = DeviceBuffer::allocate(host.size() * 4);
    if (!b || !uploadFloats(*b, host.data(), host.size())) {
      ok = false;
      return nullptr;
    }
    buffers.push_back(std::move(*b));
    return buffers.back().floats();
  }
  double worst(float *device, const std::vector<float> &want) {
    std::vector<float> got(want.size());
    if (!ok || !downloadFloats(got.data(), *findBuffer(device), got.size()))
      return 1e9;
    double w = 0;
    for (size_t i = 0; i < got.size(); ++i)
      w = std::max(w, std::fabs(double(got[i]) - want[i]) / (1.0 + std::fabs(want[i])));
    return w;
  }
  DeviceBuffer *findBuffer(float *device) {
    for (DeviceBuffer &b : buffers)
      if (b.floats() == device)
        return &b;
    return nullptr;
  }
};

std::vector<float> randomFloats(size_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// One head-major case, forward and backward; the worst relative error.
double attentionCase(int64_t batch, int64_t heads, int64_t queries, int64_t keys,
                     int64_t width, int64_t causal, std::mt19937 &rng) {
  size_t qn = size_t(batch * heads * queries * width), kn = size_t(batch * heads * keys * width);
  std::vector<float> q = randomFloats(qn, rng), k = randomFloats(kn, rng),
                     v = randomFloats(kn, rng), dout = randomFloats(qn, rng);
  std::vector<float> out(qn), grads(qn + 2 * kn);
  modelrt_attention_forward(q.data(), k.data(), v.data(), out.data(), batch, heads, queries,
                            keys, width, causal);
  modelrt_attention_backward(q.data(), k.data(), v.data(), out.data(), dout.data(),
                             grads.data(), batch, heads, queries, keys, width, causal);
  AttentionCase c;
  float *dq = c.upload(q), *dk = c.upload(k), *dv = c.upload(v), *ddout = c.upload(dout);
  float *dout2 = c.upload(std::vector<float>(qn)), *dgrads = c.upload(std::vector<float>(grads.size()));
  if (!c.ok)
    return 1e9;
  modelrt_cuda_attention_forward(dq, dk, dv, dout2, batch, heads, queries, keys, width, causal);
  modelrt_cuda_attention_backward(dq, dk, dv, dout2, ddout, dgrads, batch, heads, queries, keys,
                                  width, causal);
  return std::max(c.worst(dout2, out), c.worst(dgrads, grads));
}

/// The packed layout at the char-LM's sizes; the worst relative error.
double packedAttentionCase(int64_t batch, int64_t heads, int64_t length, int64_t width,
                           std::mt19937 &rng) {
  size_t n = size_t(batch * length * 3 * heads * width), on = size_t(batch * length * heads * width);
  std::vector<float> qkv = randomFloats(n, rng), dout = randomFloats(on, rng);
  std::vector<float> out(on), grads(n);
  modelrt_attention_packed_forward(qkv.data(), out.data(), batch, heads, length, width, 1);
  modelrt_attention_packed_backward(qkv.data(), out.data(), dout.data(), grads.data(), batch,
                                    heads, length, width, 1);
  AttentionCase c;
  float *dqkv = c.upload(qkv), *ddout = c.upload(dout);
  float *dout2 = c.upload(std::vector<float>(on)), *dgrads = c.upload(std::vector<float>(n));
  if (!c.ok)
    return 1e9;
  modelrt_cuda_attention_packed_forward(dqkv, dout2, batch, heads, length, width, 1);
  modelrt_cuda_attention_packed_backward(dqkv, dout2, ddout, dgrads, batch, heads, length,
                                         width, 1);
  return std::max(c.worst(dout2, out), c.worst(dgrads, grads));
}

void checkAttention() {
  std::mt19937 rng(13);
  double worst = 0;
  int cases = 0;
  struct Shape {
    int64_t batch, heads, queries, keys, width;
  };
  for (Shape s : {Shape{2, 3, 5, 7, 6}, Shape{1, 2, 130, 130, 32}, Shape{2, 2, 70, 200, 64},
                  Shape{1, 1, 3, 66, 100}, Shape{1, 2, 9, 4, 128}})
    for (int64_t causal : {0, 1}) {
      worst = std::max(worst, attentionCase(s.batch, s.heads, s.queries, s.keys, s.width,
                                            causal, rng));
      ++cases;
    }
  worst = std::max(worst, packedAttentionCase(4, 4, 128, 32, rng));
  ++cases;
  char line[160];
  std::snprintf(line, sizeof(line),
                "modelrt_cuda_attention: %d cases, worst relative error %.2e", cases, worst);
  report(statusOk() && worst < 1e-4, line);
}

/// Forward + backward of the char-LM's attention (batch 64, 4 heads,
/// context 128 and 512, width 32, causal): milliseconds and GFLOP/s.
void timeAttention() {
  for (int64_t length : {128, 512}) {
    const int64_t batch = 64, heads = 4, width = 32;
    size_t n = size_t(batch * length * 3 * heads * width), on = size_t(batch * length * heads * width);
    Expected<DeviceBuffer> qkv = DeviceBuffer::allocate(n * 4), grads = DeviceBuffer::allocate(n * 4);
    Expected<DeviceBuffer> out = DeviceBuffer::allocate(on * 4), dout = DeviceBuffer::allocate(on * 4);
    if (!qkv || !grads || !out || !dout)
      return;
    auto step = [&] {
      modelrt_cuda_attention_packed_forward(qkv->floats(), out->floats(), batch, heads, length,
                                            width, 1);
      modelrt_cuda_attention_packed_backward(qkv->floats(), out->floats(), dout->floats(),
                                             grads->floats(), batch, heads, length, width, 1);
    };
    step(); // warm-up (module load)
    synchronize();
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 20; ++i)
      step();
    bool ok = synchronize().isOk();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 20;
    // Causal: half the scores; forward 2 products, backward 5 (incl. the recomputation).
    double flops = 7.0 * 2 * batch * heads * double(length) * length * width / 2;
    std::printf("INFO attention fwd+bwd, batch %lld, 4 heads, context %lld, width 32, causal: "
                "%.3f ms, %.1f GFLOP/s\n",
                (long long)batch, (long long)length, s * 1e3, flops / s / 1e9);
    report(ok, "attention timing run, context " + std::to_string(length));
  }
}

void checkStickyError() {
  static char image[] = "not a module";
  void *module = mgpuModuleLoad(image, sizeof(image));
  void *fn = mgpuModuleGetFunction(module, "kernel");
  std::string message = modelrt_cuda_error_message();
  report(!fn && modelrt_cuda_status() != 0 &&
             message.rfind("CUDA error: cuModule", 0) == 0,
         "a bad image is a sticky error: " + message);
}

} // namespace

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  bool timing = !(argc > 1 && std::strcmp(argv[1], "--no-timing") == 0);
  std::printf("%s\n", describe().c_str());
  if (!cudaUsable())
    return 2;
  Status init = initCuda();
  report(init.isOk(), "initCuda " + init.message());
  checkGeneratedCode();
  checkSgemm();
  checkSplitK();
  checkTensorCoreProducts();
  checkPoolReuse();
  checkAsyncUpload();
  checkScratch();
  checkGraphs();
  checkAttention();
  failures += checkCudnnConvolutions(timing);
  if (timing) {
    timeSgemm();
    timeAttention();
  }
  checkStickyError(); // last: the error is sticky
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "ALL PASSED",
              failures);
  return failures ? 1 : 0;
}
