//===- ConvertMDLToLinalg.cpp - The convert-mdl-to-linalg pass ------------===//
//
// Runs the parameter/state-to-argument rewrite, then one dialect conversion
// with every op family's patterns: mdl is illegal afterwards but for its
// library ops (MDLLibraryOps.td); linalg, tensor, arith, math, scf, cf and
// func are legal. Ops without a lowering are
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

  /// Wraps each mdl op's location in a NameLoc carrying the op's name
  /// (`relu`, `conv2d_grad_input`, ...): the linalg ops it lowers to, and the
  /// fused groups they end up in, keep it, so kernels can be named after
  /// what they compute (see modelc-outline-kernels).
  static void nameLocations(ModuleOp module) {
    module.walk([](Operation *op) {
      StringRef name = op->getName().stripDialect();
      auto named = dyn_cast<NameLoc>(op->getLoc());
      if (!isa<mdl::MDLDialect>(op->getDialect()) ||
          (named && named.getName() == name))
        return;
      op->setLoc(NameLoc::get(StringAttr::get(op->getContext(), name),
                              op->getLoc()));
    });
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(modelc::convertParametersToArguments(module, keepDeclarations)))
      return signalPassFailure();
    nameLocations(module);

    RewritePatternSet patterns(ctx);
    modelc::populateMDLToLinalgPatterns(patterns);
    ConversionTarget target(*ctx);
    modelc::configureMDLToLinalgTarget(target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void modelc::populateMDLToLinalgPatterns(RewritePatternSet &patterns) {
  populateMDLElementwiseToLinalgPatterns(patterns);
  populateMDLProductsToLinalgPatterns(patterns);
  populateMDLAttentionToLinalgPatterns(patterns);
  populateMDLPoolingToLinalgPatterns(patterns);
  populateMDLReductionsToLinalgPatterns(patterns);
  populateMDLShapeToLinalgPatterns(patterns);
  populateMDLNormalizationToLinalgPatterns(patterns);
  populateMDLLossesToLinalgPatterns(patterns);
  populateMDLRandomToLinalgPatterns(patterns);
  populateMDLConvGradientsToLinalgPatterns(patterns);
  populateMDLPoolGradientsToLinalgPatterns(patterns);
  populateMDLScatterGradientsToLinalgPatterns(patterns);
}

void modelc::configureMDLToLinalgTarget(ConversionTarget &target) {
  target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                         func::FuncDialect, linalg::LinalgDialect,
                         math::MathDialect, scf::SCFDialect,
                         tensor::TensorDialect>();
  target.addIllegalDialect<mdl::MDLDialect>();
  target.addLegalOp<mdl::ParameterOp, mdl::StateOp, mdl::LibConv2DOp,
                    mdl::LibConv2DBiasOp,
                    mdl::LibConv2DGradInputOp, mdl::LibConv2DGradWeightOp,
                    mdl::LibMaxPool2DOp, mdl::LibAvgPool2DOp,
                    mdl::LibMaxPool2DGradOp, mdl::LibAvgPool2DGradOp,
                    mdl::LibEmbeddingGradOp, mdl::LibAttentionOp,
                    mdl::LibAttentionGradOp, mdl::LibAttentionDecodeOp,
                    mdl::LibAttentionPackedOp,
                    mdl::LibAttentionPackedGradOp, mdl::LibSumRanksOp>();
}
