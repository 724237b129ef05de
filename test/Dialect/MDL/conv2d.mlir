// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.conv2d with and without bias, stride, padding, dilation, groups: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @conv2d(
// CHECK: %{{[a-z0-9_]+}} = mdl.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32> -> tensor<?x32x28x28xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x32x28x28xf32>
// CHECK-LABEL: func.func @conv2d_nobias(
// CHECK: %{{[a-z0-9_]+}} = mdl.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {stride = array<i64: 2, 2>} : tensor<?x3x32x32xf32>, tensor<16x3x5x5xf32> -> tensor<?x16x14x14xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<?x16x14x14xf32>
// CHECK-LABEL: func.func @conv2d_grouped(
// CHECK: %{{[a-z0-9_]+}} = mdl.conv2d %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {dilation = array<i64: 2, 2>, groups = 2 : i64} : tensor<2x4x9x9xf64>, tensor<8x2x3x3xf64> -> tensor<2x8x5x5xf64>
// CHECK: return %{{[a-z0-9_]+}} : tensor<2x8x5x5xf64>

func.func @conv2d(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>) -> tensor<?x32x28x28xf32> {
  %0 = mdl.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32> -> tensor<?x32x28x28xf32>
  return %0 : tensor<?x32x28x28xf32>
}
func.func @conv2d_nobias(%x: tensor<?x3x32x32xf32>, %w: tensor<16x3x5x5xf32>) -> tensor<?x16x14x14xf32> {
  %0 = mdl.conv2d %x, %w {stride = array<i64: 2, 2>} : tensor<?x3x32x32xf32>, tensor<16x3x5x5xf32> -> tensor<?x16x14x14xf32>
  return %0 : tensor<?x16x14x14xf32>
}
func.func @conv2d_grouped(%x: tensor<2x4x9x9xf64>, %w: tensor<8x2x3x3xf64>) -> tensor<2x8x5x5xf64> {
  %0 = mdl.conv2d %x, %w {dilation = array<i64: 2, 2>, groups = 2 : i64} : tensor<2x4x9x9xf64>, tensor<8x2x3x3xf64> -> tensor<2x8x5x5xf64>
  return %0 : tensor<2x8x5x5xf64>
}
