/* bench/compare/fma_peak.c — the machine's measured float32 FMA peak.
 *
 *   cc -O2 -pthread [-mavx512f | -mavx2 -mfma] fma_peak.c -o fma_peak
 *   ./fma_peak THREADS SECONDS
 *
 * Each thread runs 12 independent chains of vector FMAs on registers (enough
 * to cover the FMA latency on every current x86 core with two FMA units)
 * for about SECONDS, and the program prints one JSON line: the vector width
 * it was built for, the thread count and GFLOP/s (2 FLOPs per lane per FMA),
 * the best of five timed rounds. A reference for bench/compare's "fraction
 * of the FMA peak", not a test.
 */
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define ISA "avx512"
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define ADD _mm512_add_ps
#define SUM(v) _mm512_reduce_add_ps(v)
#elif defined(__AVX2__) && defined(__FMA__)
typedef __m256 vec;
#define LANES 8
#define ISA "avx2"
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define ADD _mm256_add_ps
static float SUM(__m256 v) {
  float f[8];
  _mm256_storeu_ps(f, v);
  return f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7];
}
#else
#error "build with -mavx512f or -mavx2 -mfma"
#endif

#define CHAINS 12

static long iterations;
static volatile float sink;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* CHAINS accumulators in registers, each a = a * b + c, for `iterations`
 * rounds (written out, so that no compiler keeps them in memory). */
static void *spin(void *arg) {
  (void)arg;
  vec b = SET1(0.999999f), c = SET1(1e-7f);
  vec a0 = SET1(0), a1 = SET1(1), a2 = SET1(2), a3 = SET1(3), a4 = SET1(4), a5 = SET1(5);
  vec a6 = SET1(6), a7 = SET1(7), a8 = SET1(8), a9 = SET1(9), a10 = SET1(10), a11 = SET1(11);
  for (long it = 0; it < iterations; ++it) {
    a0 = FMA(a0, b, c), a1 = FMA(a1, b, c), a2 = FMA(a2, b, c), a3 = FMA(a3, b, c);
    a4 = FMA(a4, b, c), a5 = FMA(a5, b, c), a6 = FMA(a6, b, c), a7 = FMA(a7, b, c);
    a8 = FMA(a8, b, c), a9 = FMA(a9, b, c), a10 = FMA(a10, b, c), a11 = FMA(a11, b, c);
  }
  vec s = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));
  sink = SUM(ADD(s, ADD(ADD(a8, a9), ADD(a10, a11))));
  return NULL;
}

/* Seconds for one round on `threads` threads. */
static double round_seconds(int threads) {
  pthread_t ids[256];
  double t = now();
  for (int i = 0; i < threads; ++i)
    pthread_create(&ids[i], NULL, spin, NULL);
  for (int i = 0; i < threads; ++i)
    pthread_join(ids[i], NULL);
  return now() - t;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  double seconds = argc > 2 ? atof(argv[2]) : 0.5;
  if (threads < 1 || threads > 256 || seconds <= 0) {
    fprintf(stderr, "usage: fma_peak THREADS(1-256) SECONDS\n");
    return 2;
  }
  iterations = 1000000;
  double t = round_seconds(1); /* calibrate on one thread */
  iterations = (long)(iterations * seconds / (t > 1e-6 ? t : 1e-6));
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    double s = round_seconds(threads);
    if (s < best)
      best = s;
  }
  double flops = 2.0 * LANES * CHAINS * (double)iterations * threads;
  printf("{\"isa\": \"%s\", \"threads\": %d, \"gflops\": %.1f}\n", ISA, threads,
         flops / best * 1e-9);
  return 0;
}
