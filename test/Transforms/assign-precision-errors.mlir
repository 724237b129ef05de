// RUN: not modelc-opt %s --mdl-assign-precision=precision=fp8 --split-input-file 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not modelc-opt %s --mdl-assign-precision --split-input-file 2>&1 | FileCheck %s
// mdl-assign-precision fails on a precision other than f32, bf16 or tf32:
// from its option or the configuration at the module, on an op at the op.

// OPTION: assign-precision-errors.mlir:[[@LINE+2]]:1: error: unknown precision 'fp8'; expected f32, bf16 or tf32
// CHECK: assign-precision-errors.mlir:[[@LINE+1]]:1: error: unknown precision 'f16'; expected f32, bf16 or tf32
module attributes {mdl.config = {precision = "f16"}} {
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = mdl.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
}

// -----

module attributes {mdl.config = {precision = "bf16"}} {
func.func @g(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // CHECK: assign-precision-errors.mlir:[[@LINE+1]]:8: error: 'mdl.matmul' op has unknown precision 'f8'; expected f32, bf16 or tf32
  %0 = mdl.matmul %x, %w {mdl.precision = "f8"} : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
}
