//===- ConvertMDLToLinalg.cpp - The convert-mdl-to-linalg pass ------------===//
//
// Runs the parameter/state-to-argument rewrite, then one dialect conversion
// with every op family's patterns: mdl is illegal afterwards, linalg,
// tensor, arith, math, scf, cf and func are legal. Ops without a lowering are
// reported at their location ("failed to legalize operation 'mdl.x'").
//
//===----------------------------------------------------------------------===//
#include "Common.h"

namespace modelc {
#define GEN_PASS_DEF_CONVERTMDLTOLINALG
#include "modelc/Conversion/Passes.h.inc"
} // namespace modelc

using namespace mlir;

namespace {

struct ConvertMDLToLinalgPass
    : modelc::impl::ConvertMDLToLinalgBase<ConvertMDLToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(modelc::convertParametersToArguments(module, keepDeclarations)))
      return signalPassFailure();

    RewritePatternSet patterns(ctx);
    modelc::populateMDLElementwiseToLinalgPatterns(patterns);
    modelc::populateMDLProductsToLinalgPatterns(patterns);
    modelc::populateMDLPoolingToLinalgPatterns(patterns);
    modelc::populateMDLReductionsToLinalgPatterns(patterns);
    modelc::populateMDLShapeToLinalgPatterns(patterns);
    modelc::populateMDLNormalizationToLinalgPatterns(patterns);
    modelc::populateMDLLossesToLinalgPatterns(patterns);
    modelc::populateMDLRandomToLinalgPatterns(patterns);
    modelc::populateMDLConvGradientsToLinalgPatterns(patterns);
    modelc::populateMDLPoolGradientsToLinalgPatterns(patterns);
    modelc::populateMDLScatterGradientsToLinalgPatterns(patterns);

    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                           func::FuncDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect>();
    target.addIllegalDialect<mdl::MDLDialect>();
    target.addLegalOp<mdl::ParameterOp, mdl::StateOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
