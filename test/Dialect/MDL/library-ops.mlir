// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// The destination-style library ops parse and print, on tensors (with a
// result of init's type) and on memrefs (no result); default window
// attributes (stride 1 here) are elided.

// CHECK-LABEL: func.func @convs
// CHECK: mdl.lib_conv2d %arg0, %arg1, %arg2 {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
// CHECK: mdl.lib_conv2d_grad_input %{{.*}}, %arg1, %arg0 {padding = array<i64: 1, 1>} : tensor<?x32x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x1x28x28xf32> -> tensor<?x1x28x28xf32>
// CHECK: mdl.lib_conv2d_grad_weight %arg0, %{{.*}}, %arg1 {dilation = array<i64: 2, 2>, padding = array<i64: 2, 2>} : tensor<?x1x28x28xf32>, tensor<?x32x28x28xf32>, tensor<32x1x3x3xf32> -> tensor<32x1x3x3xf32>
func.func @convs(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %init: tensor<?x32x28x28xf32>) -> (tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>) {
  %y = mdl.lib_conv2d %x, %w, %init {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
  %dx = mdl.lib_conv2d_grad_input %y, %w, %x {padding = array<i64: 1, 1>} : tensor<?x32x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x1x28x28xf32> -> tensor<?x1x28x28xf32>
  %dw = mdl.lib_conv2d_grad_weight %x, %y, %w {padding = array<i64: 2, 2>, dilation = array<i64: 2, 2>, stride = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<?x32x28x28xf32>, tensor<32x1x3x3xf32> -> tensor<32x1x3x3xf32>
  return %dx, %dw : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>
}

// With a bias per output channel (before init).
// CHECK-LABEL: func.func @conv_bias
// CHECK: mdl.lib_conv2d_bias %arg0, %arg1, %arg2, %arg3 {stride = array<i64: 2, 2>} : tensor<?x3x9x9xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<?x8x4x4xf32> -> tensor<?x8x4x4xf32>
func.func @conv_bias(%x: tensor<?x3x9x9xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %init: tensor<?x8x4x4xf32>) -> tensor<?x8x4x4xf32> {
  %y = mdl.lib_conv2d_bias %x, %w, %b, %init {stride = array<i64: 2, 2>} : tensor<?x3x9x9xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<?x8x4x4xf32> -> tensor<?x8x4x4xf32>
  return %y : tensor<?x8x4x4xf32>
}

// CHECK-LABEL: func.func @pools
// CHECK: mdl.lib_max_pool2d %arg0, %arg1 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x7x5xf32>, tensor<?x8x3x2xf32> -> tensor<?x8x3x2xf32>
// CHECK: mdl.lib_avg_pool2d %arg0, %arg2 {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x8x7x5xf32>, tensor<?x8x4x3xf32> -> tensor<?x8x4x3xf32>
// CHECK: mdl.lib_max_pool2d_grad %{{.*}}, %arg0, %arg0 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x3x2xf32>, tensor<?x8x7x5xf32>, tensor<?x8x7x5xf32> -> tensor<?x8x7x5xf32>
// CHECK: mdl.lib_avg_pool2d_grad %{{.*}}, %arg0 {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x8x4x3xf32>, tensor<?x8x7x5xf32> -> tensor<?x8x7x5xf32>
func.func @pools(%x: tensor<?x8x7x5xf32>, %init: tensor<?x8x3x2xf32>, %init2: tensor<?x8x4x3xf32>) -> (tensor<?x8x7x5xf32>, tensor<?x8x7x5xf32>) {
  %m = mdl.lib_max_pool2d %x, %init {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x7x5xf32>, tensor<?x8x3x2xf32> -> tensor<?x8x3x2xf32>
  %a = mdl.lib_avg_pool2d %x, %init2 {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x7x5xf32>, tensor<?x8x4x3xf32> -> tensor<?x8x4x3xf32>
  %dm = mdl.lib_max_pool2d_grad %m, %x, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x3x2xf32>, tensor<?x8x7x5xf32>, tensor<?x8x7x5xf32> -> tensor<?x8x7x5xf32>
  %da = mdl.lib_avg_pool2d_grad %a, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x4x3xf32>, tensor<?x8x7x5xf32> -> tensor<?x8x7x5xf32>
  return %dm, %da : tensor<?x8x7x5xf32>, tensor<?x8x7x5xf32>
}

// CHECK-LABEL: func.func @on_memrefs
// CHECK: mdl.lib_conv2d %arg0, %arg1, %arg2 : memref<2x1x5x5xf32>, memref<4x1x3x3xf32>, memref<2x4x3x3xf32>{{$}}
// CHECK: mdl.lib_conv2d_bias %arg0, %arg1, %arg5, %arg2 : memref<2x1x5x5xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x3x3xf32>{{$}}
// CHECK: mdl.lib_max_pool2d_grad %arg3, %arg0, %arg4 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x1x2x2xf32>, memref<2x1x5x5xf32>, memref<2x1x5x5xf32>{{$}}
func.func @on_memrefs(%x: memref<2x1x5x5xf32>, %w: memref<4x1x3x3xf32>, %y: memref<2x4x3x3xf32>, %g: memref<2x1x2x2xf32>, %dx: memref<2x1x5x5xf32>, %b: memref<4xf32>) {
  mdl.lib_conv2d %x, %w, %y : memref<2x1x5x5xf32>, memref<4x1x3x3xf32>, memref<2x4x3x3xf32>
  mdl.lib_conv2d_bias %x, %w, %b, %y : memref<2x1x5x5xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x3x3xf32>
  mdl.lib_max_pool2d_grad %g, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x1x2x2xf32>, memref<2x1x5x5xf32>, memref<2x1x5x5xf32>
  return
}

// Unused on tensors, a library op has no effect and goes away.
// RUN: modelc-opt %s --canonicalize | FileCheck %s --check-prefix=DEAD
// DEAD-LABEL: func.func @dead
// DEAD-NOT: mdl.lib_
// DEAD: return
func.func @dead(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %init: tensor<?x32x28x28xf32>) {
  %y = mdl.lib_conv2d %x, %w, %init {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
  return
}

// The embedding gradient: indices (i64 or i32), gradient rows, the table.
// CHECK-LABEL: func.func @embedding_grad
// CHECK: mdl.lib_embedding_grad %arg0, %arg1, %arg2 : tensor<?xi64>, tensor<?x16xf32>, tensor<100x16xf32> -> tensor<100x16xf32>
// CHECK: mdl.lib_embedding_grad %arg3, %arg4, %arg5 : memref<?xi32>, memref<?x16xf32>, memref<100x16xf32>
func.func @embedding_grad(%i: tensor<?xi64>, %g: tensor<?x16xf32>, %t: tensor<100x16xf32>, %mi: memref<?xi32>, %mg: memref<?x16xf32>, %mt: memref<100x16xf32>) -> tensor<100x16xf32> {
  %0 = mdl.lib_embedding_grad %i, %g, %t : tensor<?xi64>, tensor<?x16xf32>, tensor<100x16xf32> -> tensor<100x16xf32>
  mdl.lib_embedding_grad %mi, %mg, %mt : memref<?xi32>, memref<?x16xf32>, memref<100x16xf32>
  return %0 : tensor<100x16xf32>
}

// Attention into its output, and its adjoint into one flat buffer of
// B*H*(Tq + 2*Tk)*D values (here 2*(8 + 16)*16 = 768 per sample).
// CHECK-LABEL: func.func @attention
// CHECK: mdl.lib_attention %arg0, %arg0, %arg0, %arg1 {causal = true} : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32> -> tensor<?x2x8x16xf32>
// CHECK: mdl.lib_attention_grad %arg0, %arg0, %arg0, %{{.*}}, %arg1, %arg2 : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?xf32> -> tensor<?xf32>
func.func @attention(%q: tensor<?x2x8x16xf32>, %init: tensor<?x2x8x16xf32>, %flat: tensor<?xf32>) -> tensor<?xf32> {
  %o = mdl.lib_attention %q, %q, %q, %init {causal = true} : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32> -> tensor<?x2x8x16xf32>
  %d = mdl.lib_attention_grad %q, %q, %q, %o, %init, %flat : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?xf32> -> tensor<?xf32>
  return %d : tensor<?xf32>
}

// One decoding step of attention: a query over 8-row caches at a run-time
// position, on tensors and on memrefs.
// CHECK-LABEL: func.func @attention_decode
// CHECK: mdl.lib_attention_decode %arg0, %arg1, %arg1, %arg2, %arg3 : tensor<1x2x1x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<i64>, tensor<1x2x1x16xf32> -> tensor<1x2x1x16xf32>
// CHECK: mdl.lib_attention_decode %arg4, %arg5, %arg5, %arg6, %arg4 : memref<1x2x1x16xf32>, memref<1x2x8x16xf32>, memref<1x2x8x16xf32>, memref<i64>, memref<1x2x1x16xf32>
func.func @attention_decode(%q: tensor<1x2x1x16xf32>, %c: tensor<1x2x8x16xf32>, %pos: tensor<i64>, %init: tensor<1x2x1x16xf32>,
                            %mq: memref<1x2x1x16xf32>, %mc: memref<1x2x8x16xf32>, %mpos: memref<i64>) -> tensor<1x2x1x16xf32> {
  %o = mdl.lib_attention_decode %q, %c, %c, %pos, %init : tensor<1x2x1x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<i64>, tensor<1x2x1x16xf32> -> tensor<1x2x1x16xf32>
  mdl.lib_attention_decode %mq, %mc, %mc, %mpos, %mq : memref<1x2x1x16xf32>, memref<1x2x8x16xf32>, memref<1x2x8x16xf32>, memref<i64>, memref<1x2x1x16xf32>
  return %o : tensor<1x2x1x16xf32>
}

// Packed self-attention: qkv BxTx3xHxD into a BxTxHxD output, and its
// adjoint into a destination laid out as qkv; on tensors and on memrefs.
// CHECK-LABEL: func.func @attention_packed
// CHECK: mdl.lib_attention_packed %arg0, %arg1 {causal = true} : tensor<?x8x3x2x16xf32>, tensor<?x8x2x16xf32> -> tensor<?x8x2x16xf32>
// CHECK: mdl.lib_attention_packed_grad %arg0, %{{.*}}, %arg1, %arg2 {causal = true} : tensor<?x8x3x2x16xf32>, tensor<?x8x2x16xf32>, tensor<?x8x2x16xf32>, tensor<?x8x3x2x16xf32> -> tensor<?x8x3x2x16xf32>
// CHECK: mdl.lib_attention_packed_grad %arg3, %arg4, %arg4, %arg3 : memref<2x8x3x2x16xf32>, memref<2x8x2x16xf32>, memref<2x8x2x16xf32>, memref<2x8x3x2x16xf32>
func.func @attention_packed(%x: tensor<?x8x3x2x16xf32>, %init: tensor<?x8x2x16xf32>, %dinit: tensor<?x8x3x2x16xf32>,
                            %mx: memref<2x8x3x2x16xf32>, %mo: memref<2x8x2x16xf32>) -> tensor<?x8x3x2x16xf32> {
  %o = mdl.lib_attention_packed %x, %init {causal = true} : tensor<?x8x3x2x16xf32>, tensor<?x8x2x16xf32> -> tensor<?x8x2x16xf32>
  %d = mdl.lib_attention_packed_grad %x, %o, %init, %dinit {causal = true} : tensor<?x8x3x2x16xf32>, tensor<?x8x2x16xf32>, tensor<?x8x2x16xf32>, tensor<?x8x3x2x16xf32> -> tensor<?x8x3x2x16xf32>
  mdl.lib_attention_packed_grad %mx, %mo, %mo, %mx : memref<2x8x3x2x16xf32>, memref<2x8x2x16xf32>, memref<2x8x2x16xf32>, memref<2x8x3x2x16xf32>
  return %d : tensor<?x8x3x2x16xf32>
}
