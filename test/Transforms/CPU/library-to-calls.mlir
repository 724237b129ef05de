// RUN: modelc-opt %s --modelc-library-to-calls --canonicalize | FileCheck %s
// modelc-library-to-calls: each library op on memrefs becomes one call of
// the runtime: the element pointers of its operands (the destination
// last), then the sizes as i64 (N from the batch, the rest constants):
// convolutions N, C, H, W, O, KH, KW, OH, OW, stride, padding, dilation;
// pooling N, C, H, W, OH, OW, KH, KW, stride, padding; the embedding
// gradient S, D, N, by its indices' width; attention B, H, Tq, Tk, D and
// causal; attention's decoding step B, H, the caches' rows, D, after the
// position's pointer (an i64, by its element size).

// CHECK-DAG: func.func private @modelrt_conv2d_forward(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_conv2d_forward_bias(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_conv2d_backward_data(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_conv2d_backward_weights(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_max_pool2d_forward(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_max_pool2d_backward(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_max_pool2d_forward_codes(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_max_pool2d_backward_codes(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_avg_pool2d_forward(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_avg_pool2d_backward(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_embedding_backward_i64(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_embedding_backward_i32(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_attention_forward(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_attention_decode(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_attention_backward(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64)

// The three convolutions on a 1 -> 4 channel 3x3 window, stride 2, padding
// 1, dilation 1, over a dynamic batch: pointers of (x, w, y), (x, dy, dw),
// (dy, w, dx). (An input gradient followed by the weight gradient on its
// dy is one call: library-to-calls-conv-backward.mlir.)
// CHECK-LABEL: func.func @convs(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x1x7x5xf32>, %[[W:[a-z0-9]+]]: memref<4x1x3x3xf32>, %[[Y:[a-z0-9]+]]: memref<?x4x4x3xf32>, %[[DX:[a-z0-9]+]]: memref<?x1x7x5xf32>, %[[DW:[a-z0-9]+]]: memref<4x1x3x3xf32>
// CHECK: %[[PX:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[PW:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[PY:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: call @modelrt_conv2d_forward(%[[PX]], %[[PW]], %[[PY]], %[[N]], %c1_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK: call @modelrt_conv2d_backward_weights(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK: call @modelrt_conv2d_backward_data(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK-NOT: mdl.lib_
func.func @convs(%x: memref<?x1x7x5xf32>, %w: memref<4x1x3x3xf32>, %y: memref<?x4x4x3xf32>, %dx: memref<?x1x7x5xf32>, %dw: memref<4x1x3x3xf32>) {
  mdl.lib_conv2d %x, %w, %y {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<4x1x3x3xf32>, memref<?x4x4x3xf32>
  mdl.lib_conv2d_grad_weight %x, %y, %dw {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<?x4x4x3xf32>, memref<4x1x3x3xf32>
  mdl.lib_conv2d_grad_input %y, %w, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x4x4x3xf32>, memref<4x1x3x3xf32>, memref<?x1x7x5xf32>
  return
}

// A convolution with a bias: the pointers of (x, w, bias, y), then the
// sizes as above.
// CHECK-LABEL: func.func @conv_bias(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x1x7x5xf32>, %[[W:[a-z0-9]+]]: memref<4x1x3x3xf32>, %[[B:[a-z0-9]+]]: memref<4xf32>, %[[Y:[a-z0-9]+]]: memref<?x4x4x3xf32>
// CHECK: %[[PX:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[PW:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[PB:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[PY:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: call @modelrt_conv2d_forward_bias(%[[PX]], %[[PW]], %[[PB]], %[[PY]], %[[N]], %c1_i64, %c7_i64, %c5_i64, %c4_i64, %c3_i64, %c3_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64)
// CHECK-NOT: mdl.lib_
func.func @conv_bias(%x: memref<?x1x7x5xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %y: memref<?x4x4x3xf32>) {
  mdl.lib_conv2d_bias %x, %w, %b, %y {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<?x1x7x5xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<?x4x4x3xf32>
  return
}

// The four pooling ops, 2x2 windows with stride 2 on a static batch of 2:
// (x, y), (dy, x, dx), (x, y), (dy, dx). The max pooling's gradient reads
// another buffer of x than the pooling, so they keep their own calls.
// CHECK-LABEL: func.func @pools(
// CHECK: call @modelrt_max_pool2d_forward(%{{.*}}, %{{.*}}, %c2_i64, %c8_i64, %c7_i64, %c5_i64, %c3_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64)
// CHECK: call @modelrt_max_pool2d_backward(%{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c8_i64, %c7_i64, %c5_i64, %c3_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64)
// CHECK: call @modelrt_avg_pool2d_forward(%{{.*}}, %{{.*}}, %c2_i64, %c8_i64, %c7_i64, %c5_i64, %c3_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64)
// CHECK: call @modelrt_avg_pool2d_backward(%{{.*}}, %{{.*}}, %c2_i64, %c8_i64, %c7_i64, %c5_i64, %c3_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64)
func.func @pools(%x: memref<2x8x7x5xf32>, %x2: memref<2x8x7x5xf32>, %y: memref<2x8x3x2xf32>, %dx: memref<2x8x7x5xf32>) {
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x7x5xf32>, memref<2x8x3x2xf32>
  mdl.lib_max_pool2d_grad %y, %x2, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x3x2xf32>, memref<2x8x7x5xf32>, memref<2x8x7x5xf32>
  mdl.lib_avg_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x7x5xf32>, memref<2x8x3x2xf32>
  mdl.lib_avg_pool2d_grad %y, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x3x2xf32>, memref<2x8x7x5xf32>
  return
}

// A 2x2 / 2 max pooling and its gradient later in the block, on the same
// buffer of x: the pooling also writes each window's arg-max into a fresh
// i8 buffer of y's shape (its batch from y), (x, y, codes); the gradient
// reads it in x's place, (dy, codes, dx); the buffer is freed after the
// gradient. Another op between them changes nothing.
// CHECK-LABEL: func.func @pool_codes(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x8x6x4xf32>, %[[Y:[a-z0-9]+]]: memref<?x8x3x2xf32>
// CHECK: %[[N:.*]] = memref.dim %[[Y]], %c0 : memref<?x8x3x2xf32>
// CHECK: %[[CODES:.*]] = memref.alloc(%[[N]]) : memref<?x8x3x2xi8>
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: memref.extract_aligned_pointer_as_index %[[CODES]]
// CHECK: call @modelrt_max_pool2d_forward_codes(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c8_i64, %c6_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64)
// CHECK: call @modelrt_avg_pool2d_forward(
// CHECK: memref.extract_aligned_pointer_as_index %[[CODES]]
// CHECK: call @modelrt_max_pool2d_backward_codes(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c8_i64, %c6_i64, %c4_i64, %c3_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64)
// CHECK-NEXT: memref.dealloc %[[CODES]]
func.func @pool_codes(%x: memref<?x8x6x4xf32>, %y: memref<?x8x3x2xf32>, %dy: memref<?x8x3x2xf32>, %dx: memref<?x8x6x4xf32>) {
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<?x8x6x4xf32>, memref<?x8x3x2xf32>
  mdl.lib_avg_pool2d %x, %dy {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<?x8x6x4xf32>, memref<?x8x3x2xf32>
  mdl.lib_max_pool2d_grad %dy, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<?x8x3x2xf32>, memref<?x8x6x4xf32>, memref<?x8x6x4xf32>
  return
}

// No codes: a gradient before its pooling, other windows (3x3 / 2 padded,
// 1x1).
// CHECK-LABEL: func.func @no_codes(
// CHECK-NOT: _codes
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @no_codes(%x: memref<2x8x6x4xf32>, %y: memref<2x8x3x2xf32>, %dx: memref<2x8x6x4xf32>, %y3: memref<2x8x3x2xf32>, %y1: memref<2x8x6x4xf32>) {
  mdl.lib_max_pool2d_grad %y, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x3x2xf32>, memref<2x8x6x4xf32>, memref<2x8x6x4xf32>
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x6x4xf32>, memref<2x8x3x2xf32>
  mdl.lib_max_pool2d %x, %y3 {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x8x6x4xf32>, memref<2x8x3x2xf32>
  mdl.lib_max_pool2d_grad %y3, %x, %dx {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : memref<2x8x3x2xf32>, memref<2x8x6x4xf32>, memref<2x8x6x4xf32>
  mdl.lib_max_pool2d %x, %y1 {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>} : memref<2x8x6x4xf32>, memref<2x8x6x4xf32>
  mdl.lib_max_pool2d_grad %y1, %x, %dx {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>} : memref<2x8x6x4xf32>, memref<2x8x6x4xf32>, memref<2x8x6x4xf32>
  return
}

// No codes when an op between the pooling and its gradient may write x:
// a copy into x, a write through a view of x nested in a region, a call
// that takes a view of x (it declares no effects).
// CHECK-LABEL: func.func @x_written(
// CHECK-NOT: _codes
// CHECK: return
func.func private @opaque(memref<16x6x4xf32>)
func.func @x_written(%x: memref<2x8x6x4xf32>, %z: memref<2x8x6x4xf32>, %y: memref<2x8x3x2xf32>, %dx: memref<2x8x6x4xf32>) {
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x6x4xf32>, memref<2x8x3x2xf32>
  memref.copy %z, %x : memref<2x8x6x4xf32> to memref<2x8x6x4xf32>
  mdl.lib_max_pool2d_grad %y, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x3x2xf32>, memref<2x8x6x4xf32>, memref<2x8x6x4xf32>
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x6x4xf32>, memref<2x8x3x2xf32>
  scf.execute_region {
    %v = memref.collapse_shape %x [[0, 1], [2], [3]] : memref<2x8x6x4xf32> into memref<16x6x4xf32>
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %v[%c0, %c0, %c0] : memref<16x6x4xf32>
    scf.yield
  }
  mdl.lib_max_pool2d_grad %y, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x3x2xf32>, memref<2x8x6x4xf32>, memref<2x8x6x4xf32>
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x6x4xf32>, memref<2x8x3x2xf32>
  %w = memref.collapse_shape %x [[0, 1], [2], [3]] : memref<2x8x6x4xf32> into memref<16x6x4xf32>
  func.call @opaque(%w) : (memref<16x6x4xf32>) -> ()
  mdl.lib_max_pool2d_grad %y, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x3x2xf32>, memref<2x8x6x4xf32>, memref<2x8x6x4xf32>
  return
}

// Codes with a strided x: the pooling reads a dense copy of x, the
// gradient none (it reads the codes in x's place).
// CHECK-LABEL: func.func @strided_codes(
// CHECK-SAME: %[[SX:[a-z0-9]+]]: memref<2x8x6x4xf32, strided<[384, 48, 8, 1]>>
// CHECK: memref.copy %[[SX]]
// CHECK: call @modelrt_max_pool2d_forward_codes(
// CHECK-NOT: memref.copy %[[SX]]
// CHECK: call @modelrt_max_pool2d_backward_codes(
func.func @strided_codes(%x: memref<2x8x6x4xf32, strided<[384, 48, 8, 1]>>, %y: memref<2x8x3x2xf32>, %dy: memref<2x8x3x2xf32>, %dx: memref<2x8x6x4xf32>) {
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x6x4xf32, strided<[384, 48, 8, 1]>>, memref<2x8x3x2xf32>
  mdl.lib_max_pool2d_grad %dy, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x3x2xf32>, memref<2x8x6x4xf32, strided<[384, 48, 8, 1]>>, memref<2x8x6x4xf32>
  return
}

// Operands that are strided views are copied into dense buffers first, the
// destination back after the call, and the copies freed.
// CHECK-LABEL: func.func @strided(
// CHECK-SAME: %[[SX:[a-z0-9]+]]: memref<2x8x7x5xf32, strided<[560, 35, 5, 1], offset: 10>>, %[[SY:[a-z0-9]+]]: memref<2x8x3x2xf32, strided<[96, 6, 2, 1]>>
// CHECK: %[[DENSEX:.*]] = memref.alloc() : memref<2x8x7x5xf32>
// CHECK: memref.copy %[[SX]], %[[DENSEX]]
// CHECK: %[[DENSEY:.*]] = memref.alloc() : memref<2x8x3x2xf32>
// CHECK: call @modelrt_max_pool2d_forward(
// CHECK: memref.copy %[[DENSEY]], %[[SY]]
// CHECK: memref.dealloc %[[DENSEX]]
// CHECK: memref.dealloc %[[DENSEY]]
func.func @strided(%x: memref<2x8x7x5xf32, strided<[560, 35, 5, 1], offset: 10>>, %y: memref<2x8x3x2xf32, strided<[96, 6, 2, 1]>>) {
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x7x5xf32, strided<[560, 35, 5, 1], offset: 10>>, memref<2x8x3x2xf32, strided<[96, 6, 2, 1]>>
  return
}

// The embedding gradient: (indices, grad rows, table) with S from the
// gradient's rows, D = 16, N = 100; the callee follows the index type.
// CHECK-LABEL: func.func @embedding_grads(
// CHECK: %[[DIM:.*]] = memref.dim %arg2, %c0 : memref<?x16xf32>
// CHECK: %[[S:.*]] = arith.index_cast %[[DIM]] : index to i64
// CHECK: call @modelrt_embedding_backward_i64(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %c16_i64, %c100_i64)
// CHECK: call @modelrt_embedding_backward_i32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c16_i64, %c100_i64)
// CHECK-NOT: mdl.lib_
func.func @embedding_grads(%i: memref<?xi64>, %j: memref<?xi32>, %g: memref<?x16xf32>, %t: memref<100x16xf32>) {
  mdl.lib_embedding_grad %i, %g, %t : memref<?xi64>, memref<?x16xf32>, memref<100x16xf32>
  mdl.lib_embedding_grad %j, %g, %t : memref<?xi32>, memref<?x16xf32>, memref<100x16xf32>
  return
}

// Attention: (q, k, v, out) and (q, k, v, out, dout, dqkv), then batch,
// heads, queries, keys (from the key), width and causal.
// CHECK-LABEL: func.func @attention(
// CHECK: %[[B:.*]] = arith.index_cast %dim{{.*}} : index to i64
// CHECK: call @modelrt_attention_forward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[B]], %c2_i64, %c4_i64, %c6_i64, %c8_i64, %c1_i64)
// CHECK: call @modelrt_attention_backward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c4_i64, %c6_i64, %c8_i64, %c0_i64)
func.func @attention(%q: memref<?x2x4x8xf32>, %k: memref<?x2x6x8xf32>, %o: memref<?x2x4x8xf32>, %d: memref<?xf32>) {
  mdl.lib_attention %q, %k, %k, %o {causal = true} : memref<?x2x4x8xf32>, memref<?x2x6x8xf32>, memref<?x2x6x8xf32>, memref<?x2x4x8xf32>
  mdl.lib_attention_grad %q, %k, %k, %o, %o, %d : memref<?x2x4x8xf32>, memref<?x2x6x8xf32>, memref<?x2x6x8xf32>, memref<?x2x4x8xf32>, memref<?x2x4x8xf32>, memref<?xf32>
  return
}

// Packed attention: (qkv, out) and (qkv, out, dout, dqkv), then batch,
// heads, length, width (from qkv's BxTx3xHxD) and causal.
// CHECK-LABEL: func.func @attention_packed(
// CHECK: %[[B:.*]] = arith.index_cast %dim{{.*}} : index to i64
// CHECK: call @modelrt_attention_packed_forward(%{{.*}}, %{{.*}}, %[[B]], %c2_i64, %c4_i64, %c8_i64, %c1_i64) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64) -> ()
// CHECK: call @modelrt_attention_packed_backward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c4_i64, %c8_i64, %c0_i64)
// CHECK-NOT: mdl.lib_
func.func @attention_packed(%x: memref<?x4x3x2x8xf32>, %o: memref<?x4x2x8xf32>) {
  mdl.lib_attention_packed %x, %o {causal = true} : memref<?x4x3x2x8xf32>, memref<?x4x2x8xf32>
  mdl.lib_attention_packed_grad %x, %o, %o, %x : memref<?x4x3x2x8xf32>, memref<?x4x2x8xf32>, memref<?x4x2x8xf32>, memref<?x4x3x2x8xf32>
  return
}

// CHECK-LABEL: func.func @attention_decode(
// CHECK: memref.extract_aligned_pointer_as_index %arg2 : memref<i64>
// CHECK: %[[POS:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: call @modelrt_attention_decode(%{{.*}}, %{{.*}}, %{{.*}}, %[[POS]], %{{.*}}, %c1_i64, %c2_i64, %c6_i64, %c8_i64) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64) -> ()
func.func @attention_decode(%q: memref<1x2x1x8xf32>, %c: memref<1x2x6x8xf32>, %pos: memref<i64>, %o: memref<1x2x1x8xf32>) {
  mdl.lib_attention_decode %q, %c, %c, %pos, %o : memref<1x2x1x8xf32>, memref<1x2x6x8xf32>, memref<1x2x6x8xf32>, memref<i64>, memref<1x2x1x8xf32>
  return
}
