//===- Embedding.cpp - An embedding table's gradient -----------------------===//
#include "modelrt/core/Embedding.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

/// The scatter-add of Embedding.h for either index type.
template <typename Index>
void embeddingBackward(const Index *indices, const float *grad, float *table, int64_t positions,
                       int64_t width, int64_t rows) {
  std::memset(table, 0, size_t(rows) * size_t(width) * sizeof(float));
  for (int64_t p = 0; p < positions; ++p) {
    int64_t row = int64_t(indices[p]);
    if (row < 0 || row >= rows) {
      // The generated code's own index checks (cf.assert) fail the same way.
      std::fprintf(stderr, "modelrt: embedding index %lld at position %lld is outside the "
                   "table's rows [0, %lld)\n", (long long)row, (long long)p, (long long)rows);
      std::abort();
    }
    float *dst = table + row * width;
    const float *src = grad + p * width;
    for (int64_t d = 0; d < width; ++d)
      dst[d] += src[d];
  }
}

} // namespace

extern "C" void modelrt_embedding_backward_i64(const int64_t *indices, const float *grad,
                                               float *table, int64_t positions, int64_t width,
                                               int64_t rows) {
  embeddingBackward(indices, grad, table, positions, width, rows);
}

extern "C" void modelrt_embedding_backward_i32(const int32_t *indices, const float *grad,
                                               float *table, int64_t positions, int64_t width,
                                               int64_t rows) {
  embeddingBackward(indices, grad, table, positions, width, rows);
}
