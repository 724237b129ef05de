// Structure of the product lowering: named linalg contractions and
// convolutions into zero- (or bias-) initialised accumulators.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// The im2col read of conv below: cols[c, kh, kw, n, oh, ow] = xpad[n, c, oh + kh, ow + kw].
// CHECK: #[[IM2COL:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d1 + d4, d2 + d5)>
// CHECK-LABEL: func.func @dense
// CHECK: linalg.fill
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<?x784xf32>, tensor<784x128xf32>) outs({{.*}} : tensor<?x128xf32>)
func.func @dense(%x: tensor<?x784xf32>, %w: tensor<784x128xf32>) -> tensor<?x128xf32> {
  %0 = mdl.matmul %x, %w : tensor<?x784xf32>, tensor<784x128xf32> -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}

// CHECK-LABEL: func.func @matmul3d
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<?x16x64xf32> into tensor<?x64xf32>
// CHECK: linalg.matmul
// CHECK: tensor.expand_shape {{.*}} into tensor<?x16x8xf32>
func.func @matmul3d(%x: tensor<?x16x64xf32>, %w: tensor<64x8xf32>) -> tensor<?x16x8xf32> {
  %0 = mdl.matmul %x, %w : tensor<?x16x64xf32>, tensor<64x8xf32> -> tensor<?x16x8xf32>
  return %0 : tensor<?x16x8xf32>
}

// CHECK-LABEL: func.func @bmm
// CHECK: linalg.batch_matmul
func.func @bmm(%a: tensor<?x8x16xf32>, %b: tensor<?x16x8xf32>) -> tensor<?x8x8xf32> {
  %0 = mdl.batch_matmul %a, %b : tensor<?x8x16xf32>, tensor<?x16x8xf32> -> tensor<?x8x8xf32>
  return %0 : tensor<?x8x8xf32>
}

// groups == 1: im2col (a rank-6 copy generic over C x KH x KW x N x OH x OW
// reading the padded input through affine maps, collapsed into
// [C*KH*KW, N*OH*OW]), the weight collapsed into [O, C*KH*KW] (no copy),
// one rank-2 contraction generic, then back to NCHW with the bias added: a
// loop over N x O x (H*W) (the innermost loop H*W long) and an expand_shape.
// CHECK-LABEL: func.func @conv
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IM2COL:map[0-9]*]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%padded : tensor<?x1x30x30xf32>) outs(%{{.*}} : tensor<1x3x3x?x28x28xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x3x3x?x28x28xf32> into tensor<9x?xf32>
// CHECK: linalg.fill {{.*}} -> tensor<32x?xf32>
// CHECK: tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<32x1x3x3xf32> into tensor<32x9xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<32x9xf32>, tensor<9x?xf32>) outs(%{{.*}} : tensor<32x?xf32>)
// CHECK: %[[NOHW:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}}, %arg2 : tensor<32x?xf32>, tensor<32xf32>) outs(%{{.*}} : tensor<?x32x784xf32>)
// CHECK: tensor.expand_shape %[[NOHW]] {{\[}}[0], [1], [2, 3]] {{.*}} : tensor<?x32x784xf32> into tensor<?x32x28x28xf32>
// CHECK-NOT: linalg.conv_2d
// CHECK-LABEL: func.func @grouped
func.func @conv(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>) -> tensor<?x32x28x28xf32> {
  %0 = mdl.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32> -> tensor<?x32x28x28xf32>
  return %0 : tensor<?x32x28x28xf32>
}

// groups > 1 keeps the direct grouped convolution.
// CHECK: linalg.conv_2d_ngchw_gfchw
// CHECK: tensor.collapse_shape {{.*}} into tensor<?x6x5x5xf32>
func.func @grouped(%x: tensor<?x4x5x5xf32>, %w: tensor<6x2x1x1xf32>) -> tensor<?x6x5x5xf32> {
  %0 = mdl.conv2d %x, %w {groups = 2 : i64} : tensor<?x4x5x5xf32>, tensor<6x2x1x1xf32> -> tensor<?x6x5x5xf32>
  return %0 : tensor<?x6x5x5xf32>
}
