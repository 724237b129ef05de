//===- CpuExpandBf16.cpp - bf16 conversions as integer arithmetic ---------===//
//
// Implements the `modelc-cpu-expand-bf16` pass: every arith.truncf to bf16
// and arith.extf from bf16 (scalar or vector) becomes MLIR's bf16
// expansion (populateExpandBFloat16Patterns): integer arithmetic on the
// f32 bits that rounds to nearest, ties to even, keeps subnormal values
// and makes a NaN the quiet NaN 0x7fc0. Left to LLVM, the truncation is
// vcvtneps2bf16 on AVX512-BF16 CPUs (subnormals flushed to zero) and a
// call of libgcc's __truncsfbf2 elsewhere, which GCC 12's libgcc lacks.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_CPUEXPANDBF16PASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

struct CpuExpandBf16Pass : impl::CpuExpandBf16PassBase<CpuExpandBf16Pass> {
  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

} // namespace modelc
