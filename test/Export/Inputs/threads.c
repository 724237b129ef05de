/* threads.c - four threads share one model of a --emit=lib library and
 * predict the same samples at once; each result must equal a prediction
 * made alone. threads CHECKPOINT SAMPLES.f32 (at most 200 samples). Prints
 * "threads: N samples, 4 threads agree" or the first difference. */
#include "net.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { kMax = 200, kThreads = 4 };
static net_model *model;
static float x[kMax * NET_INPUT_SIZE], alone[kMax * NET_OUTPUT_SIZE];
static float together[kThreads][kMax * NET_OUTPUT_SIZE];
static int64_t n;
static int failed[kThreads];

static void *run(void *arg) {
  long t = (long)arg;
  failed[t] = net_predict(model, x, n, together[t]) != 0;
  return NULL;
}

int main(int argc, char **argv) {
  FILE *f = argc == 3 ? fopen(argv[2], "rb") : NULL;
  if (!f)
    return fprintf(stderr, "usage: threads CHECKPOINT SAMPLES.f32\n"), 2;
  n = (int64_t)fread(x, sizeof(float) * NET_INPUT_SIZE, kMax, f);
  fclose(f);
  if (!(model = net_load(argv[1])) || net_predict(model, x, n, alone) != 0)
    return fprintf(stderr, "threads: %s\n", net_last_error()), 1;
  pthread_t th[kThreads];
  for (long t = 0; t < kThreads; ++t)
    pthread_create(&th[t], NULL, run, (void *)t);
  for (int t = 0; t < kThreads; ++t)
    pthread_join(th[t], NULL);
  for (int t = 0; t < kThreads; ++t)
    if (failed[t] || memcmp(alone, together[t], sizeof(float) * n * NET_OUTPUT_SIZE))
      return printf("threads: thread %d differs\n", t), 1;
  printf("threads: %lld samples, %d threads agree\n", (long long)n, kThreads);
  net_free(model);
  return 0;
}
