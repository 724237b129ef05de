// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.div with broadcasting: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @div(
// CHECK: %{{[a-z0-9_]+}} = mdl.div %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x128xf32>, tensor<128xf32> -> tensor<?x128xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x128xf32>
// CHECK-LABEL: func.func @div_int(
// CHECK: %{{[a-z0-9_]+}} = mdl.div %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<4x1xi64>, tensor<3xi64> -> tensor<4x3xi64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<4x3xi64>
// CHECK-LABEL: func.func @div_scalar(
// CHECK: %{{[a-z0-9_]+}} = mdl.div %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<f64>, tensor<?x2x3xf64> -> tensor<?x2x3xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x2x3xf64>

func.func @div(%x: tensor<?x128xf32>, %b: tensor<128xf32>) -> tensor<?x128xf32> {
  %0 = mdl.div %x, %b : tensor<?x128xf32>, tensor<128xf32> -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}
func.func @div_int(%x: tensor<4x1xi64>, %y: tensor<3xi64>) -> tensor<4x3xi64> {
  %0 = mdl.div %x, %y : tensor<4x1xi64>, tensor<3xi64> -> tensor<4x3xi64>
  return %0 : tensor<4x3xi64>
}
func.func @div_scalar(%x: tensor<?x2x3xf64>, %s: tensor<f64>) -> tensor<?x2x3xf64> {
  %0 = mdl.div %s, %x : tensor<f64>, tensor<?x2x3xf64> -> tensor<?x2x3xf64>
  return %0 : tensor<?x2x3xf64>
}
