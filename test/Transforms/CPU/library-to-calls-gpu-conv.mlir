// modelc-library-to-calls{gpu=true}: in the GPU pipeline with cuDNN
// (--gpu-conv=cudnn), the three convolutions call the runtime's
// modelrt_cuda_conv2d_* (runtime/include/modelrt/cuda/GpuAbi.h) with the
// CPU calls' arguments: the pointers of (x, w, y), (dy, w, dx), (x, dy,
// dw), then N, C, H, W, O, KH, KW, OH, OW, stride, padding, dilation. The
// module's mdl.precision picks the form: none or f32 the f32 one, tf32 the
// `_tf32` one, bf16 the `_bf16` one; the CPU's calls never appear.
// RUN: modelc-opt %s -split-input-file --modelc-library-to-calls=gpu=true --canonicalize | FileCheck %s

// CHECK-DAG: func.func private @modelrt_cuda_conv2d_forward(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_cuda_conv2d_backward_data(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_cuda_conv2d_backward_weights(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-NOT: @modelrt_conv2d_
// CHECK-LABEL: func.func @convs(
// CHECK: %[[N:.*]] = arith.index_cast %dim : index to i64
// CHECK: call @modelrt_cuda_conv2d_forward(%{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %c1_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK: call @modelrt_cuda_conv2d_backward_data(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK: call @modelrt_cuda_conv2d_backward_weights(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK-NOT: mdl.lib_
func.func @convs(%x: memref<?x1x7x5xf32>, %w: memref<4x1x3x3xf32>, %y: memref<?x4x4x3xf32>, %dx: memref<?x1x7x5xf32>, %dw: memref<4x1x3x3xf32>) {
  mdl.lib_conv2d %x, %w, %y {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<4x1x3x3xf32>, memref<?x4x4x3xf32>
  mdl.lib_conv2d_grad_input %y, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x4x4x3xf32>, memref<4x1x3x3xf32>, memref<?x1x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %y, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<?x4x4x3xf32>, memref<4x1x3x3xf32>
  return
}

// -----

// CHECK-LABEL: func.func @convs_tf32(
// CHECK: call @modelrt_cuda_conv2d_forward_tf32(
// CHECK: call @modelrt_cuda_conv2d_backward_data_tf32(
// CHECK: call @modelrt_cuda_conv2d_backward_weights_tf32(
module attributes {mdl.precision = "tf32"} {
  func.func @convs_tf32(%x: memref<2x1x7x5xf32>, %w: memref<4x1x3x3xf32>, %y: memref<2x4x5x3xf32>, %dx: memref<2x1x7x5xf32>, %dw: memref<4x1x3x3xf32>) {
    mdl.lib_conv2d %x, %w, %y : memref<2x1x7x5xf32>, memref<4x1x3x3xf32>, memref<2x4x5x3xf32>
    mdl.lib_conv2d_grad_input %y, %w, %dx : memref<2x4x5x3xf32>, memref<4x1x3x3xf32>, memref<2x1x7x5xf32>
    mdl.lib_conv2d_grad_weight %x, %y, %dw : memref<2x1x7x5xf32>, memref<2x4x5x3xf32>, memref<4x1x3x3xf32>
    return
  }
}

// -----

// CHECK-LABEL: func.func @convs_bf16(
// CHECK: call @modelrt_cuda_conv2d_forward_bf16(
// CHECK: call @modelrt_cuda_conv2d_backward_data_bf16(
// CHECK: call @modelrt_cuda_conv2d_backward_weights_bf16(
module attributes {mdl.precision = "bf16"} {
  func.func @convs_bf16(%x: memref<2x1x7x5xf32>, %w: memref<4x1x3x3xf32>, %y: memref<2x4x5x3xf32>, %dx: memref<2x1x7x5xf32>, %dw: memref<4x1x3x3xf32>) {
    mdl.lib_conv2d %x, %w, %y : memref<2x1x7x5xf32>, memref<4x1x3x3xf32>, memref<2x4x5x3xf32>
    mdl.lib_conv2d_grad_input %y, %w, %dx : memref<2x4x5x3xf32>, memref<4x1x3x3xf32>, memref<2x1x7x5xf32>
    mdl.lib_conv2d_grad_weight %x, %y, %dw : memref<2x1x7x5xf32>, memref<2x4x5x3xf32>, memref<4x1x3x3xf32>
    return
  }
}
