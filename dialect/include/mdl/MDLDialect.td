//===- MDLDialect.td - The mdl dialect, op base class, types -*- tablegen -*-===//
//
// Defines the `mdl` dialect (tensor-level ops for neural-network models), the
// base class of every mdl op and the tensor type constraints the ops share.
// mdl works on builtin ranked tensors; by convention only the leading (batch)
// dimension of a model tensor is dynamic.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_DIALECT_TD
#define MDL_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def MDL_Dialect : Dialect {
  let name = "mdl";
  let cppNamespace = "::mlir::mdl";
  let summary = "Tensor operations of neural-network models (modelc)";
  let description = [{
    The `mdl` dialect holds the model-level operations that modelc's front
    end emits: products, broadcasting elementwise arithmetic, reductions,
    shape manipulation, normalisation, dropout, embeddings and losses, plus
    the module-level table of trainable parameters and non-trainable state.
    Every value is a builtin ranked tensor whose element type is one of
    f32, f64, i32, i64 or i1. See docs/dialect.md.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Registers the dialect's attributes (defined in MDLAttrs.cpp).
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

/// Every element type an mdl tensor may have.
def MDL_ElementType : AnyTypeOf<[F32, F64, BF16, F16, I32, I64, I1]>;

def MDL_Tensor : RankedTensorOf<[F32, F64, BF16, F16, I32, I64, I1]>;
def MDL_NumericTensor : RankedTensorOf<[F32, F64, BF16, F16, I32, I64]>;
def MDL_FloatTensor : RankedTensorOf<[F32, F64, BF16, F16]>;
def MDL_IndexTensor : RankedTensorOf<[I32, I64]>;
def MDL_BoolTensor : RankedTensorOf<[I1]>;
def MDL_I64Tensor : RankedTensorOf<[I64]>;
/// A 0-d tensor<i64>: the seed of a random operation.
def MDL_SeedTensor : 0DTensorOf<[I64]>;
/// A 0-d tensor<i64>: the position a decoding step computes.
def MDL_PositionTensor : 0DTensorOf<[I64]>;
/// A 0-d float tensor: what a loss reduces to.
def MDL_FloatScalar : 0DTensorOf<[F32, F64, BF16, F16]>;

//===----------------------------------------------------------------------===//
// Base op class
//===----------------------------------------------------------------------===//

class MDL_Op<string mnemonic, list<Trait> traits = []>
    : Op<MDL_Dialect, mnemonic, traits>;

#endif // MDL_DIALECT_TD
