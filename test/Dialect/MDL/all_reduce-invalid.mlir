// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.all_reduce and mdl.lib_sum_ranks.

// The sum over the ranks is of floats.
func.func @f(%x: tensor<3xi64>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values}}
  %0 = mdl.all_reduce %x : tensor<3xi64>
  return
}

// -----

// The library form sums into a buffer of the input's shape.
func.func @f(%x: tensor<3xf64>, %init: tensor<4xf64>) {
  // expected-error @+1 {{input 3 and init 4 differ in shape}}
  %0 = mdl.lib_sum_ranks %x, %init : tensor<3xf64>, tensor<4xf64> -> tensor<4xf64>
  return
}

// -----

// ... of f64.
func.func @f(%x: tensor<3xf32>, %init: tensor<3xf32>) {
  // expected-error @+1 {{must be tensor of 64-bit float values or memref of 64-bit float values}}
  %0 = mdl.lib_sum_ranks %x, %init : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// Operands mix tensors and memrefs.
func.func @f(%x: tensor<3xf64>, %init: memref<3xf64>) {
  // expected-error @+1 {{operands must be all tensors or all memrefs}}
  mdl.lib_sum_ranks %x, %init : tensor<3xf64>, memref<3xf64>
  return
}
