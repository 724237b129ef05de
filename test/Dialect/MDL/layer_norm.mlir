// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.layer_norm: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @layer_norm(
// CHECK: %{{[a-z0-9_]+}} = mdl.layer_norm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x16x64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<?x16x64xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x16x64xf32>
// CHECK-LABEL: func.func @layer_norm_2(
// CHECK: %{{[a-z0-9_]+}} = mdl.layer_norm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {epsilon = 9.9999999999999995E-7 : f64} : tensor<?x4x5xf64>, tensor<4x5xf64>, tensor<4x5xf64> -> tensor<?x4x5xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x4x5xf64>

func.func @layer_norm(%x: tensor<?x16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<?x16x64xf32> {
  %0 = mdl.layer_norm %x, %g, %b : tensor<?x16x64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<?x16x64xf32>
  return %0 : tensor<?x16x64xf32>
}
func.func @layer_norm_2(%x: tensor<?x4x5xf64>, %g: tensor<4x5xf64>, %b: tensor<4x5xf64>) -> tensor<?x4x5xf64> {
  %0 = mdl.layer_norm %x, %g, %b {epsilon = 1.000000e-06 : f64} : tensor<?x4x5xf64>, tensor<4x5xf64>, tensor<4x5xf64> -> tensor<?x4x5xf64>
  return %0 : tensor<?x4x5xf64>
}
