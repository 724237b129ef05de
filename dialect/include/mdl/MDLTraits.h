//===- MDLTraits.h - Native traits and resources of mdl ops -----*- C++ -*-===//
//
// C++ side of the traits declared in MDLInterfaces.td and the side-effect
// resource that mdl.state_read / mdl.state_write act on.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_MDLTRAITS_H
#define MDL_MDLTRAITS_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mdl {

/// The storage of `mdl.state` symbols (e.g. batch-norm running statistics).
struct StateResource : public SideEffects::Resource::Base<StateResource> {
  llvm::StringRef getName() override { return "mdl.state"; }
};

namespace OpTrait {

/// Marks ops whose results carry no gradient; autodiff stops at them.
template <typename ConcreteType>
class NonDifferentiable
    : public mlir::OpTrait::TraitBase<ConcreteType, NonDifferentiable> {};

} // namespace OpTrait
} // namespace mlir::mdl

#endif // MDL_MDLTRAITS_H
