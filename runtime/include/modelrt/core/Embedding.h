//===- Embedding.h - An embedding table's gradient for compiled models -----===//
//
// Declares the C functions compiled models call for the gradient of an
// embedding lookup (mdl.lib_embedding_grad, through modelc-library-to-calls):
// the table's gradient, N rows of D values, is zeroed and then each of the
// S positions adds its gradient row into the row its index names, in
// position order (so the result is the same on every run):
//   table[indices[p], :] += grad[p, :]   for p = 0 .. S-1.
// An index outside [0, N) stops the process with a message naming it (as
// the generated code's cf.assert checks do): the forward lookup has then
// read outside the table. The expansion other targets use
// (modelc-expand-library-ops) cannot stop and adds nothing for it.
// Contiguous row-major buffers; S may be 0.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_EMBEDDING_H
#define MODELRT_CORE_EMBEDDING_H

#include <cstdint>

extern "C" {
/// table[N, D] = the scatter-add of grad[S, D] by the i64 indices[S].
void modelrt_embedding_backward_i64(const int64_t *indices, const float *grad, float *table,
                                    int64_t positions, int64_t width, int64_t rows);
/// The same with i32 indices.
void modelrt_embedding_backward_i32(const int32_t *indices, const float *grad, float *table,
                                    int64_t positions, int64_t width, int64_t rows);
}

#endif // MODELRT_CORE_EMBEDDING_H
