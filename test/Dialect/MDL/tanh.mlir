// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.tanh: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @tanh(
// CHECK: %{{[a-z0-9_]+}} = mdl.tanh %{{[a-z0-9_]+}} : tensor<?x128xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x128xf32>
// CHECK-LABEL: func.func @tanh_f64(
// CHECK: %{{[a-z0-9_]+}} = mdl.tanh %{{[a-z0-9_]+}} : tensor<f64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<f64>

func.func @tanh(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %0 = mdl.tanh %x : tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}
func.func @tanh_f64(%x: tensor<f64>) -> tensor<f64> {
  %0 = mdl.tanh %x : tensor<f64>
  return %0 : tensor<f64>
}
