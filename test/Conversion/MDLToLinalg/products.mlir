// Structure of the product lowering: named linalg contractions and
// convolutions into zero- (or bias-) initialised accumulators.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

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

// groups == 1: im2col (tensor.generate gathering the padded input into
// [C*KH*KW, N*OH*OW]), the weight viewed as [O, C*KH*KW], one rank-2
// contraction generic, then back to NCHW with the bias added: a loop over
// N x O x (H*W) (the innermost loop H*W long) and an expand_shape.
// CHECK-LABEL: func.func @conv
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.generate
// CHECK: tensor.extract %padded
// CHECK: } : tensor<9x?xf32>
// CHECK: linalg.fill {{.*}} -> tensor<32x?xf32>
// CHECK: tensor.extract %arg1
// CHECK: } : tensor<32x9xf32>
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
