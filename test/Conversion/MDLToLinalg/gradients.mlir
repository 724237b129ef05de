// Structure of the gradient-helper lowerings: f32 conv adjoints with
// groups == 1 as the library ops mdl.lib_conv2d_grad_input/_weight (their
// im2col expansion: test/Conversion/MDLToLinalg/expand-library-ops.mlir);
// with groups > 1 the
// transposed convolution (zero-stuffed gradient, flipped weight,
// conv_2d_ngchw_gfchw) and the weight gradient as one reduction generic, pooling adjoints as gathers
// (max: an arg-max generic with two accumulators first), slice_grad as an
// insert_slice into zeros, embedding_grad as mdl.lib_embedding_grad (a masked
// reduction once expanded).
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops | FileCheck %s --check-prefix=EXPAND

// f32, groups == 1: mdl.lib_conv2d_grad_input into a fresh tensor of the
// input's type (its batch from the gradient).
// CHECK-LABEL: func.func @conv_grad_input
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c0 : tensor<?x8x6x6xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[DIM]]) : tensor<?x3x11x11xf32>
// CHECK: %[[DX:.*]] = mdl.lib_conv2d_grad_input %arg0, %arg1, %[[INIT]] {padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x11x11xf32> -> tensor<?x3x11x11xf32>
// CHECK-NEXT: return %[[DX]]
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

// f32, groups == 1: mdl.lib_conv2d_grad_weight (operands: the input, then
// the gradient) into a fresh tensor of the weight's static type.
// CHECK-LABEL: func.func @conv_grad_weight
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<8x3x3x3xf32>
// CHECK: %[[DW:.*]] = mdl.lib_conv2d_grad_weight %arg1, %arg0, %[[INIT]] {padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x3x11x11xf32>, tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
// CHECK-NEXT: return %[[DW]]
func.func @conv_grad_weight(%g: tensor<?x8x6x6xf32>, %x: tensor<?x3x11x11xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32> {
  %0 = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x3x11x11xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return %0 : tensor<8x3x3x3xf32>
}

// mdl-assign-precision's tag goes with the product to its library op
// (LibraryToCalls reads it before the module's).
// CHECK-LABEL: func.func @conv_precision_tags
// CHECK: mdl.lib_conv2d_bias {{.*}} {mdl.precision = "bf16", padding
// CHECK: mdl.lib_conv2d_grad_input {{.*}} {mdl.precision = "bf16", padding
// CHECK: mdl.lib_conv2d_grad_weight {{.*}} {mdl.precision = "f32", padding
func.func @conv_precision_tags(%x: tensor<?x3x8x8xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %g: tensor<?x8x8x8xf32>) -> (tensor<?x8x8x8xf32>, tensor<?x3x8x8xf32>, tensor<8x3x3x3xf32>) {
  %0 = mdl.conv2d %x, %w, %b {mdl.precision = "bf16", padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : tensor<?x3x8x8xf32>, tensor<8x3x3x3xf32>, tensor<8xf32> -> tensor<?x8x8x8xf32>
  %1 = mdl.conv2d_grad_input %g, %w, %x {mdl.precision = "bf16", padding = array<i64: 1, 1>} : tensor<?x8x8x8xf32>, tensor<8x3x3x3xf32>, tensor<?x3x8x8xf32> -> tensor<?x3x8x8xf32>
  %2 = mdl.conv2d_grad_weight %g, %x, %w {mdl.precision = "f32", padding = array<i64: 1, 1>} : tensor<?x8x8x8xf32>, tensor<?x3x8x8xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  return %0, %1, %2 : tensor<?x8x8x8xf32>, tensor<?x3x8x8xf32>, tensor<8x3x3x3xf32>
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

// f32 pooling adjoints are library ops (the batch read from the gradient);
// their expansion (EXPAND) is the linalg form below.
// CHECK-LABEL: func.func @max_pool_grad(
// CHECK: mdl.lib_max_pool2d_grad %arg0, %arg1, %{{.*}} {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x3x4x5xf32>, tensor<?x3x7x9xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
// CHECK-LABEL: func.func @avg_pool_grad(
// CHECK: mdl.lib_avg_pool2d_grad %arg0, %{{.*}} {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x3x3x4xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
// EXPAND-LABEL: func.func @max_pool_grad(
// EXPAND: tensor.pad
// EXPAND: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// EXPAND: } -> (tensor<?x3x4x5xf32>, tensor<?x3x4x5xi64>)
// EXPAND: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// EXPAND: tensor.extract
// EXPAND: tensor.extract
func.func @max_pool_grad(%g: tensor<?x3x4x5xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x4x5xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %0 : tensor<?x3x7x9xf32>
}

// Windows that tile the input (stride = kernel = 2, no padding, 8 x 6 =
// 4*2 x 3*2): one all-parallel generic over (n, c, oh, ow, kh, kw) writing
// the input seen as N x C x OH x KH x OW x KW, the window's values read
// through four maps, no fill, no arg-max tensor; collapsed back to NCHW.
// EXPAND-LABEL: func.func @max_pool_grad_tiled
// EXPAND-NOT: linalg.fill
// EXPAND: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg1, %arg1, %arg1, %arg1 : {{.*}}) outs(%{{.*}} : tensor<?x3x4x2x3x2xf32>)
// EXPAND: arith.cmpf ogt
// EXPAND: arith.cmpf uno
// EXPAND-DAG: linalg.index 4
// EXPAND-DAG: linalg.index 5
// EXPAND: arith.cmpi eq
// EXPAND: arith.select
// EXPAND: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<?x3x4x2x3x2xf32> into tensor<?x3x8x6xf32>
// EXPAND-NOT: tensor.extract
// EXPAND-LABEL: func.func @max_pool_grad_untiled
func.func @max_pool_grad_tiled(%g: tensor<?x3x4x3xf32>, %x: tensor<?x3x8x6xf32>) -> tensor<?x3x8x6xf32> {
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x3x4x3xf32>, tensor<?x3x8x6xf32> -> tensor<?x3x8x6xf32>
  return %0 : tensor<?x3x8x6xf32>
}

// An odd size (7 rows, the last one in no window) keeps the gather form.
// EXPAND: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} {{.*}} outs(%{{.*}} : tensor<?x3x3x3xi64>)
// EXPAND: linalg.fill
// EXPAND: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// EXPAND: tensor.extract
func.func @max_pool_grad_untiled(%g: tensor<?x3x3x3xf32>, %x: tensor<?x3x7x6xf32>) -> tensor<?x3x7x6xf32> {
  %0 = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x3x3x3xf32>, tensor<?x3x7x6xf32> -> tensor<?x3x7x6xf32>
  return %0 : tensor<?x3x7x6xf32>
}

// EXPAND-LABEL: func.func @avg_pool_grad
// EXPAND-NOT: tensor.pad
// EXPAND: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// EXPAND: arith.divf
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

// embedding_grad: the indices collapsed to the positions S, the gradient to
// S x D rows, then mdl.lib_embedding_grad into a fresh table; expanded, a
// generic over (n, d, p) summing the rows whose index is n.
// CHECK-LABEL: func.func @embedding_grad
// CHECK: %[[IDX:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<?x16xi64> into tensor<?xi64>
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<?x16x64xf32> into tensor<?x64xf32>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<1000x64xf32>
// CHECK: mdl.lib_embedding_grad %[[IDX]], %[[ROWS]], %[[INIT]] : tensor<?xi64>, tensor<?x64xf32>, tensor<1000x64xf32> -> tensor<1000x64xf32>
// EXPAND-LABEL: func.func @embedding_grad
// EXPAND: linalg.fill
// EXPAND: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<?xi64>, tensor<?x64xf32>) outs(%{{.*}} : tensor<1000x64xf32>)
// EXPAND: linalg.index 0
// EXPAND: arith.cmpi eq
// EXPAND: arith.select
// EXPAND-NOT: mdl.lib_embedding_grad
func.func @embedding_grad(%g: tensor<?x16x64xf32>, %i: tensor<?x16xi64>, %t: tensor<1000x64xf32>) -> tensor<1000x64xf32> {
  %0 = mdl.embedding_grad %g, %i, %t : tensor<?x16x64xf32>, tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<1000x64xf32>
  return %0 : tensor<1000x64xf32>
}
