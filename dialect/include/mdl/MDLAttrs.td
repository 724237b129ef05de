//===- MDLAttrs.td - mdl enums and attributes ---------------*- tablegen -*-===//
//
// The comparison predicate and loss reduction enums, and `#mdl.init<...>`,
// the initialiser attached to every parameter and state symbol.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_ATTRS_TD
#define MDL_ATTRS_TD

include "mdl/MDLDialect.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def MDL_CmpPredicateAttr : I32EnumAttr<"CmpPredicate", "comparison predicate", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::mlir::mdl";
}

def MDL_ReductionAttr : I32EnumAttr<"Reduction", "loss reduction", [
    I32EnumAttrCase<"mean", 0>, I32EnumAttrCase<"sum", 1>]> {
  let cppNamespace = "::mlir::mdl";
}

def MDL_InitKindEnum : I32Enum<"InitKind", "parameter initialiser", [
    I32EnumCase<"kaiming_uniform", 0>, I32EnumCase<"uniform", 1>,
    I32EnumCase<"normal", 2>, I32EnumCase<"zeros", 3>,
    I32EnumCase<"ones", 4>, I32EnumCase<"constant", 5>]> {
  let cppNamespace = "::mlir::mdl";
}

//===----------------------------------------------------------------------===//
// #mdl.init
//===----------------------------------------------------------------------===//

def MDL_InitAttr : AttrDef<MDL_Dialect, "Init"> {
  let mnemonic = "init";
  let summary = "How a parameter or state tensor is initialised";
  let description = [{
    An initialiser: a kind and its numeric arguments.

    | form                          | meaning                                  |
    | ----------------------------- | ---------------------------------------- |
    | `kaiming_uniform(fan_in)`     | U(-b, b), b = sqrt(6 / fan_in)           |
    | `kaiming_uniform(fan_in, a)`  | U(-b, b), b = sqrt(6 / ((1 + a^2) fan_in)); a = sqrt(5) is PyTorch's nn.Linear default |
    | `uniform(lo, hi)`             | U(lo, hi), lo < hi                       |
    | `normal(mean, std)`           | N(mean, std^2), std > 0                  |
    | `zeros`, `ones`               | constant 0 / 1                           |
    | `constant(v)`                 | constant v                               |

    Example: `#mdl.init<kaiming_uniform(784)>`, `#mdl.init<zeros>`.
  }];
  let parameters = (ins "::mlir::mdl::InitKind":$kind,
                        "::mlir::DenseF64ArrayAttr":$args);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // MDL_ATTRS_TD
