// test/Target/Inputs/fake-runtime-main.cpp — stands in for libmodelrt.a in
// link-runtime.test: a main that calls one generated kernel through its
// C interface. log_softmax([1,2,3]) = [1,2,3] - 3 - log(e^-2 + e^-1 + 1).
// It also defines what generated code needs from the runtime: the buffer
// allocation entry points (plain malloc/free here), the profiling hooks, the
// parallel loop runner (here: the whole range on this thread), and
// cblas_sgemm (the real runtime forwards it to oneDNN or OpenBLAS; the
// kernel called here has no product, so the stand-in only reports a call).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" void *_mlir_memref_to_llvm_alloc(size_t n) { return std::malloc(n); }
extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t a, size_t n) {
  return std::aligned_alloc(a, (n + a - 1) / a * a);
}
extern "C" void _mlir_memref_to_llvm_free(void *p) { std::free(p); }
extern "C" void modelrt_kernel_enter(const char *) {}
extern "C" void modelrt_kernel_exit(const char *, int64_t, int64_t) {}
extern "C" void modelrt_parallel_for(void (*fn)(void *, int64_t, int64_t), void *ctx,
                                     int64_t begin, int64_t end, int64_t) {
  fn(ctx, begin, end);
}
extern "C" void cblas_sgemm(int, int, int, int, int, int, float, const float *, int,
                            const float *, int, float, float *, int) {
  std::fprintf(stderr, "fake runtime: cblas_sgemm is not implemented\n");
  std::abort();
}

struct M2 {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};
extern "C" void _mlir_ciface_log_softmax(M2 *x, M2 *out);

int main() {
  float x[3] = {1, 2, 3}, y[3] = {0, 0, 0};
  M2 dx = {x, x, 0, {1, 3}, {3, 1}}, dy = {y, y, 0, {1, 3}, {3, 1}};
  _mlir_ciface_log_softmax(&dx, &dy);
  std::printf("log_softmax([1, 2, 3]) = %.4f %.4f %.4f\n", y[0], y[1], y[2]);
  return 0;
}
