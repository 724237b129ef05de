//===- Flops.h - The FLOP formulas shared by the compiler's counts -*- C++ -*-//
//
// How many floating-point operations one op costs, written once for the
// per-layer summary of semantic analysis (compiler/lib/Sema/LayerSummary.cpp)
// and for the products of a training step counted on mdl IR
// (compiler/lib/Codegen/FlopCount.cpp). A multiply-add counts as 2.
//
// Header-only, plain C++17 with no LLVM or MLIR. It counts from sizes the
// caller computed; it knows no ops or tensor types.
//
//===----------------------------------------------------------------------===//

#ifndef MODELSUPPORT_FLOPS_H
#define MODELSUPPORT_FLOPS_H

namespace modelsupport {

/// A matrix product: each of the `outElements` results is a dot product of
/// length `contracted` (2·M·N·K for an [M, K] × [K, N] product).
inline double productFlops(double outElements, double contracted) {
  return 2 * outElements * contracted;
}

/// A convolution: each output element multiplies-adds its window over the
/// input channels of its group, `windowElements` = Cin/groups·KH·KW (the
/// OIHW weight's elements after dimension 0); 2·Cout·Hout·Wout·Cin/groups·KH·KW
/// per sample.
inline double convolutionFlops(double outElements, double windowElements) {
  return productFlops(outElements, windowElements);
}

/// A pooling window: one comparison or addition per window element of each
/// output element.
inline double poolingFlops(double outElements, double windowElements) {
  return outElements * windowElements;
}

/// An elementwise op (and a normalisation applied elementwise): 1 per
/// output element.
inline double elementwiseFlops(double outElements) { return outElements; }

/// A reduction (sum, mean, max, argmax, softmax's normaliser): 1 per input
/// element.
inline double reductionFlops(double inElements) { return inElements; }

} // namespace modelsupport

#endif // MODELSUPPORT_FLOPS_H
