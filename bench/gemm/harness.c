/* bench/gemm/harness.c — times the MLIR-generated `gemm` kernel (expanded
 * memref-descriptor ABI, out-param C) against cblas_sgemm on the same inputs
 * and prints "<mlir GFLOP/s> <openblas GFLOP/s> <max rel diff>". */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DESC(p, r, c) float *, float *, long, long, long, long, long /* alloc, aligned, offset, sizes, strides */
extern void gemm(DESC(a, 0, 0), DESC(b, 0, 0), DESC(c, 0, 0));
/* gemm computes C = op(A) op(B) (it fills C with zeros itself). */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 6) return 2;
  long m = atol(argv[1]), n = atol(argv[2]), k = atol(argv[3]);
  int ta = atoi(argv[4]), tb = atoi(argv[5]);
  float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
  float *c1 = calloc(m * n, sizeof(float)), *c2 = calloc(m * n, sizeof(float));
  srand(1);
  for (long i = 0; i < m * k; ++i) a[i] = rand() / (float)RAND_MAX - 0.5f;
  for (long i = 0; i < k * n; ++i) b[i] = rand() / (float)RAND_MAX - 0.5f;
  long ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  double flops = 2.0 * m * n * k, best1 = 1e30, best2 = 1e30;
  int reps = (int)(2e9 / flops) + 3;
  for (int r = 0; r < reps; ++r) {
    memset(c1, 0, sizeof(float) * m * n);
    double t0 = now();
    gemm(a, a, 0, ar, ac, ac, 1, b, b, 0, br, bc, bc, 1, c1, c1, 0, m, n, n, 1);
    double t1 = now();
    if (t1 - t0 < best1) best1 = t1 - t0;
    memset(c2, 0, sizeof(float) * m * n);
    t0 = now();
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, ac, b, bc,
                0.0f, c2, n);
    t1 = now();
    if (t1 - t0 < best2) best2 = t1 - t0;
  }
  /* Difference relative to the largest output magnitude: summation order
   * differs between the two, so entries near zero carry no meaning alone. */
  double err = 0, big = 1e-30;
  for (long i = 0; i < m * n; ++i)
    if (fabs(c2[i]) > big) big = fabs(c2[i]);
  for (long i = 0; i < m * n; ++i) {
    double d = fabs(c1[i] - c2[i]) / big;
    if (d > err) err = d;
  }
  printf("%.1f %.1f %.2e\n", flops / best1 * 1e-9, flops / best2 * 1e-9, err);
  return err > 1e-3;
}
