/*===- Embed.h - A compiled model as a library: the C API -------*- C -*-===*\
 *
 * What `modelc NET.model --emit=lib` builds on: a model compiled without
 * `main` is used from a host program through these functions, which the
 * generated NET_load / NET_predict / NET_input_shape / NET_output_shape /
 * NET_free / NET_last_error (NET.h) forward to with the model's `modelc_program`. Predictions run on the CPU;
 * samples go in as stored (the data block's input transform is applied
 * here, as `predict` does). Nothing is printed and nothing exits: a failing
 * call returns NULL or non-zero and modelrt_embed_last_error() says why.
 *
 * Thread safety: any thread may call any function; loads, predictions and
 * frees are serialised by one lock per process (each prediction uses the
 * runtime's threads), and the last error is per thread. A handle must not be freed while another
 * thread uses it.
 *
\*===----------------------------------------------------------------------===*/
#ifndef MODELRT_EMBED_EMBED_H
#define MODELRT_EMBED_EMBED_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ModelrtProgram;

/** A loaded model: the program and the checkpoint's weights. */
typedef struct ModelrtEmbedded ModelrtEmbedded;

/** Loads the checkpoint at \p checkpoint for \p program (checked against
 *  its parameters); NULL on error. */
ModelrtEmbedded *modelrt_embed_load(const struct ModelrtProgram *program,
                                    const char *checkpoint);

/** Runs the model on \p n samples at \p input (f32, row-major, n times the
 *  input's values, as stored: before the input transform) and writes n
 *  times the output's values to \p output. Returns 0, or -1 on error. */
int modelrt_embed_predict(ModelrtEmbedded *model, const float *input,
                          int64_t n, float *output);

/** One sample's input (output) shape: writes up to \p capacity dimensions
 *  to \p dims and returns the rank, or -1 when \p model is NULL. */
int modelrt_embed_input_shape(const ModelrtEmbedded *model, int64_t *dims,
                              int capacity);
int modelrt_embed_output_shape(const ModelrtEmbedded *model, int64_t *dims,
                               int capacity);

/** Frees \p model (NULL is allowed). */
void modelrt_embed_free(ModelrtEmbedded *model);

/** The message of the calling thread's last failed call ("" when none). */
const char *modelrt_embed_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* MODELRT_EMBED_EMBED_H */
