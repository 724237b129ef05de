/* The library API's answers to bad arguments: a null dims buffer with a
   capacity, a sample count whose input size overflows, a negative count.
   Each is -1 with a message, never a crash or an abort of the host. */
#include "net.h"

#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv) {
  net_model *model = argc > 1 ? net_load(argv[1]) : NULL;
  if (!model) {
    fprintf(stderr, "load: %s\n", net_last_error());
    return 1;
  }
  float x[NET_INPUT_SIZE] = {0}, y[NET_OUTPUT_SIZE];
  int r = net_input_shape(model, NULL, 0);
  printf("rank %d\n", r);
  r = net_input_shape(model, NULL, 4);
  printf("null dims %d: %s\n", r, net_last_error());
  r = net_output_shape(model, NULL, 1);
  printf("null output dims %d: %s\n", r, net_last_error());
  r = net_predict(model, x, (int64_t)1 << 62, y);
  printf("huge n %d: %s\n", r, net_last_error());
  r = net_predict(model, x, -1, y);
  printf("negative n %d: %s\n", r, net_last_error());
  r = net_predict(model, x, 1, y);
  printf("one sample %d\n", r);
  net_free(model);
  return 0;
}
