//===- FrozenParameters.h - Rounded parameters kept while they hold still --===//
//
// Declares the scope in which a model's parameters do not change (one
// training step; an evaluation, prediction or generation pass), so that the
// bf16 products and convolutions (Bf16.h, Conv.h) round an operand that
// lies inside a parameter once per scope rather than at every call: at
// batch 1, rounding a layer's weights costs several times its product.
// The scope is its opener's promise that nothing writes the parameters
// while it lives. It belongs to the thread that opened it: only that
// thread's products see it. Operands outside the parameters (inputs,
// activations, gradients, state) are rounded at every call.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_FROZENPARAMETERS_H
#define MODELRT_CORE_FROZENPARAMETERS_H

#include <cstdint>
#include <vector>

namespace modelrt {

/// While alive, the parameters \p params (each one parameter's elements)
/// are unchanging on this thread. A scope opened inside another is part of
/// the outer one (the outer one's parameters stay frozen); the rounded
/// copies are freed when the outermost scope ends.
class FrozenParameters {
public:
  explicit FrozenParameters(const std::vector<std::vector<float>> &params);
  ~FrozenParameters();
  FrozenParameters(const FrozenParameters &) = delete;
  FrozenParameters &operator=(const FrozenParameters &) = delete;
};

/// The generation of this thread's open scope when the \p rows x \p cols
/// matrix at \p in (leading dimension \p ld) lies wholly inside one of its
/// parameters; 0 when it does not, or when no scope is open. Every scope
/// has its own generation, distinct across threads.
uint64_t frozenGeneration(const float *in, int64_t ld, int64_t rows, int64_t cols);

/// What a buffer of rounded operands was last filled from.
struct RoundedFrom {
  const float *in = nullptr;
  int64_t ld = 0, rows = 0, cols = 0;
  uint64_t generation = 0; ///< frozenGeneration then; 0: round again
};

/// True when \p held shows that the buffer already holds the matrix
/// (\p in, \p ld, \p rows, \p cols) rounded, in this scope, from frozen
/// parameters. Otherwise records the matrix in \p held and returns false:
/// the caller rounds it into the buffer.
bool roundedCopyIsCurrent(RoundedFrom &held, const float *in, int64_t ld, int64_t rows,
                          int64_t cols);

/// The \p rows x \p cols matrix at \p in (leading dimension \p ld)
/// rounded through bf16 into a dense f32 array (roundMatrixThroughBf16):
/// when the matrix is frozen, a copy the scope keeps (rounded at its first
/// use, and frozen itself); otherwise \p scratch's data, rounded now.
const float *roundedThroughBf16(const float *in, int64_t ld, int64_t rows, int64_t cols,
                                std::vector<float> &scratch);

/// The same matrix rounded to bf16 bits (roundMatrixToBf16), for oneDNN's
/// bf16 products: a copy the scope keeps when it is frozen, else
/// \p scratch's data.
const uint16_t *roundedToBf16(const float *in, int64_t ld, int64_t rows, int64_t cols,
                              std::vector<uint16_t> &scratch);

/// The elements of the rounded copies this thread's scope keeps (for tests).
int64_t frozenCopyElements();

} // namespace modelrt

#endif // MODELRT_CORE_FROZENPARAMETERS_H
