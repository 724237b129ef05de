//===- MDLElementwiseOps.td - Elementwise ops ---------------*- tablegen -*-===//
//
// Broadcasting binary arithmetic, unary math, comparison, select, cast and
// constants.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_ELEMENTWISE_OPS_TD
#define MDL_ELEMENTWISE_OPS_TD

//===----------------------------------------------------------------------===//
// Binary ops with numpy-style broadcasting
//===----------------------------------------------------------------------===//

/// A binary op with numpy-style broadcasting. `operandType` restricts the
/// element types; both operands must have the same element type.
class MDL_BinaryOp<string mnemonic, string formula, Type operandType,
                   list<Trait> traits = []>
    : MDL_InferOp<mnemonic, traits> {
  let summary = "Elementwise " # formula # " with broadcasting";
  let description = [{
    Computes `}] # formula # [{` elementwise. The shapes broadcast like numpy:
    they are aligned at their trailing dimension, the shorter one is padded
    with leading 1s, and each pair of sizes must be equal or contain a 1.
    A dynamic size `?` pairs with 1 or `?` to give `?`, and with a static
    size `n` to give `n` (the runtime size must then be 1 or `n`).

    ```mlir
    %z = mdl.}] # mnemonic # [{ %x, %b : tensor<?x128xf32>, tensor<128xf32> -> tensor<?x128xf32>
    ```
  }];
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def MDL_AddOp : MDL_BinaryOp<"add", "lhs + rhs", MDL_NumericTensor, [Commutative]>;
def MDL_SubOp : MDL_BinaryOp<"sub", "lhs - rhs", MDL_NumericTensor>;
def MDL_MulOp : MDL_BinaryOp<"mul", "lhs * rhs", MDL_NumericTensor, [Commutative]>;
def MDL_DivOp : MDL_BinaryOp<"div", "lhs / rhs", MDL_NumericTensor>;
def MDL_PowOp : MDL_BinaryOp<"pow", "lhs ^ rhs", MDL_FloatTensor>;
def MDL_MaxOp : MDL_BinaryOp<"max", "maximum(lhs, rhs)", MDL_NumericTensor, [Commutative]>;
def MDL_MinOp : MDL_BinaryOp<"min", "minimum(lhs, rhs)", MDL_NumericTensor, [Commutative]>;

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

/// A unary elementwise op; the result has the operand's type.
class MDL_UnaryOp<string mnemonic, string formula, Type operandType>
    : MDL_Op<mnemonic, [Pure, SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "Elementwise " # formula;
  let description = [{
    Computes `}] # formula # [{` for every element; the result has the
    operand's type.

    ```mlir
    %y = mdl.}] # mnemonic # [{ %x : tensor<?x128xf32>
    ```
  }];
  let arguments = (ins operandType:$operand);
  let results = (outs operandType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def MDL_NegOp : MDL_UnaryOp<"neg", "-x", MDL_NumericTensor>;
def MDL_AbsOp : MDL_UnaryOp<"abs", "|x|", MDL_NumericTensor>;
def MDL_ExpOp : MDL_UnaryOp<"exp", "e^x", MDL_FloatTensor>;
def MDL_LogOp : MDL_UnaryOp<"log", "ln(x)", MDL_FloatTensor>;
def MDL_SqrtOp : MDL_UnaryOp<"sqrt", "sqrt(x)", MDL_FloatTensor>;
def MDL_ReluOp : MDL_UnaryOp<"relu", "max(x, 0)", MDL_FloatTensor>;
def MDL_GeluOp : MDL_UnaryOp<"gelu", "x * 0.5 * (1 + erf(x / sqrt(2)))", MDL_FloatTensor>;
def MDL_TanhOp : MDL_UnaryOp<"tanh", "tanh(x)", MDL_FloatTensor>;
def MDL_SigmoidOp : MDL_UnaryOp<"sigmoid", "1 / (1 + e^-x)", MDL_FloatTensor>;

//===----------------------------------------------------------------------===//
// Comparison, select, cast, constant
//===----------------------------------------------------------------------===//

def MDL_CmpOp : MDL_InferOp<"cmp", [MDL_NonDifferentiable]> {
  let summary = "Elementwise comparison with broadcasting";
  let description = [{
    Compares `lhs` and `rhs` (same element type, shapes broadcast as for
    `mdl.add`) with `predicate` (`eq`, `ne`, `lt`, `le`, `gt`, `ge`); the
    result is an i1 tensor of the broadcast shape. Float comparisons are
    ordered (false when either side is NaN) except `ne`, which is true then.

    ```mlir
    %m = mdl.cmp gt, %x, %zero : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
    ```
  }];
  let arguments = (ins MDL_CmpPredicateAttr:$predicate, MDL_Tensor:$lhs,
                   MDL_Tensor:$rhs);
  let results = (outs MDL_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->`
    type($result)
  }];
}

def MDL_SelectOp : MDL_InferOp<"select"> {
  let summary = "Elementwise choice with broadcasting";
  let description = [{
    `result[i] = condition[i] ? true_value[i] : false_value[i]`. The three
    shapes broadcast together; the value operands share an element type.

    ```mlir
    %y = mdl.select %m, %x, %zero : tensor<?x10xi1>, tensor<?x10xf32>, tensor<f32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins MDL_BoolTensor:$condition, MDL_Tensor:$true_value,
                   MDL_Tensor:$false_value);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    type($condition) `,` type($true_value) `,` type($false_value) `->`
    type($result)
  }];
}

def MDL_CastOp : MDL_Op<"cast", [Pure]> {
  let summary = "Converts the element type";
  let description = [{
    Converts every element to the result's element type; the shapes must be
    identical. float -> int truncates toward zero, int -> float rounds to
    nearest, x -> i1 is `x != 0`, i1 -> x gives 0 or 1. Only float -> float
    casts are differentiable. The result type cannot be inferred: builders
    take the target element type.

    ```mlir
    %f = mdl.cast %labels : tensor<?xi64> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins MDL_Tensor:$input);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$input, "::mlir::Type":$elementType)>
  ];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def MDL_ConstantOp : MDL_InferOp<"constant",
    [ConstantLike, MDL_NonDifferentiable]> {
  let summary = "A constant tensor";
  let description = [{
    A static-shaped constant given by a dense elements attribute (a splat
    for scalars and fills).

    ```mlir
    %c = mdl.constant dense<0.5> : tensor<f32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

#endif // MDL_ELEMENTWISE_OPS_TD
