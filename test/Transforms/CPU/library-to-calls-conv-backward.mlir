// RUN: modelc-opt %s --modelc-library-to-calls --canonicalize | FileCheck %s
// modelc-library-to-calls on the CPU: a lib_conv2d_grad_input and the
// lib_conv2d_grad_weight after it on the same memref of dy, with the same
// window, shapes and precision, become one call at the weight gradient,
// modelrt_conv2d_backward(dy, x, w, dx, dw, the convolution's sizes), so
// that the runtime reorders dy once for both. An op between them that may
// write or free dy or w, or read, write or free dx, keeps the two calls.

// CHECK-DAG: func.func private @modelrt_conv2d_backward(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

// The pair, with an op between them that touches none of those buffers;
// dx is an allocation of its own, copied out after both.
// CHECK-LABEL: func.func @paired(
// CHECK-SAME: %[[DY:[a-z0-9]+]]: memref<?x4x4x3xf32>, %[[W:[a-z0-9]+]]: memref<4x2x3x3xf32>, %[[X:[a-z0-9]+]]: memref<?x2x7x5xf32>, %[[DW:[a-z0-9]+]]: memref<4x2x3x3xf32>
// CHECK: %[[DX:.*]] = memref.alloc(%{{.*}}) : memref<?x2x7x5xf32>
// CHECK: memref.copy
// CHECK-NOT: call @modelrt_conv2d_backward_
// CHECK: memref.extract_aligned_pointer_as_index %[[DY]]
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: memref.extract_aligned_pointer_as_index %[[DX]]
// CHECK: memref.extract_aligned_pointer_as_index %[[DW]]
// CHECK: call @modelrt_conv2d_backward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK-NOT: call @modelrt_conv2d_backward_
// CHECK: memref.copy %[[DX]]
// CHECK: return
func.func @paired(%dy: memref<?x4x4x3xf32>, %w: memref<4x2x3x3xf32>, %x: memref<?x2x7x5xf32>, %dw: memref<4x2x3x3xf32>, %a: memref<8xf32>, %b: memref<8xf32>, %out: memref<?x2x7x5xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x2x7x5xf32>
  %dx = memref.alloc(%n) : memref<?x2x7x5xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x4x4x3xf32>, memref<4x2x3x3xf32>, memref<?x2x7x5xf32>
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x2x7x5xf32>, memref<?x4x4x3xf32>, memref<4x2x3x3xf32>
  memref.copy %dx, %out : memref<?x2x7x5xf32> to memref<?x2x7x5xf32>
  return
}

// Strided dx and dw (views of larger allocations): dense buffers for the
// call, copied back after it.
// CHECK-LABEL: func.func @strided(
// CHECK: %[[DDX:.*]] = memref.alloc() : memref<2x2x7x5xf32>
// CHECK: %[[DDW:.*]] = memref.alloc() : memref<4x2x3x3xf32>
// CHECK: call @modelrt_conv2d_backward(
// CHECK: memref.copy %[[DDX]], %{{.*}} : memref<2x2x7x5xf32> to memref<2x2x7x5xf32, strided<
// CHECK: memref.dealloc %[[DDX]]
// CHECK: memref.copy %[[DDW]], %{{.*}} : memref<4x2x3x3xf32> to memref<4x2x3x3xf32, strided<
// CHECK: memref.dealloc %[[DDW]]
func.func @strided(%dy: memref<2x4x4x3xf32>, %w: memref<4x2x3x3xf32>, %x: memref<2x2x7x5xf32>) {
  %bigx = memref.alloc() : memref<2x2x7x6xf32>
  %dx = memref.subview %bigx[0, 0, 0, 0] [2, 2, 7, 5] [1, 1, 1, 1] : memref<2x2x7x6xf32> to memref<2x2x7x5xf32, strided<[84, 42, 6, 1]>>
  %bigw = memref.alloc() : memref<8x2x3x3xf32>
  %dw = memref.subview %bigw[4, 0, 0, 0] [4, 2, 3, 3] [1, 1, 1, 1] : memref<8x2x3x3xf32> to memref<4x2x3x3xf32, strided<[18, 9, 3, 1], offset: 72>>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32, strided<[84, 42, 6, 1]>>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32, strided<[18, 9, 3, 1], offset: 72>>
  return
}

// An op between them that writes dy, writes w, reads dx, frees dx, writes
// a view of dy, passes dx to a call (which declares no effects) or reads
// dx in a region: two calls each.
// CHECK-LABEL: func.func @blocked(
// CHECK-COUNT-7: call @modelrt_conv2d_backward_data(
// CHECK-NOT: call @modelrt_conv2d_backward(
// CHECK: return
func.func private @opaque(memref<2x2x7x5xf32>)
func.func @blocked(%dy: memref<2x4x4x3xf32>, %w: memref<4x2x3x3xf32>, %x: memref<2x2x7x5xf32>, %dw: memref<4x2x3x3xf32>, %other: memref<2x4x4x3xf32>, %w2: memref<4x2x3x3xf32>, %x2: memref<2x2x7x5xf32>, %t: i1) {
  %dx = memref.alloc() : memref<2x2x7x5xf32>
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
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  %row = memref.subview %dy[0, 0, 0, 0] [1, 4, 4, 3] [1, 1, 1, 1] : memref<2x4x4x3xf32> to memref<1x4x4x3xf32, strided<[48, 12, 3, 1]>>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %row[%c0, %c0, %c0, %c0] : memref<1x4x4x3xf32, strided<[48, 12, 3, 1]>>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  func.call @opaque(%dx) : (memref<2x2x7x5xf32>) -> ()
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  scf.if %t {
    %v = memref.load %dx[%c0, %c0, %c0, %c0] : memref<2x2x7x5xf32>
    memref.store %v, %x2[%c0, %c0, %c0, %c0] : memref<2x2x7x5xf32>
  }
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  return
}

// dx not a buffer of its own: a function argument (a caller may alias
// it), an allocation a select hands on (%e, read between the two), a view
// of the same allocation as dy: two calls each.
// CHECK-LABEL: func.func @shared_dx(
// CHECK-COUNT-3: call @modelrt_conv2d_backward_data(
// CHECK-NOT: call @modelrt_conv2d_backward(
// CHECK: return
func.func @shared_dx(%dy: memref<2x4x4x3xf32>, %w: memref<4x2x3x3xf32>, %x: memref<2x2x7x5xf32>, %dw: memref<4x2x3x3xf32>, %dxa: memref<2x2x7x5xf32>, %o: memref<2x2x7x5xf32>, %s: i1, %out: memref<f32>) {
  mdl.lib_conv2d_grad_input %dy, %w, %dxa {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  %dx = memref.alloc() : memref<2x2x7x5xf32>
  %e = arith.select %s, %dx, %o : memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %e[%c0, %c0, %c0, %c0] : memref<2x2x7x5xf32>
  memref.store %v, %out[] : memref<f32>
  mdl.lib_conv2d_grad_weight %x, %dy, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  %buf = memref.alloc() : memref<960xi8>
  %dy2 = memref.view %buf[%c0][] : memref<960xi8> to memref<2x4x4x3xf32>
  %c384 = arith.constant 384 : index
  %dx2 = memref.view %buf[%c384][] : memref<960xi8> to memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_input %dy2, %w, %dx2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  return
}

// Not the gradients of one convolution (dx allocated, as in @paired):
// another dy, a weight gradient before the input gradient, other
// precisions (a first layer's weight gradient tagged f32), another stride,
// padding or dilation alone (sizes where each gives the same output
// size): two calls each.
// CHECK-LABEL: func.func @not_paired(
// CHECK-NOT: call @modelrt_conv2d_backward(
// CHECK: return
func.func @not_paired(%dy: memref<2x4x4x3xf32>, %dy2: memref<2x4x4x3xf32>, %w: memref<4x2x3x3xf32>, %x: memref<2x2x7x5xf32>, %dw: memref<4x2x3x3xf32>, %ys: memref<2x4x2x2xf32>, %xs: memref<2x2x6x6xf32>, %xe: memref<2x2x8x8xf32>) {
  %dx = memref.alloc() : memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_input %dy, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_input %dy2, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_input %dy2, %w, %dx {mdl.precision = "bf16", stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x4x4x3xf32>, memref<4x2x3x3xf32>, memref<2x2x7x5xf32>
  mdl.lib_conv2d_grad_weight %x, %dy2, %dw {mdl.precision = "f32", stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x2x7x5xf32>, memref<2x4x4x3xf32>, memref<4x2x3x3xf32>
  %dxs = memref.alloc() : memref<2x2x6x6xf32>
  mdl.lib_conv2d_grad_input %ys, %w, %dxs {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>} : memref<2x4x2x2xf32>, memref<4x2x3x3xf32>, memref<2x2x6x6xf32>
  mdl.lib_conv2d_grad_weight %xs, %ys, %dw {stride = array<i64: 4, 4>, padding = array<i64: 1, 1>} : memref<2x2x6x6xf32>, memref<2x4x2x2xf32>, memref<4x2x3x3xf32>
  %dxe = memref.alloc() : memref<2x2x8x8xf32>
  mdl.lib_conv2d_grad_input %ys, %w, %dxe {stride = array<i64: 4, 4>, padding = array<i64: 0, 0>} : memref<2x4x2x2xf32>, memref<4x2x3x3xf32>, memref<2x2x8x8xf32>
  mdl.lib_conv2d_grad_weight %xe, %ys, %dw {stride = array<i64: 4, 4>, padding = array<i64: 1, 1>} : memref<2x2x8x8xf32>, memref<2x4x2x2xf32>, memref<4x2x3x3xf32>
  mdl.lib_conv2d_grad_input %ys, %w, %dxe {stride = array<i64: 4, 4>, padding = array<i64: 1, 1>} : memref<2x4x2x2xf32>, memref<4x2x3x3xf32>, memref<2x2x8x8xf32>
  mdl.lib_conv2d_grad_weight %xe, %ys, %dw {stride = array<i64: 4, 4>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>} : memref<2x2x8x8xf32>, memref<2x4x2x2xf32>, memref<4x2x3x3xf32>
  return
}
