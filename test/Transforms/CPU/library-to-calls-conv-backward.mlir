// RUN: modelc-opt %s --modelc-library-to-calls --canonicalize | FileCheck %s
// modelc-library-to-calls on the CPU: a lib_conv2d_grad_input and the
// lib_conv2d_grad_weight after it on the same memref of dy, with the same
// window, shapes and precision, become one call at the weight gradient,
// modelrt_conv2d_backward(dy, x, w, dx, dw, the convolution's sizes), so
// that the runtime reorders dy once for both. An op between them that may
// write or free dy or w, or read, write or free dx, keeps the two calls.

// CHECK-DAG: func.func private @modelrt_conv2d_backward(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

// The pair, with an op between them that touches none of those buffers.
// CHECK-LABEL: func.func @paired(
// CHECK-SAME: %[[DY:[a-z0-9]+]]: memref<?x4x4x3xf32>, %[[W:[a-z0-9]+]]: memref<4x2x3x3xf32>, %[[DX:[a-z0-9]+]]: memref<?x2x7x5xf32>, %[[X:[a-z0-9]+]]: memref<?x2x7x5xf32>, %[[DW:[a-z0-9]+]]: memref<4x2x3x3xf32>
// CHECK: memref.copy
// CHECK-NOT: call @modelrt_conv2d_backward_
// CHECK: memref.extract_aligned_pointer_as_index %[[DY]]
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: memref.extract_aligned_pointer_as_index %[[DX]]
// CHECK: memref.extract_aligned_pointer_as_index %[[DW]]
// CHECK: call @modelrt_conv2d_backward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK-NOT: call @modelrt_conv2d_backward_
// CHECK: return
func.func @paired(%dy: memref<?x4x4x3xf32>, %w: memref<4x2x3x3xf32>, %dx: memref<?x2x7x5xf32>, %x: memref<?x2x7x5xf32>, %dw: memref<4x2x3x3xf32>, %a: memref<8xf32>, %b: memref<8xf32>) {
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x4x4x3xf32>, memref<4x2x3x3xf32>, memref<?x2x7x5xf32>
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x2x7x5xf32>, memref<?x4x4x3xf32>, memref<4x2x3x3xf32>
  return
}

// An op between them that writes dy, writes w, reads dx, or frees dx: two
// calls each.
// CHECK-LABEL: func.func @blocked(
// CHECK-COUNT-4: call @modelrt_conv2d_backward_data(
// CHECK-NOT: call @modelrt_conv2d_backward(
// CHECK: return
func.func @blocked(%dy: memref<2x4x4x3xf32>, %w: memref<4x2x3x3xf32>, %dx: memref<2x2x7x5xf32>, %x: memref<2x2x7x5xf32>, %dw: memref<4x2x3x3xf32>, %other: memref<2x4x4x3xf32>, %w2: memref<4x2x3x3xf32>, %x2: memref<2x2x7x5xf32>) {
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  memref.copy %other, %dy : memref<2x4x4x3xf32> to memref<2x4x4x3xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  memref.copy %w2, %w : memref<4x2x3x3xf32> to memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  memref.copy %dx, %x2 : memref<2x2x7x5xf32> to memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  %d = memref.alloc() : memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %d {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  memref.dealloc %d : memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  return
}

// Not the gradients of one convolution: another dy, another stride, a
// weight gradient before the input gradient, other precisions (a first
// layer's weight gradient tagged f32): two calls each.
// CHECK-LABEL: func.func @not_paired(
// CHECK-NOT: call @modelrt_conv2d_backward(
// CHECK: return
func.func @not_paired(%dy: memref<2x4x4x3xf32>, %dy2: memref<2x4x4x3xf32>, %w: memref<4x2x3x3xf32>, %dx: memref<2x2x7x5xf32>, %x: memref<2x2x7x5xf32>, %dw: memref<4x2x3x3xf32>) {
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_input %dy2, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_input %dy2, %w, %dx {mdl.precision = "bf16", stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {mdl.precision = "f32", stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  return
}
