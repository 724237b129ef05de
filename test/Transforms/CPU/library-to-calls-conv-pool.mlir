// RUN: modelc-opt %s --modelc-library-to-calls --canonicalize | FileCheck %s
// modelc-library-to-calls on the CPU: a lib_conv2d_bias whose result is a
// dense allocation that only a 2x2 / 2 max pooling reads (and that
// pooling's gradient, through codes) becomes one call at the pooling,
// modelrt_conv2d_forward_bias_max_pool2d(x, w, bias, y, pooled, codes or
// null, the convolution's sizes); y is then scratch that the runtime may
// leave unwritten. Any other reader of y, or a write between the two ops to
// the convolution's inputs, keeps the two calls.

// CHECK-DAG: func.func private @modelrt_conv2d_forward_bias_max_pool2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

// Training: the gradient routes by the codes that the fused call writes.
// CHECK-LABEL: func.func @train(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x1x8x6xf32>
// CHECK: %[[Y:.*]] = memref.alloc(%{{.*}}) : memref<?x4x8x6xf32>
// CHECK: %[[CODES:.*]] = memref.alloc(%{{.*}}) : memref<?x4x4x3xi8>
// CHECK-NOT: call @modelrt_conv2d_forward_bias(
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: memref.extract_aligned_pointer_as_index %[[CODES]]
// CHECK: call @modelrt_conv2d_forward_bias_max_pool2d(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c8_i64, %c6_i64, %c4_i64, %c3_i64, %c3_i64, %c8_i64, %c6_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK-NOT: call @modelrt_max_pool2d_forward
// CHECK: call @modelrt_max_pool2d_backward_codes(
// CHECK: memref.dealloc %[[CODES]]
func.func @train(%x: memref<?x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %p: memref<?x4x4x3xf32>, %dp: memref<?x4x4x3xf32>, %dy: memref<?x4x8x6xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x1x8x6xf32>
  %y = memref.alloc(%n) : memref<?x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<?x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<?x4x8x6xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<?x4x8x6xf32>, memref<?x4x4x3xf32>
  mdl.lib_max_pool2d_grad %dp, %y, %dy {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<?x4x4x3xf32>, memref<?x4x8x6xf32>, memref<?x4x8x6xf32>
  memref.dealloc %y : memref<?x4x8x6xf32>
  return
}

// Evaluation: no gradient, so no codes: a null pointer in their place. An
// op between the two that does not write x, w or b changes nothing.
// CHECK-LABEL: func.func @eval(
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: call @modelrt_conv2d_forward_bias_max_pool2d(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]], %c2_i64,
// CHECK-NOT: call @modelrt_max_pool2d
// CHECK: return
func.func @eval(%x: memref<2x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %p: memref<2x4x4x3xf32>, %q: memref<2x4x4x3xf32>) {
  %y = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  memref.copy %p, %q : memref<2x4x4x3xf32> to memref<2x4x4x3xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  memref.dealloc %y : memref<2x4x8x6xf32>
  return
}

// Another reader of y (an average pooling, a copy): two calls each.
// CHECK-LABEL: func.func @other_reader(
// CHECK: call @modelrt_conv2d_forward_bias(
// CHECK: call @modelrt_max_pool2d_forward(
// CHECK: call @modelrt_avg_pool2d_forward(
// CHECK: call @modelrt_conv2d_forward_bias(
// CHECK: call @modelrt_max_pool2d_forward(
// CHECK-NOT: call @modelrt_conv2d_forward_bias_max_pool2d(
// CHECK: return
func.func @other_reader(%x: memref<2x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %p: memref<2x4x4x3xf32>, %a: memref<2x4x4x3xf32>, %dy: memref<2x4x8x6xf32>) {
  %y = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  mdl.lib_avg_pool2d %y, %a {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %z = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %z {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  mdl.lib_max_pool2d %z, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  memref.copy %z, %dy : memref<2x4x8x6xf32> to memref<2x4x8x6xf32>
  return
}

// An op between the two that may write the image, the weights (through a
// view) or the bias, or free the image: the convolution must run where it
// stands.
// CHECK-LABEL: func.func @inputs_written(
// CHECK-COUNT-4: call @modelrt_conv2d_forward_bias(
// CHECK-NOT: call @modelrt_conv2d_forward_bias_max_pool2d(
// CHECK: return
func.func @inputs_written(%x: memref<2x1x8x6xf32>, %x2: memref<2x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %b2: memref<4xf32>, %p: memref<2x4x4x3xf32>) {
  %y = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  memref.copy %x2, %x : memref<2x1x8x6xf32> to memref<2x1x8x6xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %y2 = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %y2 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  %v = memref.collapse_shape %w [[0, 1], [2], [3]] : memref<4x1x3x3xf32> into memref<4x3x3xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %v[%c0, %c0, %c0] : memref<4x3x3xf32>
  mdl.lib_max_pool2d %y2, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %y3 = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %y3 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  memref.copy %b2, %b : memref<4xf32> to memref<4xf32>
  mdl.lib_max_pool2d %y3, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %x3 = memref.alloc() : memref<2x1x8x6xf32>
  memref.copy %x2, %x3 : memref<2x1x8x6xf32> to memref<2x1x8x6xf32>
  %y4 = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x3, %w, %b, %y4 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  memref.dealloc %x3 : memref<2x1x8x6xf32>
  mdl.lib_max_pool2d %y4, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  return
}

// y not a dense allocation (a function argument, which a caller may read),
// a pooling other than 2x2 / 2, a gradient that reads y itself (a write
// to y between the pooling and it leaves it without codes), a pooling in
// another block than the convolution: two calls.
// CHECK-LABEL: func.func @not_paired(
// CHECK: call @modelrt_conv2d_forward_bias(
// CHECK: call @modelrt_max_pool2d_forward(
// CHECK: call @modelrt_conv2d_forward_bias(
// CHECK: call @modelrt_max_pool2d_forward(
// CHECK: call @modelrt_conv2d_forward_bias(
// CHECK: call @modelrt_max_pool2d_forward(
// CHECK: call @modelrt_max_pool2d_backward(
// CHECK: call @modelrt_conv2d_forward_bias(
// CHECK: scf.if
// CHECK: call @modelrt_max_pool2d_forward(
// CHECK-NOT: call @modelrt_conv2d_forward_bias_max_pool2d(
// CHECK: return
func.func @not_paired(%x: memref<2x1x8x6xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %y: memref<2x4x8x6xf32>, %p: memref<2x4x4x3xf32>, %t: i1) {
  mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  mdl.lib_max_pool2d %y, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %z = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %z {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  mdl.lib_max_pool2d %z, %p {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %g = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %g {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  mdl.lib_max_pool2d %g, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %g[%c0, %c0, %c0, %c0] : memref<2x4x8x6xf32>
  mdl.lib_max_pool2d_grad %p, %g, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x4x3xf32>, memref<2x4x8x6xf32>, memref<2x4x8x6xf32>
  %r = memref.alloc() : memref<2x4x8x6xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %r {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : memref<2x1x8x6xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x8x6xf32>
  scf.if %t {
    mdl.lib_max_pool2d %r, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x4x8x6xf32>, memref<2x4x4x3xf32>
  }
  return
}
