// test/Target/Inputs/harness.cpp — end-to-end check of the CPU back end.
//
// Links with the object compiled from kernels.mlir and calls its
// `_mlir_ciface_*` entry points (one memref-descriptor pointer per argument,
// the result as a caller-allocated out-param last) on random inputs over
// shapes that are not multiples of any tile size. Each result is compared
// with a double-precision reference computed here. Errors are relative to
// the natural scale of each output: sum_k |a_ik b_kj| (+|b_j|) for matrix
// products, max(1, |ref|) for log-softmax. Prints the maximum per kernel and
// exits non-zero if any exceeds 1e-4.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

/// A ranked memref descriptor as the generated code expects it.
template <int Rank> struct MemRef {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};
using M1 = MemRef<1>;
using M2 = MemRef<2>;

extern "C" {
void _mlir_ciface_dense_relu(M2 *x, M2 *w, M1 *b, M2 *out);
void _mlir_ciface_matmul_tn(M2 *a, M2 *b, M2 *out);
void _mlir_ciface_matmul_nt(M2 *a, M2 *b, M2 *out);
void _mlir_ciface_log_softmax(M2 *x, M2 *out);
}

namespace {
std::mt19937 rng(42);

/// A row-major matrix filled with uniform values in [-1, 1].
struct Matrix {
  int64_t rows, cols;
  std::vector<float> data;
  Matrix(int64_t r, int64_t c, bool random = true)
      : rows(r), cols(c), data(std::max<int64_t>(r * c, 1), 0.f) {
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    if (random)
      for (float &v : data) v = dist(rng);
  }
  float at(int64_t i, int64_t j) const { return data[i * cols + j]; }
  M2 desc() { return {data.data(), data.data(), 0, {rows, cols}, {cols, 1}}; }
};

double worst[4];
const char *names[4] = {"dense_relu", "matmul_tn", "matmul_nt", "log_softmax"};

void record(int kernel, double err) { worst[kernel] = std::max(worst[kernel], err); }

/// relu(x @ w + b) against the double reference.
void checkDense(int64_t n, int64_t k, int64_t o) {
  Matrix x(n, k), w(k, o), b(1, o), y(n, o, false);
  M2 dx = x.desc(), dw = w.desc(), dy = y.desc();
  M1 db = {b.data.data(), b.data.data(), 0, {o}, {1}};
  _mlir_ciface_dense_relu(&dx, &dw, &db, &dy);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < o; ++j) {
      double s = b.at(0, j), scale = std::fabs(b.at(0, j));
      for (int64_t p = 0; p < k; ++p) {
        s += double(x.at(i, p)) * w.at(p, j);
        scale += std::fabs(double(x.at(i, p)) * w.at(p, j));
      }
      record(0, std::fabs(y.at(i, j) - std::max(s, 0.0)) / std::max(scale, 1e-30));
    }
}

/// a^T @ b (tn) or a @ b^T (nt) against the double reference.
void checkTransposed(bool tn, int64_t m, int64_t k, int64_t n) {
  Matrix a = tn ? Matrix(k, m) : Matrix(m, k);
  Matrix b = tn ? Matrix(k, n) : Matrix(n, k);
  Matrix c(m, n, false);
  M2 da = a.desc(), db = b.desc(), dc = c.desc();
  tn ? _mlir_ciface_matmul_tn(&da, &db, &dc) : _mlir_ciface_matmul_nt(&da, &db, &dc);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0, scale = 0;
      for (int64_t p = 0; p < k; ++p) {
        double t = tn ? double(a.at(p, i)) * b.at(p, j) : double(a.at(i, p)) * b.at(j, p);
        s += t;
        scale += std::fabs(t);
      }
      record(tn ? 1 : 2, std::fabs(c.at(i, j) - s) / std::max(scale, 1e-30));
    }
}

/// Row-wise log-softmax of inputs scaled to [-20, 20].
void checkLogSoftmax(int64_t n, int64_t w) {
  Matrix x(n, w), y(n, w, false);
  for (float &v : x.data) v *= 20.f;
  M2 dx = x.desc(), dy = y.desc();
  _mlir_ciface_log_softmax(&dx, &dy);
  for (int64_t i = 0; i < n; ++i) {
    double mx = -INFINITY, s = 0;
    for (int64_t j = 0; j < w; ++j) mx = std::max(mx, double(x.at(i, j)));
    for (int64_t j = 0; j < w; ++j) s += std::exp(x.at(i, j) - mx);
    for (int64_t j = 0; j < w; ++j) {
      double ref = x.at(i, j) - mx - std::log(s);
      record(3, std::fabs(y.at(i, j) - ref) / std::max(1.0, std::fabs(ref)));
    }
  }
}
} // namespace

int main() {
  const int64_t batches[] = {1, 7, 63, 65};
  const int64_t widths[] = {1, 7, 65, 1000};
  int cases = 0;
  for (int64_t n : batches)
    for (int64_t k : widths)
      for (int64_t o : widths) {
        checkDense(n, k, o);
        checkTransposed(true, n, k, o);
        checkTransposed(false, n, k, o);
        cases += 3;
      }
  for (int64_t n : batches)
    for (int64_t w : widths) {
      checkLogSoftmax(n, w);
      ++cases;
    }
  bool ok = true;
  for (int i = 0; i < 4; ++i) {
    std::printf("%s max relative error %.3e\n", names[i], worst[i]);
    ok = ok && worst[i] <= 1e-4;
  }
  std::printf("%d cases: %s\n", cases, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
