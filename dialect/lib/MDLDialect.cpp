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

InFlightDiagnostic mlir::mdl::emitProgramError(Operation *op,
                                               const Twine &message) {
  Operation *top = op;
  while (Operation *parent = top->getParentOp())
    top = parent;
  top->setAttr(kProgramErrorAttrName, UnitAttr::get(op->getContext()));
  return emitError(op->getLoc()) << "'" << op->getName() << "' op " << message;
}

bool mlir::mdl::configHasMetric(Operation *module, StringRef metric) {
  auto config = module->getAttrOfType<DictionaryAttr>("mdl.config");
  auto metrics = config ? config.getAs<ArrayAttr>("metrics") : nullptr;
  if (!metrics)
    return false;
  return llvm::any_of(metrics, [&](Attribute a) {
    auto s = dyn_cast<StringAttr>(a);
    return s && s.getValue() == metric;
  });
}

#define GET_OP_CLASSES
#include "mdl/MDLOps.cpp.inc"
