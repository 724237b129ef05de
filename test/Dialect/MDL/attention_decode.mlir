// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of the decoding step's ops: mdl.attention_decode (one position
// over 64-row caches, f32 and f64) and mdl.position_row.

// CHECK-LABEL: func.func @step(
// CHECK: mdl.attention_decode %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x1x16xf32>, tensor<1x4x1x16xf32>, tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<i64> -> tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>
// CHECK: mdl.position_row %{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<i64> -> tensor<1x32xf32>
// CHECK-LABEL: func.func @wide(
// CHECK: mdl.attention_decode {{.*}} -> tensor<2x1x1x8xf64>, tensor<2x1x5x8xf64>, tensor<2x1x5x8xf64>
func.func @step(%q: tensor<1x4x1x16xf32>, %kc: tensor<1x4x64x16xf32>, %vc: tensor<1x4x64x16xf32>, %pos: tensor<i64>, %table: tensor<64x32xf32>) -> (tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x32xf32>) {
  %o, %k2, %v2 = mdl.attention_decode %q, %q, %q, %kc, %vc, %pos : tensor<1x4x1x16xf32>, tensor<1x4x1x16xf32>, tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<i64> -> tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>
  %row = mdl.position_row %table, %pos : tensor<64x32xf32>, tensor<i64> -> tensor<1x32xf32>
  return %o, %k2, %v2, %row : tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x32xf32>
}
func.func @wide(%q: tensor<2x1x1x8xf64>, %c: tensor<2x1x5x8xf64>, %pos: tensor<i64>) -> tensor<2x1x1x8xf64> {
  %o, %k2, %v2 = mdl.attention_decode %q, %q, %q, %c, %c, %pos : tensor<2x1x1x8xf64>, tensor<2x1x1x8xf64>, tensor<2x1x1x8xf64>, tensor<2x1x5x8xf64>, tensor<2x1x5x8xf64>, tensor<i64> -> tensor<2x1x1x8xf64>, tensor<2x1x5x8xf64>, tensor<2x1x5x8xf64>
  return %o : tensor<2x1x1x8xf64>
}
