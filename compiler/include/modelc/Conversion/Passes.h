//===- Passes.h - modelc conversion passes ----------------------*- C++ -*-===//
//
// Declares the mdl lowering pass (`convert-mdl-to-linalg`), its
// registration, and the per-family pattern populators it combines.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_CONVERSION_PASSES_H
#define MODELC_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

#include <memory>

namespace modelc {

#define GEN_PASS_DECL
#include "modelc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "modelc/Conversion/Passes.h.inc"

/// Broadcasting binary/unary arithmetic, cmp, select, cast, constant.
void populateMDLElementwiseToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// matmul, batch_matmul, conv2d.
void populateMDLProductsToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// max_pool2d, avg_pool2d.
void populateMDLPoolingToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// reduce_sum/mean/max, argmax, softmax, log_softmax.
void populateMDLReductionsToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// reshape, flatten, transpose, broadcast_to, concat, slice, embedding.
void populateMDLShapeToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// batch_norm_train, batch_norm_eval, layer_norm.
void populateMDLNormalizationToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// cross_entropy, mse_loss, l1_loss, bce_with_logits.
void populateMDLLossesToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// dropout (Philox4x32-10 counter-based mask).
void populateMDLRandomToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// conv2d_grad_input (transposed convolution), conv2d_grad_weight.
void populateMDLConvGradientsToLinalgPatterns(
    mlir::RewritePatternSet &patterns);
/// max_pool2d_grad, avg_pool2d_grad (gathers over candidate windows).
void populateMDLPoolGradientsToLinalgPatterns(
    mlir::RewritePatternSet &patterns);
/// attention, attention_grad (library ops, or unfused mdl ops).
void populateMDLAttentionToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// Every op family's patterns above: all of mdl but its library ops.
void populateMDLToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// The target of that conversion: linalg, tensor, arith, math, scf, cf and
/// func legal; mdl illegal but for its declarations and library ops.
void configureMDLToLinalgTarget(mlir::ConversionTarget &target);
/// slice_grad (insert_slice into zeros), embedding_grad (scf.for
/// scatter-add).
void populateMDLScatterGradientsToLinalgPatterns(
    mlir::RewritePatternSet &patterns);

/// Rewrites every `mdl.param` read into a function argument and every
/// `mdl.state_read`/`mdl.state_write` into a state argument and a state
/// result (docs/lowering.md, "Calling convention"). Erases the declarations
/// unless `keepDeclarations`. Reports unsupported uses at their location.
llvm::LogicalResult convertParametersToArguments(mlir::ModuleOp module,
                                                 bool keepDeclarations);

} // namespace modelc

#endif // MODELC_CONVERSION_PASSES_H
