// Structure of the gradient-helper lowerings: conv adjoints with groups == 1
// as one rank-2 GEMM around im2col / col2im gathers; with groups > 1 the
// transposed convolution (zero-stuffed gradient, flipped weight,
// conv_2d_ngchw_gfchw) and the weight gradient as one reduction generic, pooling adjoints as gathers
// (max: an arg-max generic with two accumulators first), slice_grad as an
// insert_slice into zeros, embedding_grad as an scf.for scatter-add.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// groups == 1: dCols[27, N*36] = W^T @ dY (dY copied channel-major by a
// transposing generic and collapsed, the weight collapsed into [8, 27], lhs
// transposed), then col2im as a gather over the kernel taps (reduction
// loops kh, kw) that extracts from dCols.
// CHECK: #[[CMAJOR:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
// CHECK: #[[IM2COL:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d4 * 2 + d1, d5 * 2 + d2)>
// CHECK-LABEL: func.func @conv_grad_input
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
// CHECK-NOT: linalg.conv_2d
// CHECK-LABEL: func.func @conv_grad_input_groups
func.func @conv_grad_input(%g: tensor<?x8x6x6xf32>, %w: tensor<8x3x3x3xf32>, %x: tensor<?x3x11x11xf32>) -> tensor<?x3x11x11xf32> {
  %0 = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x11x11xf32> -> tensor<?x3x11x11xf32>
  return %0 : tensor<?x3x11x11xf32>
}

// groups > 1 keeps the zero-stuffed transposed convolution.
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [%{{.*}}, 6, 9, 9] [1, 1, 1, 1] : tensor<?x6x9x9xf32> into tensor<?x6x11x11xf32>
// CHECK: linalg.conv_2d_ngchw_gfchw
// CHECK: tensor.collapse_shape
func.func @conv_grad_input_groups(%g: tensor<?x6x9x9xf32>, %w: tensor<6x2x3x3xf32>, %x: tensor<?x4x9x9xf32>) -> tensor<?x4x9x9xf32> {
  %0 = mdl.conv2d_grad_input %g, %w, %x {padding = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x6x9x9xf32>, tensor<6x2x3x3xf32>, tensor<?x4x9x9xf32> -> tensor<?x4x9x9xf32>
  return %0 : tensor<?x4x9x9xf32>
}

// groups == 1: dW[8, 27] = dY[8, N*36] @ cols[27, N*36]^T, cols being the
// forward's im2col of the padded input, then copied back to OIHW.
// CHECK-LABEL: func.func @conv_grad_weight
// CHECK: tensor.pad %arg1 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IM2COL]], #{{.*}}], {{.*}} ins(%padded : tensor<?x3x13x13xf32>) outs(%{{.*}} : tensor<3x3x3x?x6x6xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<3x3x3x?x6x6xf32> into tensor<27x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[CMAJOR]], #{{.*}}], {{.*}} ins(%arg0 : tensor<?x8x6x6xf32>) outs(%{{.*}} : tensor<8x?x6x6xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<8x?x6x6xf32> into tensor<8x?xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<8x?xf32>, tensor<27x?xf32>) outs(%{{.*}} : tensor<8x27xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2, 3]] {{.*}} : tensor<8x27xf32> into tensor<8x3x3x3xf32>
func.func @conv_grad_weight(%g: tensor<?x8x6x6xf32>, %x: tensor<?x3x11x11xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32> {
  %0 = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x3x11x11xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return %0 : tensor<8x3x3x3xf32>
}

// groups > 1 keeps one reduction generic in grouped form.
// CHECK-LABEL: func.func @conv_grad_weight_groups
// CHECK: tensor.pad
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.collapse_shape {{.*}} into tensor<6x2x3x3xf32>
func.func @conv_grad_weight_groups(%g: tensor<?x6x9x9xf32>, %x: tensor<?x4x9x9xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<6x2x3x3xf32> {
  %0 = mdl.conv2d_grad_weight %g, %x, %w {padding = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x6x9x9xf32>, tensor<?x4x9x9xf32>, tensor<6x2x3x3xf32> -> tensor<6x2x3x3xf32>
  return %0 : tensor<6x2x3x3xf32>
}

// CHECK-LABEL: func.func @max_pool_grad
// CHECK: tensor.pad
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: } -> (tensor<?x3x4x5xf32>, tensor<?x3x4x5xi64>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: tensor.extract
// CHECK: tensor.extract
func.func @max_pool_grad(%g: tensor<?x3x4x5xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x4x5xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %0 : tensor<?x3x7x9xf32>
}

// Windows that tile the input (stride = kernel = 2, no padding, 8 x 6 =
// 4*2 x 3*2): one all-parallel generic over (n, c, oh, ow, kh, kw) writing
// the input seen as N x C x OH x KH x OW x KW, the window's values read
// through four maps, no fill, no arg-max tensor; collapsed back to NCHW.
// CHECK-LABEL: func.func @max_pool_grad_tiled
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg1, %arg1, %arg1, %arg1 : {{.*}}) outs(%{{.*}} : tensor<?x3x4x2x3x2xf32>)
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK-DAG: linalg.index 4
// CHECK-DAG: linalg.index 5
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<?x3x4x2x3x2xf32> into tensor<?x3x8x6xf32>
// CHECK-NOT: tensor.extract
// CHECK-LABEL: func.func @max_pool_grad_untiled
func.func @max_pool_grad_tiled(%g: tensor<?x3x4x3xf32>, %x: tensor<?x3x8x6xf32>) -> tensor<?x3x8x6xf32> {
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x3x4x3xf32>, tensor<?x3x8x6xf32> -> tensor<?x3x8x6xf32>
  return %0 : tensor<?x3x8x6xf32>
}

// An odd size (7 rows, the last one in no window) keeps the gather form.
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} {{.*}} outs(%{{.*}} : tensor<?x3x3x3xi64>)
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: tensor.extract
func.func @max_pool_grad_untiled(%g: tensor<?x3x3x3xf32>, %x: tensor<?x3x7x6xf32>) -> tensor<?x3x7x6xf32> {
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x3x3x3xf32>, tensor<?x3x7x6xf32> -> tensor<?x3x7x6xf32>
  return %0 : tensor<?x3x7x6xf32>
}

// CHECK-LABEL: func.func @avg_pool_grad
// CHECK-NOT: tensor.pad
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.divf
func.func @avg_pool_grad(%g: tensor<?x3x3x4xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %0 = mdl.avg_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x3x3x4xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %0 : tensor<?x3x7x9xf32>
}

// CHECK-LABEL: func.func @slice_grad
// CHECK: linalg.fill
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 2, 1] [%{{.*}}, 3, 4] [1, 3, 1]
func.func @slice_grad(%g: tensor<?x3x4xf32>, %x: tensor<?x10x7xf32>) -> tensor<?x10x7xf32> {
  %0 = mdl.slice_grad %g, %x {start = array<i64: 0, 2, 1>, stride = array<i64: 1, 3, 1>} : tensor<?x3x4xf32>, tensor<?x10x7xf32> -> tensor<?x10x7xf32>
  return %0 : tensor<?x10x7xf32>
}

// CHECK-LABEL: func.func @embedding_grad
// CHECK: tensor.collapse_shape
// CHECK: scf.for
// CHECK: cf.assert {{.*}}"mdl lowering: embedding_grad index out of range"
// CHECK: tensor.extract_slice
// CHECK: linalg.generic
// CHECK: tensor.insert_slice
// CHECK: scf.yield
func.func @embedding_grad(%g: tensor<?x16x64xf32>, %i: tensor<?x16xi64>, %t: tensor<1000x64xf32>) -> tensor<1000x64xf32> {
  %0 = mdl.embedding_grad %g, %i, %t : tensor<?x16x64xf32>, tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<1000x64xf32>
  return %0 : tensor<1000x64xf32>
}
