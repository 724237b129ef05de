// The f32 groups == 1 convolution and its two adjoints through the CPU
// pipeline up to its call stage, both ways:
// - by default (LIB) each is one call of the runtime's convolution
//   (modelc-library-to-calls): the buffers' pointers (a forward one with a
//   bias calls modelrt_conv2d_forward_bias, the bias third), then N (read
//   from the batch), C, H, W, O, KH, KW, OH, OW, stride, padding, dilation;
// - with library-ops=false (CHECK) the library op is expanded
//   first, and im2col's rank-2 f32 contraction survives fusion, so
//   modelc-matmul-to-blas turns each into one cblas_sgemm call
//   (RowMajor = 101, NoTrans = 111, Trans = 112; M, N, K static where known).
// RUN: modelc-opt %s --pass-pipeline='builtin.module(convert-mdl-to-linalg,modelc-cpu-lowering{stop-after=blas})' | FileCheck %s --check-prefix=LIB
// RUN: modelc-opt %s --pass-pipeline='builtin.module(convert-mdl-to-linalg,modelc-cpu-lowering{stop-after=blas library-ops=false})' | FileCheck %s

// LIB-DAG: func.func private @modelrt_conv2d_forward(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// LIB-DAG: func.func private @modelrt_conv2d_forward_bias(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// LIB-DAG: func.func private @modelrt_conv2d_backward_data(
// LIB-DAG: func.func private @modelrt_conv2d_backward_weights(
// LIB-LABEL: func.func @conv(
// LIB: %[[N:.*]] = arith.index_cast %dim : index to i64
// LIB: call @modelrt_conv2d_forward_bias(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %c1_i64, %c28_i64, %c28_i64, %c32_i64, %c3_i64, %c3_i64, %c28_i64, %c28_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// LIB-NOT: linalg.generic
// LIB-NOT: cblas_sgemm
// LIB-LABEL: func.func @conv_strided(
// LIB: call @modelrt_conv2d_forward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c3_i64, %c13_i64, %c11_i64, %c5_i64, %c3_i64, %c3_i64, %c5_i64, %c4_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64, %c2_i64, %c2_i64)
// LIB-LABEL: func.func @grad_input(
// LIB: call @modelrt_conv2d_backward_data(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c3_i64, %c11_i64, %c11_i64, %c8_i64, %c3_i64, %c3_i64, %c6_i64, %c6_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// LIB-LABEL: func.func @grad_weight(
// LIB: call @modelrt_conv2d_backward_weights(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c3_i64, %c11_i64, %c11_i64, %c8_i64, %c3_i64, %c3_i64, %c6_i64, %c6_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// LIB-NOT: mdl.lib_conv2d

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
