// The groups == 1 convolution and its two adjoints survive the CPU
// pipeline's fusion stage as rank-2 f32 contractions, so
// modelc-matmul-to-blas turns each into one cblas_sgemm call
// (RowMajor = 101, NoTrans = 111, Trans = 112; M, N, K static where known).
// RUN: modelc-opt %s --pass-pipeline='builtin.module(convert-mdl-to-linalg,modelc-cpu-lowering{stop-after=blas})' | FileCheck %s

// Y[32, N*784] = W[32, 9] @ cols[9, N*784].
// CHECK-LABEL: func.func @conv
// CHECK: call @cblas_sgemm(%c101_i32, %c111_i32, %c111_i32, %c32_i32, %{{.*}}, %c9_i32,
// CHECK-NOT: linalg.conv_2d
func.func @conv(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>) -> tensor<?x32x28x28xf32> {
  %0 = mdl.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32> -> tensor<?x32x28x28xf32>
  return %0 : tensor<?x32x28x28xf32>
}

// Strided and dilated: Y[5, N*20] = W[5, 27] @ cols[27, N*20].
// CHECK-LABEL: func.func @conv_strided
// CHECK: call @cblas_sgemm(%c101_i32, %c111_i32, %c111_i32, %c5_i32, %{{.*}}, %c27_i32,
func.func @conv_strided(%x: tensor<?x3x13x11xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<?x5x5x4xf32> {
  %0 = mdl.conv2d %x, %w {stride = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32> -> tensor<?x5x5x4xf32>
  return %0 : tensor<?x5x5x4xf32>
}

// dCols[27, N*36] = W[8, 27]^T @ dY[8, N*36].
// CHECK-LABEL: func.func @grad_input
// CHECK: call @cblas_sgemm(%c101_i32, %c112_i32, %c111_i32, %c27_i32, %{{.*}}, %c8_i32,
func.func @grad_input(%g: tensor<?x8x6x6xf32>, %w: tensor<8x3x3x3xf32>, %x: tensor<?x3x11x11xf32>) -> tensor<?x3x11x11xf32> {
  %0 = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x11x11xf32> -> tensor<?x3x11x11xf32>
  return %0 : tensor<?x3x11x11xf32>
}

// dW[8, 27] = dY[8, N*36] @ cols[27, N*36]^T.
// CHECK-LABEL: func.func @grad_weight
// CHECK: call @cblas_sgemm(%c101_i32, %c111_i32, %c112_i32, %c8_i32, %c27_i32,
func.func @grad_weight(%g: tensor<?x8x6x6xf32>, %x: tensor<?x3x11x11xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32> {
  %0 = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x3x11x11xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return %0 : tensor<8x3x3x3xf32>
}
