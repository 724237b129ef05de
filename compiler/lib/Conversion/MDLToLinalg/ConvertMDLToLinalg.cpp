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
    target.addLegalOp<mdl::ParameterOp, mdl::StateOp, mdl::LibConv2DOp,
                      mdl::LibConv2DGradInputOp, mdl::LibConv2DGradWeightOp,
                      mdl::LibMaxPool2DOp, mdl::LibAvgPool2DOp,
                      mdl::LibMaxPool2DGradOp, mdl::LibAvgPool2DGradOp,
                      mdl::LibEmbeddingGradOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
