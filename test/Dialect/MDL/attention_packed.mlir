// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.attention_packed and mdl.attention_packed_grad: a
// dynamic batch in f32, a static one in f64 without the mask.

// CHECK-LABEL: func.func @packed(
// CHECK: mdl.attention_packed %{{.*}} {causal = true} : tensor<?x8x3x4x16xf32> -> tensor<?x8x4x16xf32>
// CHECK: mdl.attention_packed_grad %{{.*}}, %{{.*}}, %{{.*}} {causal = true} : tensor<?x8x3x4x16xf32>, tensor<?x8x4x16xf32>, tensor<?x8x4x16xf32> -> tensor<?x8x3x4x16xf32>
// CHECK-LABEL: func.func @full(
// CHECK: mdl.attention_packed %{{.*}} : tensor<2x5x3x1x8xf64> -> tensor<2x5x1x8xf64>
func.func @packed(%x: tensor<?x8x3x4x16xf32>, %g: tensor<?x8x4x16xf32>) -> tensor<?x8x3x4x16xf32> {
  %o = mdl.attention_packed %x {causal = true} : tensor<?x8x3x4x16xf32> -> tensor<?x8x4x16xf32>
  %d = mdl.attention_packed_grad %x, %o, %g {causal = true} : tensor<?x8x3x4x16xf32>, tensor<?x8x4x16xf32>, tensor<?x8x4x16xf32> -> tensor<?x8x3x4x16xf32>
  return %d : tensor<?x8x3x4x16xf32>
}
func.func @full(%x: tensor<2x5x3x1x8xf64>) -> tensor<2x5x1x8xf64> {
  %o = mdl.attention_packed %x : tensor<2x5x3x1x8xf64> -> tensor<2x5x1x8xf64>
  return %o : tensor<2x5x1x8xf64>
}
