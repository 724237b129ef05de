// Structure of the gradient-helper lowerings: the transposed convolution
// (zero-stuffed gradient, flipped weight, conv_2d_nchw_fchw / ngchw_gfchw),
// the weight gradient as one reduction generic, pooling adjoints as gathers
// (max: an arg-max generic with two accumulators first), slice_grad as an
// insert_slice into zeros, embedding_grad as an scf.for scatter-add.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @conv_grad_input
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [%{{.*}}, 8, 6, 6] [1, 1, 2, 2] : tensor<?x8x6x6xf32> into tensor<?x8x13x13xf32>
// CHECK: linalg.generic
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
func.func @conv_grad_input(%g: tensor<?x8x6x6xf32>, %w: tensor<8x3x3x3xf32>, %x: tensor<?x3x11x11xf32>) -> tensor<?x3x11x11xf32> {
  %0 = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x11x11xf32> -> tensor<?x3x11x11xf32>
  return %0 : tensor<?x3x11x11xf32>
}

// CHECK-LABEL: func.func @conv_grad_input_groups
// CHECK: linalg.conv_2d_ngchw_gfchw
// CHECK: tensor.collapse_shape
func.func @conv_grad_input_groups(%g: tensor<?x6x9x9xf32>, %w: tensor<6x2x3x3xf32>, %x: tensor<?x4x9x9xf32>) -> tensor<?x4x9x9xf32> {
  %0 = mdl.conv2d_grad_input %g, %w, %x {padding = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x6x9x9xf32>, tensor<6x2x3x3xf32>, tensor<?x4x9x9xf32> -> tensor<?x4x9x9xf32>
  return %0 : tensor<?x4x9x9xf32>
}

// CHECK-LABEL: func.func @conv_grad_weight
// CHECK: tensor.pad
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.collapse_shape {{.*}} into tensor<8x3x3x3xf32>
func.func @conv_grad_weight(%g: tensor<?x8x6x6xf32>, %x: tensor<?x3x11x11xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32> {
  %0 = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x3x11x11xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return %0 : tensor<8x3x3x3xf32>
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
