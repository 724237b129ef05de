//===- StateOps.cpp - Parameter and state ops -----------------------------===//
//
// Verifiers of mdl.parameter / mdl.state and the symbol checks of
// mdl.param, mdl.state_read and mdl.state_write.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"

using namespace mlir;
using namespace mlir::mdl;

/// Checks what parameters and states share: a static shape, and random
/// initialisers only on float tensors.
static LogicalResult verifySymbolDecl(Operation *op, RankedTensorType type,
                                      InitAttr init) {
  if (!type.hasStaticShape())
    return op->emitOpError("type must have a static shape, got ") << type;
  InitKind kind = init.getKind();
  bool random = kind == InitKind::kaiming_uniform ||
                kind == InitKind::uniform || kind == InitKind::normal;
  if (random && !llvm::isa<FloatType>(type.getElementType()))
    return op->emitOpError("initialiser '")
           << stringifyInitKind(kind) << "' needs a float element type, got "
           << type.getElementType();
  return success();
}

LogicalResult ParameterOp::verify() {
  if (!llvm::isa<FloatType>(getTensorType().getElementType()))
    return emitOpError("a trainable parameter must have a float element "
                       "type, got ")
           << getTensorType().getElementType();
  return verifySymbolDecl(*this, getTensorType(), getInit());
}

LogicalResult StateOp::verify() {
  return verifySymbolDecl(*this, getTensorType(), getInit());
}

/// Resolves `name` to a `DeclOp` and checks the type; `what` names the kind
/// for messages ("parameter" or "state").
template <typename DeclOp>
static LogicalResult verifySymbolUse(Operation *op,
                                     SymbolTableCollection &symbolTable,
                                     FlatSymbolRefAttr name, Type type,
                                     StringRef what) {
  Operation *decl = symbolTable.lookupNearestSymbolFrom(op, name.getAttr());
  if (!decl)
    return op->emitOpError("unknown ") << what << " " << name;
  auto declOp = llvm::dyn_cast<DeclOp>(decl);
  if (!declOp)
    return op->emitOpError() << name << " is not an 'mdl." << what
                             << "' (it is a '" << decl->getName() << "')";
  if (declOp.getType() != type)
    return op->emitOpError("type ")
           << type << " does not match the declared type "
           << declOp.getType() << " of " << what << " " << name;
  return success();
}

LogicalResult ParamOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifySymbolUse<ParameterOp>(*this, symbolTable, getNameAttr(),
                                      getType(), "parameter");
}

LogicalResult
StateReadOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifySymbolUse<StateOp>(*this, symbolTable, getNameAttr(),
                                  getType(), "state");
}

LogicalResult
StateWriteOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifySymbolUse<StateOp>(*this, symbolTable, getNameAttr(),
                                  getValue().getType(), "state");
}
