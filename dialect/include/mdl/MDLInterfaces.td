//===- MDLInterfaces.td - Traits and interfaces of mdl ops --*- tablegen -*-===//
//
// Traits and op interfaces that the mdl transformations key on.
//
// `NonDifferentiable` marks ops whose results carry no gradient (comparisons,
// argmax, integer casts of indices, constants): reverse-mode autodiff stops
// at them. `GradientOpInterface` is the gradient rule of a differentiable op;
// the rules of all mdl ops are attached as external models by
// dialect/lib/GradientRules.cpp (one function per op, read as one table). An
// op with neither is rejected by the autodiff pass when the loss depends on
// it through a differentiable path.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_INTERFACES_TD
#define MDL_INTERFACES_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/Interfaces.td"

/// Results of the op carry no gradient; autodiff does not propagate through
/// it. Implemented in C++ by mlir::mdl::OpTrait::NonDifferentiable.
def MDL_NonDifferentiable : NativeOpTrait<"NonDifferentiable"> {
  let cppNamespace = "::mlir::mdl::OpTrait";
}

/// The reverse-mode gradient rule of an op.
def MDL_GradientOpInterface : OpInterface<"GradientOpInterface"> {
  let cppNamespace = "::mlir::mdl";
  let description = [{
    Given the adjoints of the op's results, builds (with `builder`, at its
    insertion point) ops computing the adjoints of the op's operands, reusing
    the op's forward operands and results directly.
  }];
  let methods = [
    InterfaceMethod<[{
      `resultGrads[i]` is the adjoint of result `i` (with that result's type)
      or null when the loss does not depend on it. `needed[j]` says whether
      operand `j` needs an adjoint (a float operand on a path from a
      differentiated source). Fills `operandGrads` (one entry per operand,
      null for none) with values of exactly the operands' types. Fails, after
      reporting an error at the op's location, when the rule cannot handle a
      needed operand (e.g. a dynamic dimension it must reshape).
    }], "::llvm::LogicalResult", "buildGradients",
    (ins "::mlir::OpBuilder &":$builder,
         "::llvm::ArrayRef<::mlir::Value>":$resultGrads,
         "::llvm::ArrayRef<bool>":$needed,
         "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGrads)>
  ];
}

#endif // MDL_INTERFACES_TD
