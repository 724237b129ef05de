// RUN: modelc-opt %s --modelc-library-to-calls --canonicalize | FileCheck %s
// modelc-library-to-calls on the CPU: the gradient of a 2x2 max pooling
// routed by codes, whose result dy (the output gradient of the convolution
// before the pooling) only that convolution's gradients read (both f32, or
// both bf16: the `_bf16` forms), joins them in one call at the weight
// gradient:
// modelrt_conv2d_backward_from_max_pool2d(pooled dy, codes, x, w, dy, dx,
// dw, the convolution's sizes), or, without an input gradient,
// modelrt_conv2d_backward_weights_from_max_pool2d(pooled dy, codes, x, dy,
// dw, ...). dy is then scratch; the codes are freed after the call.

// CHECK-DAG: func.func private @modelrt_conv2d_backward_from_max_pool2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_conv2d_backward_weights_from_max_pool2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_conv2d_backward_from_max_pool2d_bf16(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_conv2d_backward_weights_from_max_pool2d_bf16(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

// Both gradients.
// CHECK-LABEL: func.func @both(
// CHECK-SAME: %[[Y:[a-z0-9]+]]: memref<2x4x8x6xf32>, %[[P:[a-z0-9]+]]: memref<2x4x4x3xf32>, %[[DP:[a-z0-9]+]]: memref<2x4x4x3xf32>, %[[X:[a-z0-9]+]]: memref<2x1x8x6xf32>, %[[W:[a-z0-9]+]]: memref<4x1x3x3xf32>, %[[DW:[a-z0-9]+]]: memref<4x1x3x3xf32>
// CHECK: %[[CODES:.*]] = memref.alloc() : memref<2x4x4x3xi8>
// CHECK: call @modelrt_max_pool2d_forward_codes(
// CHECK: %[[DY:.*]] = memref.alloc() : memref<2x4x8x6xf32>
// CHECK: %[[DX:.*]] = memref.alloc() : memref<2x1x8x6xf32>
// CHECK-NOT: call @modelrt_max_pool2d_backward
// CHECK: memref.extract_aligned_pointer_as_index %[[DP]]
// CHECK: memref.extract_aligned_pointer_as_index %[[CODES]]
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: memref.extract_aligned_pointer_as_index %[[DY]]
// CHECK: memref.extract_aligned_pointer_as_index %[[DX]]
// CHECK: memref.extract_aligned_pointer_as_index %[[DW]]
// CHECK: call @modelrt_conv2d_backward_from_max_pool2d(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c1_i64, %c8_i64, %c6_i64, %c4_i64, %c3_i64, %c3_i64, %c8_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK-NEXT: memref.dealloc %[[CODES]]
// CHECK-NOT: call @modelrt_conv2d_backward
// CHECK: return
func.func @both(%y: memref<2x4x8x6xf32>, %p: memref<2x4x4x3xf32>, %dp: memref<2x4x4x3xf32>, %x: memref<2x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %dw: memref<4x1x3x3xf32>, %out: memref<2x1x8x6xf32>) {
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  %dx = memref.alloc() : memref<2x1x8x6xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x4x8x6xf32>, memref<4x1x3x3xf32>, memref<2x1x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  memref.copy %dx, %out : memref<2x1x8x6xf32> to memref<2x1x8x6xf32>
  memref.dealloc %dy : memref<2x4x8x6xf32>
  return
}

// A whole layer: the convolution fused with its pooling (the codes
// allocated before that call), then, with an op between that touches none
// of their buffers, the pooling's gradient with the weights' gradient; the
// codes are freed after the second call.
// CHECK-LABEL: func.func @layer(
// CHECK: %[[LC:.*]] = memref.alloc() : memref<2x4x4x3xi8>
// CHECK: call @modelrt_conv2d_forward_bias_max_pool2d(
// CHECK: memref.copy
// CHECK: call @modelrt_conv2d_backward_weights_from_max_pool2d(
// CHECK-NEXT: memref.dealloc %[[LC]]
// CHECK: return
func.func @layer(%x: memref<2x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %p: memref<2x4x4x3xf32>, %dp: memref<2x4x4x3xf32>, %dw: memref<4x1x3x3xf32>, %s: memref<8xf32>, %t: memref<8xf32>) {
  %y = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  memref.dealloc %dy : memref<2x4x8x6xf32>
  memref.dealloc %y : memref<2x4x8x6xf32>
  return
}

// The weights' gradient alone (a first layer), in a bf16 module where it
// stays f32.
// CHECK-LABEL: func.func @weights_only(
// CHECK: call @modelrt_conv2d_backward_weights_from_max_pool2d(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c1_i64,
// CHECK-NOT: call @modelrt_conv2d_backward
// CHECK: return
func.func @weights_only(%y: memref<2x4x8x6xf32>, %p: memref<2x4x4x3xf32>, %dp: memref<2x4x4x3xf32>, %x: memref<2x1x8x6xf32>, %dw: memref<4x1x3x3xf32>) {
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {mdl.precision = "f32", stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  return
}

// bf16 gradients call the `_bf16` forms: both gradients, and the weights'
// alone.
// CHECK-LABEL: func.func @bf16(
// CHECK: call @modelrt_conv2d_backward_from_max_pool2d_bf16(
// CHECK: call @modelrt_conv2d_backward_weights_from_max_pool2d_bf16(
// CHECK-NOT: call @modelrt_conv2d_backward
// CHECK: return
func.func @bf16(%y: memref<2x4x8x6xf32>, %p: memref<2x4x4x3xf32>, %dp: memref<2x4x4x3xf32>, %x: memref<2x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %out: memref<2x1x8x6xf32>, %dw: memref<4x1x3x3xf32>) {
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  %dx = memref.alloc() : memref<2x1x8x6xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {mdl.precision = "bf16", stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x4x8x6xf32>, memref<4x1x3x3xf32>, memref<2x1x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {mdl.precision = "bf16", stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  memref.copy %dx, %out : memref<2x1x8x6xf32> to memref<2x1x8x6xf32>
  memref.dealloc %dy : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy2 = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy2 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {mdl.precision = "bf16", stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  memref.dealloc %dy2 : memref<2x4x8x6xf32>
  return
}

// Not fused: gradients of two precisions (one call runs one); the pooled
// gradient written between; dy a function argument; no codes (a gradient
// that reads another memref of x than the pooling's); dy read between the
// two; an input gradient before the pooling's gradient.
// CHECK-LABEL: func.func @not_fused(
// CHECK-NOT: _from_max_pool2d
// CHECK: return
func.func @not_fused(%y: memref<2x4x8x6xf32>, %y2: memref<2x4x8x6xf32>, %p: memref<2x4x4x3xf32>, %dp: memref<2x4x4x3xf32>, %x: memref<2x1x8x6xf32>, %dw: memref<4x1x3x3xf32>, %o: memref<2x4x8x6xf32>, %darg: memref<2x4x8x6xf32>, %w: memref<4x1x3x3xf32>) {
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  %dx = memref.alloc() : memref<2x1x8x6xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {mdl.precision = "f32", stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x4x8x6xf32>, memref<4x1x3x3xf32>, memref<2x1x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {mdl.precision = "bf16", stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy2 = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy2 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  memref.copy %dy2, %o : memref<2x4x8x6xf32> to memref<2x4x8x6xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy3 = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy3 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  memref.copy %p, %dp : memref<2x4x4x3xf32> to memref<2x4x4x3xf32>
  mdl.lib_conv2d_grad_weight %x, %dy3, %dw {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %darg {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %darg, %dw {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  %dy4 = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y2, %dy4 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy4, %dw {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy5 = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy5 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %dy5[%c0, %c0, %c0, %c0] : memref<2x4x8x6xf32>
  memref.store %v, %o[%c0, %c0, %c0, %c0] : memref<2x4x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy5, %dw {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %dy6 = memref.alloc() : memref<2x4x8x6xf32>
  %dx6 = memref.alloc() : memref<2x1x8x6xf32>
  mdl.lib_conv2d_grad_input %dy6, %w, %dx6 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x4x8x6xf32>, memref<4x1x3x3xf32>, memref<2x1x8x6xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy6 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  mdl.lib_conv2d_grad_weight %x, %dy6, %dw {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<2x4x8x6xf32>, memref<4x1x3x3xf32>
  return
}
