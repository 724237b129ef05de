//===- MDLStateOps.td - Parameters and state ----------------*- tablegen -*-===//
//
// The module-level parameter/state table and the ops that read and write it.
//
//===----------------------------------------------------------------------===//

#ifndef MDL_STATE_OPS_TD
#define MDL_STATE_OPS_TD

/// Shared definition of `mdl.parameter` and `mdl.state`.
class MDL_SymbolDeclOp<string mnemonic>
    : MDL_Op<mnemonic, [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<MDL_Tensor>:$type,
                       MDL_InitAttr:$init);
  let assemblyFormat = "$sym_name `:` $type attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The declared tensor type.
    ::mlir::RankedTensorType getTensorType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
  }];
}

def MDL_ParameterOp : MDL_SymbolDeclOp<"parameter"> {
  let summary = "Declares a trainable parameter";
  let description = [{
    A module-level symbol naming one trainable tensor and how it is
    initialised. Its type must be fully static with a float element type.
    The runtime owns the storage: it initialises it from `init`, the
    optimizer updates it between training steps, checkpoints save it by name.

    ```mlir
    mdl.parameter @linear_0.weight : tensor<784x128xf32> {init = #mdl.init<kaiming_uniform(784)>}
    ```
  }];
}

def MDL_StateOp : MDL_SymbolDeclOp<"state"> {
  let summary = "Declares non-trainable state (e.g. running statistics)";
  let description = [{
    A module-level symbol naming a tensor that is saved in checkpoints but
    not trained, such as batch-norm running statistics. Its type must be
    fully static. Read with `mdl.state_read`, written with `mdl.state_write`.

    ```mlir
    mdl.state @bn_0.running_mean : tensor<32xf32> {init = #mdl.init<zeros>}
    ```
  }];
}

def MDL_ParamOp : MDL_Op<"param",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Reads a trainable parameter";
  let description = [{
    Yields the current value of the `mdl.parameter` named by `name`. The
    symbol must exist in the enclosing module, be an `mdl.parameter`, and
    have exactly the result type. Parameters do not change while a function
    runs (the optimizer updates them between calls), so the op is pure.

    ```mlir
    %w = mdl.param @linear_0.weight : tensor<784x128xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

def MDL_StateReadOp : MDL_Op<"state_read",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
     MemoryEffects<[MemRead<MDL_StateResource>]>, MDL_NonDifferentiable]> {
  let summary = "Reads a state tensor";
  let description = [{
    Yields the current value of the `mdl.state` named by `name` (must exist,
    be an `mdl.state`, and have exactly the result type).

    ```mlir
    %m = mdl.state_read @bn_0.running_mean : tensor<32xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs MDL_Tensor:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

def MDL_StateWriteOp : MDL_Op<"state_write",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
     MemoryEffects<[MemWrite<MDL_StateResource>]>]> {
  let summary = "Overwrites a state tensor";
  let description = [{
    Stores `value` into the `mdl.state` named by `name` (must exist, be an
    `mdl.state`, and have exactly the value's type). Later `mdl.state_read`s
    of the symbol in the same function see the new value.

    ```mlir
    mdl.state_write @bn_0.running_mean, %new : tensor<32xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$name, MDL_Tensor:$value);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
}

#endif // MDL_STATE_OPS_TD
