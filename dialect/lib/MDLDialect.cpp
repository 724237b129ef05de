//===- MDLDialect.cpp - The mdl dialect -----------------------------------===//
//
// Registers the mdl ops, attributes and gradient rules, materialises folded
// constants, and instantiates the ODS-generated op definitions (the
// op-specific verifiers, inference and folders live in the per-family
// *Ops.cpp files).
//
//===----------------------------------------------------------------------===//

#include "mdl/GradientInterface.h"
#include "mdl/MDLOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::mdl;

#include "mdl/MDLDialect.cpp.inc"

void MDLDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mdl/MDLOps.cpp.inc"
      >();
  registerAttributes();
  attachGradientRules(*getContext());
}

Operation *MDLDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = llvm::dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

#define GET_OP_CLASSES
#include "mdl/MDLOps.cpp.inc"
