// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.param reads a parameter: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK: mdl.parameter @w : tensor<4x3xf32> {init = #mdl.init<uniform(-1, 1)>}
// CHECK-LABEL: func.func @param(
// CHECK: %{{[a-z0-9_]+}} = mdl.param @w : tensor<4x3xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<4x3xf32>

mdl.parameter @w : tensor<4x3xf32> {init = #mdl.init<uniform(-1, 1)>}
func.func @param() -> tensor<4x3xf32> {
  %0 = mdl.param @w : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
