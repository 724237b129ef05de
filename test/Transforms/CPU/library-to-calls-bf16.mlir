// RUN: modelc-opt %s --modelc-library-to-calls --canonicalize | FileCheck %s
// RUN: modelc-opt %s --modelc-library-to-calls | FileCheck %s --check-prefix=NOF32
// modelc-library-to-calls in a module whose mdl.precision is bf16
// (mdl-assign-precision): every convolution calls the runtime's `_bf16`
// form (inputs rounded to bf16, f32 accumulation; a bias stays f32), with
// the f32 forms' arguments; no f32 convolution is called. Pooling has no
// bf16 form. An op's own mdl.precision overrides the module's (@tagged:
// a first layer's weight gradient tagged "f32" calls the f32 form). A
// convolution fused with its max pooling calls the fused call's `_bf16`
// form (@conv_pool), as do a convolution's two gradients in one call
// (@backward).

// CHECK-LABEL: func.func @convs(
// NOF32-LABEL: func.func @convs(
// CHECK: call @modelrt_conv2d_forward_bf16(
// CHECK: call @modelrt_conv2d_forward_bias_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK: call @modelrt_conv2d_backward_weights_bf16(
// CHECK: call @modelrt_conv2d_backward_data_bf16(
// CHECK: call @modelrt_max_pool2d_forward(
// NOF32-NOT: call @modelrt_conv2d_{{forward|forward_bias|backward_data|backward_weights}}(
module attributes {mdl.precision = "bf16"} {
  func.func @convs(%x: memref<?x1x7x5xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %y: memref<?x4x4x3xf32>, %dx: memref<?x1x7x5xf32>, %dw: memref<4x1x3x3xf32>, %p: memref<?x4x2x1xf32>) {
    mdl.lib_conv2d %x, %w, %y {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<4x1x3x3xf32>, memref<?x4x4x3xf32>
    mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<?x4x4x3xf32>
    mdl.lib_conv2d_grad_weight %x, %y, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<?x4x4x3xf32>, memref<4x1x3x3xf32>
    mdl.lib_conv2d_grad_input %y, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x4x4x3xf32>, memref<4x1x3x3xf32>, memref<?x1x7x5xf32>
    mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<?x4x4x3xf32>, memref<?x4x2x1xf32>
    return
  }
  // CHECK-LABEL: func.func @tagged(
  // NOF32-LABEL: func.func @tagged(
  // CHECK: call @modelrt_conv2d_backward_weights(
  // CHECK: call @modelrt_conv2d_backward_data_bf16(
  func.func @tagged(%x: memref<?x1x7x5xf32>, %w: memref<4x1x3x3xf32>, %y: memref<?x4x4x3xf32>, %dx: memref<?x1x7x5xf32>, %dw: memref<4x1x3x3xf32>) {
    mdl.lib_conv2d_grad_weight %x, %y, %dw {mdl.precision = "f32", stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<?x4x4x3xf32>, memref<4x1x3x3xf32>
    mdl.lib_conv2d_grad_input %y, %w, %dx {mdl.precision = "bf16", stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x4x4x3xf32>, memref<4x1x3x3xf32>, memref<?x1x7x5xf32>
    return
  }
  // CHECK-LABEL: func.func @conv_pool(
  // NOF32-LABEL: func.func @conv_pool(
  // CHECK: call @modelrt_conv2d_forward_bias_max_pool2d_bf16(
  // CHECK-NOT: call @modelrt_max_pool2d_forward
  // NOF32-NOT: call @modelrt_conv2d_forward_bias_max_pool2d(
  func.func @conv_pool(%x: memref<2x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %p: memref<2x4x4x3xf32>) {
    %y = memref.alloc() : memref<2x4x8x6xf32>
    mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
    mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
    return
  }
  // CHECK-LABEL: func.func @backward(
  // NOF32-LABEL: func.func @backward(
  // CHECK: call @modelrt_conv2d_backward_bf16(
  // NOF32-NOT: call @modelrt_conv2d_backward(
  func.func @backward(%x: memref<2x1x7x5xf32>, %w: memref<4x1x3x3xf32>, %dy: memref<2x4x4x3xf32>, %dw: memref<4x1x3x3xf32>) {
    %dx = memref.alloc() : memref<2x1x7x5xf32>
    mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x1x3x3xf32>, memref<2x1x7x5xf32>
    mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x1x7x5xf32>, memref<2x4x4x3xf32>, memref<4x1x3x3xf32>
    return
  }
}
