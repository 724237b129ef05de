/* bench/conv/harness.c — times `_mlir_ciface_conv(x, w, out)` (rank-4 f32
   memref descriptors, out-param ABI of the CPU pipeline) on random data.
   Usage: harness N C H W O K PAD REPS; prints the best time in ms and a
   checksum of the output (compared between lowerings by bench.py). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { float *alloc, *aligned; int64_t offset, sizes[4], strides[4]; } Desc4;

#ifdef __cplusplus
extern "C"
#endif
void _mlir_ciface_conv(Desc4 *x, Desc4 *w, Desc4 *out);

static Desc4 make(int64_t a, int64_t b, int64_t c, int64_t d, int fill) {
  Desc4 m;
  size_t n = (size_t)(a * b * c * d);
  m.alloc = m.aligned = (float *)aligned_alloc(64, ((n * 4 + 63) / 64) * 64);
  for (size_t i = 0; i < n; ++i) m.aligned[i] = fill ? (float)((i * 7919 % 2003) / 1001.0 - 1.0) : 0.f;
  m.offset = 0;
  m.sizes[0] = a; m.sizes[1] = b; m.sizes[2] = c; m.sizes[3] = d;
  m.strides[3] = 1; m.strides[2] = d; m.strides[1] = c * d; m.strides[0] = b * c * d;
  return m;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 9) { fprintf(stderr, "usage: harness N C H W O K PAD REPS\n"); return 2; }
  int64_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = atoll(argv[i + 1]);
  int64_t n = v[0], c = v[1], h = v[2], w = v[3], o = v[4], k = v[5], pad = v[6];
  int64_t oh = h + 2 * pad - k + 1, ow = w + 2 * pad - k + 1;
  Desc4 x = make(n, c, h, w, 1), wt = make(o, c, k, k, 1), out = make(n, o, oh, ow, 0);
  double best = 1e30;
  for (int64_t r = 0; r < v[7]; ++r) {
    double t0 = now();
    _mlir_ciface_conv(&x, &wt, &out);
    double t = now() - t0;
    if (t < best) best = t;
  }
  double sum = 0;
  for (int64_t i = 0; i < n * o * oh * ow; ++i) sum += out.aligned[i] * (double)(i % 13 + 1);
  printf("%.3f %.9g\n", best, sum);
  return 0;
}
