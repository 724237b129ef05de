//===- AssignPrecision.cpp - The precision of products and convolutions ---===//
//
// Implements the `mdl-assign-precision` pass (Passes.td): the training
// precision, from the pass option or the `precision` key of `mdl.config`,
// becomes, in bf16 or tf32, the module attribute `mdl.precision`, and every
// f32 product that runs as a library call (matmul, conv2d and the
// convolution's two gradients) is tagged with it; in f32 (the default)
// nothing is tagged. The lowerings read the module attribute
// (MatmulToBlas, LibraryToCalls): the CPU's runs bf16 products and treats
// tf32 as f32, the GPU's calls cuBLAS in either. Under bf16 the weight
// gradient of a convolution over fewer than 4 input channels is tagged
// "f32" instead (modelsupport::kF32WeightGradientChannels, with the
// measurement behind it): its library call, which reads the op's tag
// before the module's, is the f32 one.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Passes.h"

#include "mdl/MDLOps.h"
#include "modelsupport/Precision.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::mdl;

namespace modelc {
#define GEN_PASS_DEF_MDLASSIGNPRECISION
#include "modelc/Transforms/Passes.h.inc"

namespace {

/// The attribute on the module and on each tagged op.
constexpr llvm::StringLiteral kPrecisionAttr = "mdl.precision";

bool isKnownPrecision(StringRef p) {
  return modelsupport::isTrainingPrecision(std::string_view(p));
}

/// The precision `mdl.config` names (f32 when it names none).
StringRef configuredPrecision(ModuleOp module) {
  auto config = module->getAttrOfType<DictionaryAttr>("mdl.config");
  auto precision = config ? config.getAs<StringAttr>("precision") : nullptr;
  return precision ? precision.getValue() : StringRef("f32");
}

/// True for the products the pass tags: f32 operands and results.
bool isF32Product(Operation *op) {
  if (!isa<MatmulOp, Conv2DOp, Conv2DGradInputOp, Conv2DGradWeightOp>(op))
    return false;
  auto isF32 = [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return shaped && shaped.getElementType().isF32();
  };
  return llvm::all_of(op->getOperandTypes(), isF32) &&
         llvm::all_of(op->getResultTypes(), isF32);
}

/// True for a weight gradient that modelsupport::kF32WeightGradientChannels
/// keeps f32
/// (a grouped one is no library call: it runs f32 whatever its tag).
bool staysF32UnderBf16(Operation *op) {
  auto grad = dyn_cast<Conv2DGradWeightOp>(op);
  if (!grad || grad.getGroups() != 1 || !isF32Product(op))
    return false;
  auto weight = cast<ShapedType>(grad.getType());
  return !weight.isDynamicDim(1) &&
         weight.getDimSize(1) < modelsupport::kF32WeightGradientChannels;
}

struct AssignPrecisionPass
    : impl::MDLAssignPrecisionBase<AssignPrecisionPass> {
  using MDLAssignPrecisionBase::MDLAssignPrecisionBase;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    std::string chosen =
        precision.empty() ? configuredPrecision(module).str() : precision.getValue();
    if (!isKnownPrecision(chosen)) {
      module.emitError() << "unknown precision '" << chosen << "'; expected "
                         << modelsupport::kTrainingPrecisionList;
      return signalPassFailure();
    }
    WalkResult checked = module.walk([&](Operation *op) {
      auto given = op->getAttrOfType<StringAttr>(kPrecisionAttr);
      if (!given || op == module.getOperation() || isKnownPrecision(given))
        return WalkResult::advance();
      op->emitOpError() << "has unknown precision '" << given.getValue()
                        << "'; expected " << modelsupport::kTrainingPrecisionList;
      return WalkResult::interrupt();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();
    // f32 is the default everywhere: nothing is tagged, and tags an
    // earlier run left are removed.
    bool f32 = chosen == "f32";
    Builder b(module.getContext());
    module.walk([&](Operation *op) {
      if (f32)
        op->removeAttr(kPrecisionAttr);
      else if (chosen == "bf16" && staysF32UnderBf16(op))
        op->setAttr(kPrecisionAttr, b.getStringAttr("f32"));
      else if (isF32Product(op) || op == module.getOperation())
        op->setAttr(kPrecisionAttr, b.getStringAttr(chosen));
    });
  }
};

} // namespace
} // namespace modelc
