/* host.c - a C program using a model compiled as a library (examples/embed).
 * host CHECKPOINT SAMPLES.f32: runs the model on the raw little-endian f32
 * samples in the file (as stored, NET_INPUT_SIZE values each) and prints
 * each sample's outputs. Build: see README.md. */
#include "net.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3)
    return fprintf(stderr, "usage: %s CHECKPOINT SAMPLES.f32\n", argv[0]), 2;
  net_model *model = net_load(argv[1]);
  if (!model)
    return fprintf(stderr, "host: %s\n", net_last_error()), 1;
  FILE *f = fopen(argv[2], "rb");
  static float x[1000 * NET_INPUT_SIZE], y[1000 * NET_OUTPUT_SIZE];
  size_t n = f ? fread(x, sizeof(float) * NET_INPUT_SIZE, 1000, f) : 0;
  if (f)
    fclose(f);
  if (net_predict(model, x, (int64_t)n, y) != 0)
    return fprintf(stderr, "host: %s\n", net_last_error()), net_free(model), 1;
  for (size_t i = 0; i < n; ++i)
    for (int j = 0; j < NET_OUTPUT_SIZE; ++j)
      printf("%.9g%c", y[i * NET_OUTPUT_SIZE + j], j + 1 < NET_OUTPUT_SIZE ? ' ' : '\n');
  net_free(model);
  return 0;
}
