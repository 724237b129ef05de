//===- MDLOps.td - All mdl operations -----------------------*- tablegen -*-===//
//
// Root of the mdl op definitions: shared op classes, then one file per op
// family (state, products, elementwise, reductions, shapes, nn, losses,
// gradients, and the destination-style ops a library computes).
// Lowering maps each family to linalg in its own file, mirroring this split.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_OPS_TD
#define MDL_OPS_TD

include "mdl/MDLDialect.td"
include "mdl/MDLAttrs.td"
include "mdl/MDLInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// The side-effect resource of `mdl.state` storage (running statistics).
def MDL_StateResource : Resource<"::mlir::mdl::StateResource">;

/// A pure op whose result types are inferred from its operands and
/// attributes by `static inferReturnTypes(ctx, loc, Adaptor, types)`. Every
/// shape and element-type rule of the op lives in that function: it runs when
/// a builder omits the result types and when the verifier checks them, and
/// reports errors as "'mdl.<op>' op <message>" at the op's location.
class MDL_InferOp<string mnemonic, list<Trait> traits = []>
    : MDL_Op<mnemonic, !listconcat(traits, [Pure, InferTypeOpAdaptor])> {
  // Runs the inference at the op's location before the interface's own
  // check, so that an error is reported once, with its precise message.
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::mdl::verifyInferredResultTypes(getOperation());
    }
  }];
}

include "mdl/MDLStateOps.td"
include "mdl/MDLProductOps.td"
include "mdl/MDLElementwiseOps.td"
include "mdl/MDLReductionOps.td"
include "mdl/MDLShapeOps.td"
include "mdl/MDLNNOps.td"
include "mdl/MDLLossOps.td"
include "mdl/MDLGradientOps.td"
include "mdl/MDLLibraryOps.td"

#endif // MDL_OPS_TD
