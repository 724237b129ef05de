//===- Passes.td - modelc conversion passes ------------------*- tablegen -*-===//
//
// Declares the passes that lower the mdl dialect: `convert-mdl-to-linalg`
// (mdl -> linalg/tensor/arith/math/scf, parameters and state -> arguments).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_CONVERSION_PASSES_TD
#define MODELC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMDLToLinalg : Pass<"convert-mdl-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers the mdl dialect to linalg, tensor, arith and math";
  let description = [{
    First turns every `mdl.param` read into a function argument and every
    `mdl.state_read`/`mdl.state_write` into an argument (state in) and a
    result (state out), then erases the parameter/state table (see
    docs/lowering.md for the resulting signature). Then rewrites every mdl
    op into linalg named ops / `linalg.generic` on tensors with dynamic
    batch dimensions. Ops that cannot be lowered are reported at their
    location and the pass fails.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"keepDeclarations", "keep-declarations", "bool", "false",
           "Keep the mdl.parameter / mdl.state declarations in the module">
  ];
}

#endif // MODELC_CONVERSION_PASSES_TD
