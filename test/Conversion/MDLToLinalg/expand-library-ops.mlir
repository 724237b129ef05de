// modelc-expand-library-ops: each library convolution on tensors becomes
// im2col (or col2im) around one rank-2 contraction generic, which the
// pipelines' product rewrites turn into one BLAS call; the destination
// operand is not used.
// RUN: modelc-opt %s --modelc-expand-library-ops | FileCheck %s

// The channel-major copy of a gradient and the im2col read (stride 2 below).
// CHECK: #[[IM2COL:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d1 + d4, d2 + d5)>
// CHECK: #[[CMAJOR:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
// CHECK: #[[IM2COL2:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d4 * 2 + d1, d5 * 2 + d2)>

// Forward: im2col (a rank-6 copy generic over C x KH x KW x N x OH x OW
// reading the padded input through affine maps, collapsed into
// [C*KH*KW, N*OH*OW]), the weight collapsed into [O, C*KH*KW] (no copy),
// one rank-2 contraction generic, then back to NCHW: a loop over
// N x O x (H*W) and an expand_shape.
// CHECK-LABEL: func.func @forward
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IM2COL]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%padded : tensor<?x1x30x30xf32>) outs(%{{.*}} : tensor<1x3x3x?x28x28xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x3x3x?x28x28xf32> into tensor<9x?xf32>
// CHECK: linalg.fill {{.*}} -> tensor<32x?xf32>
// CHECK: tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<32x1x3x3xf32> into tensor<32x9xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<32x9xf32>, tensor<9x?xf32>) outs(%{{.*}} : tensor<32x?xf32>)
// CHECK: %[[NOHW:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<32x?xf32>) outs(%{{.*}} : tensor<?x32x784xf32>)
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[NOHW]] {{\[}}[0], [1], [2, 3]] {{.*}} : tensor<?x32x784xf32> into tensor<?x32x28x28xf32>
// CHECK-NOT: mdl.lib_conv2d
// CHECK: return %[[Y]]
func.func @forward(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %init: tensor<?x32x28x28xf32>) -> tensor<?x32x28x28xf32> {
  %0 = mdl.lib_conv2d %x, %w, %init {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
  return %0 : tensor<?x32x28x28xf32>
}

// With a bias: the same im2col and contraction, the bias read per output
// channel by the loop that lays the product out in NCHW and added there.
// CHECK-LABEL: func.func @forward_bias
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<32x9xf32>, tensor<9x?xf32>) outs(%{{.*}} : tensor<32x?xf32>)
// CHECK: %[[NOHW:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}}, %arg2 : tensor<32x?xf32>, tensor<32xf32>) outs(%{{.*}} : tensor<?x32x784xf32>)
// CHECK: arith.addf
// CHECK: %[[Y:.*]] = tensor.expand_shape %[[NOHW]]
// CHECK-NOT: mdl.lib_conv2d
// CHECK: return %[[Y]]
func.func @forward_bias(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>, %init: tensor<?x32x28x28xf32>) -> tensor<?x32x28x28xf32> {
  %0 = mdl.lib_conv2d_bias %x, %w, %b, %init {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
  return %0 : tensor<?x32x28x28xf32>
}

// Input gradient: dCols[27, N*36] = W^T @ dY (dY copied channel-major by a
// transposing generic and collapsed, the weight collapsed into [8, 27], lhs
// transposed), then col2im as a gather over the kernel taps (reduction
// loops kh, kw) that extracts from dCols.
// CHECK-LABEL: func.func @grad_input
// CHECK: linalg.generic {indexing_maps = [#[[CMAJOR]], #{{.*}}], {{.*}} ins(%arg0 : tensor<?x8x6x6xf32>) outs(%{{.*}} : tensor<8x?x6x6xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<8x?x6x6xf32> into tensor<8x?xf32>
// CHECK: linalg.fill {{.*}} -> tensor<27x?xf32>
// CHECK: tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<8x3x3x3xf32> into tensor<8x27xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<8x27xf32>, tensor<8x?xf32>) outs(%{{.*}} : tensor<27x?xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<3x3xf32>) outs(%{{.*}} : tensor<?x3x11x11xf32>)
// CHECK: arith.divsi %{{.*}}, %c2
// CHECK: arith.remsi %{{.*}}, %c2
// CHECK: tensor.extract %{{.*}} : tensor<27x?xf32>
// CHECK: arith.select
// CHECK-NOT: mdl.lib_conv2d
func.func @grad_input(%g: tensor<?x8x6x6xf32>, %w: tensor<8x3x3x3xf32>, %init: tensor<?x3x11x11xf32>) -> tensor<?x3x11x11xf32> {
  %0 = mdl.lib_conv2d_grad_input %g, %w, %init {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x11x11xf32> -> tensor<?x3x11x11xf32>
  return %0 : tensor<?x3x11x11xf32>
}

// Weight gradient: dW[8, 27] = dY[8, N*36] @ cols[27, N*36]^T, cols being
// the forward's im2col of the padded input, then viewed as OIHW.
// CHECK-LABEL: func.func @grad_weight
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IM2COL2]], #{{.*}}], {{.*}} ins(%padded : tensor<?x3x13x13xf32>) outs(%{{.*}} : tensor<3x3x3x?x6x6xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<3x3x3x?x6x6xf32> into tensor<27x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[CMAJOR]], #{{.*}}], {{.*}} ins(%arg1 : tensor<?x8x6x6xf32>) outs(%{{.*}} : tensor<8x?x6x6xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<8x?x6x6xf32> into tensor<8x?xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<8x?xf32>, tensor<27x?xf32>) outs(%{{.*}} : tensor<8x27xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2, 3]] {{.*}} : tensor<8x27xf32> into tensor<8x3x3x3xf32>
// CHECK-NOT: mdl.lib_conv2d
func.func @grad_weight(%x: tensor<?x3x11x11xf32>, %g: tensor<?x8x6x6xf32>, %init: tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32> {
  %0 = mdl.lib_conv2d_grad_weight %x, %g, %init {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x11x11xf32>, tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return %0 : tensor<8x3x3x3xf32>
}

// Pooling and its adjoints become the window generics of the pooling
// lowering (their structure: pooling.mlir and gradients.mlir): max as one
// all-parallel generic over the windows, avg as a padded sum and a
// division, the tiled max gradient as one generic over the input seen as
// N x C x OH x KH x OW x KW, the avg gradient as a gather.
// CHECK-LABEL: func.func @pools
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg0, %arg0, %arg0 : {{.*}}) outs(%{{.*}} : tensor<?x8x3x2xf32>)
// CHECK: linalg.pooling_nchw_sum
// CHECK: arith.divf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} {{.*}} outs(%{{.*}} : tensor<?x8x3x2x2x2xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-NOT: mdl.lib_
func.func @pools(%x: tensor<?x8x6x4xf32>, %y: tensor<?x8x3x2xf32>, %y3: tensor<?x8x3x2xf32>, %dx: tensor<?x8x6x4xf32>) -> (tensor<?x8x3x2xf32>, tensor<?x8x3x2xf32>, tensor<?x8x6x4xf32>, tensor<?x8x6x4xf32>) {
  %m = mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x6x4xf32>, tensor<?x8x3x2xf32> -> tensor<?x8x3x2xf32>
  %a = mdl.lib_avg_pool2d %x, %y3 {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x4xf32>, tensor<?x8x3x2xf32> -> tensor<?x8x3x2xf32>
  %dm = mdl.lib_max_pool2d_grad %m, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x3x2xf32>, tensor<?x8x6x4xf32>, tensor<?x8x6x4xf32> -> tensor<?x8x6x4xf32>
  %da = mdl.lib_avg_pool2d_grad %a, %dx {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x3x2xf32>, tensor<?x8x6x4xf32> -> tensor<?x8x6x4xf32>
  return %m, %a, %dm, %da : tensor<?x8x3x2xf32>, tensor<?x8x3x2xf32>, tensor<?x8x6x4xf32>, tensor<?x8x6x4xf32>
}

// The embedding gradient: a zero-filled table, then one generic over
// (n, d, p) with the positions p as its reduction, adding the gradient row
// of every position whose index is n.
// CHECK-LABEL: func.func @embedding_grad
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<100x16xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%arg0, %arg1 : tensor<?xi32>, tensor<?x16xf32>) outs(%[[ZERO]] : tensor<100x16xf32>)
// CHECK: %[[N:.*]] = linalg.index 0 : index
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %{{.*}}, %[[NI]] : i32
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: arith.select %[[HIT]], %[[SUM]]
// CHECK-NOT: mdl.lib_embedding_grad
func.func @embedding_grad(%i: tensor<?xi32>, %g: tensor<?x16xf32>, %t: tensor<100x16xf32>) -> tensor<100x16xf32> {
  %0 = mdl.lib_embedding_grad %i, %g, %t : tensor<?xi32>, tensor<?x16xf32>, tensor<100x16xf32> -> tensor<100x16xf32>
  return %0 : tensor<100x16xf32>
}

// Attention: the unfused form, lowered at once: Q @ K^T, the scale, the
// causal mask as a select, the softmax's exp, then P @ V; the adjoint's
// three gradients flattened and joined into its flat result.
// CHECK-LABEL: func.func @attention
// CHECK: linalg.batch_matmul
// CHECK: arith.mulf
// CHECK: arith.select
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK: tensor.concat dim(0)
// CHECK-NOT: mdl.
// CHECK: return
func.func @attention(%q: tensor<?x2x4x8xf32>, %init: tensor<?x2x4x8xf32>, %flat: tensor<?xf32>) -> (tensor<?x2x4x8xf32>, tensor<?xf32>) {
  %o = mdl.lib_attention %q, %q, %q, %init {causal = true} : tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32> -> tensor<?x2x4x8xf32>
  %d = mdl.lib_attention_grad %q, %q, %q, %o, %init, %flat {causal = true} : tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?xf32> -> tensor<?xf32>
  return %o, %d : tensor<?x2x4x8xf32>, tensor<?xf32>
}

// A decoding step: the unfused attention over every row of the caches,
// the rows after the position masked (the row index <= the position), at
// once lowered: Q @ K^T, the scale, the mask, the softmax's exp, P @ V.
// CHECK-LABEL: func.func @attention_decode
// CHECK: linalg.batch_matmul
// CHECK: arith.mulf
// CHECK: arith.cmpi sle
// CHECK: arith.select
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: mdl.
// CHECK: return
func.func @attention_decode(%q: tensor<1x2x1x8xf32>, %c: tensor<1x2x6x8xf32>, %pos: tensor<i64>, %init: tensor<1x2x1x8xf32>) -> tensor<1x2x1x8xf32> {
  %o = mdl.lib_attention_decode %q, %c, %c, %pos, %init : tensor<1x2x1x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>, tensor<i64>, tensor<1x2x1x8xf32> -> tensor<1x2x1x8xf32>
  return %o : tensor<1x2x1x8xf32>
}
