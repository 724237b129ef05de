// Structure of the product lowering: named linalg contractions into
// zero-initialised accumulators; convolutions as the library op
// mdl.lib_conv2d or mdl.lib_conv2d_bias (f32, groups == 1, static sizes)
// or as named linalg convolutions into bias-initialised accumulators.
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

// A rank-4 stack: the batch dimensions merged into one around the product.
// CHECK-LABEL: func.func @bmm4
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]]
// CHECK: tensor.collapse_shape %arg1 {{\[}}[0, 1], [2], [3]]
// CHECK: linalg.batch_matmul
// CHECK: tensor.expand_shape {{.*}} {{\[}}[0, 1], [2], [3]]{{.*}} : tensor<?x8x8xf32> into tensor<?x4x8x8xf32>
func.func @bmm4(%a: tensor<?x4x8x16xf32>, %b: tensor<?x4x16x8xf32>) -> tensor<?x4x8x8xf32> {
  %0 = mdl.batch_matmul %a, %b : tensor<?x4x8x16xf32>, tensor<?x4x16x8xf32> -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// Broadcast batch dimensions: the [4, 16, 8] rhs copied along the lhs's
// dynamic batch (its size read from the lhs), the lhs's size-1 dimension
// read at index 0, then one product over the merged batch.
// CHECK-LABEL: func.func @bmm_broadcast
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: linalg.generic {indexing_maps = [#[[LHS:map[0-9]*]], #{{.*}}]
// CHECK-SAME: ins(%arg0 : tensor<?x1x8x16xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg1 : tensor<4x16x8xf32>)
// CHECK: linalg.batch_matmul
func.func @bmm_broadcast(%a: tensor<?x1x8x16xf32>, %b: tensor<4x16x8xf32>) -> tensor<?x4x8x8xf32> {
  %0 = mdl.batch_matmul %a, %b : tensor<?x1x8x16xf32>, tensor<4x16x8xf32> -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// f32, groups == 1, static sizes: mdl.lib_conv2d_bias into a fresh tensor
// (the batch read from the input), the library adding the bias: no generic.
// CHECK-LABEL: func.func @conv
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c0 : tensor<?x1x28x28xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[DIM]]) : tensor<?x32x28x28xf32>
// CHECK: %[[Y:.*]] = mdl.lib_conv2d_bias %arg0, %arg1, %arg2, %[[INIT]] {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
// CHECK-NEXT: return %[[Y]]
// CHECK-LABEL: func.func @conv_no_bias
func.func @conv(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>) -> tensor<?x32x28x28xf32> {
  %0 = mdl.conv2d %x, %w, %b {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32> -> tensor<?x32x28x28xf32>
  return %0 : tensor<?x32x28x28xf32>
}

// Without a bias: mdl.lib_conv2d.
// CHECK: %[[Y:.*]] = mdl.lib_conv2d %arg0, %arg1, %{{.*}} {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
// CHECK-NEXT: return %[[Y]]
// CHECK-LABEL: func.func @conv_f64
func.func @conv_no_bias(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>) -> tensor<?x32x28x28xf32> {
  %0 = mdl.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32> -> tensor<?x32x28x28xf32>
  return %0 : tensor<?x32x28x28xf32>
}

// f64 (no library op) keeps the direct convolution over the padded input.
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: mdl.lib_conv2d
// CHECK-LABEL: func.func @grouped
func.func @conv_f64(%x: tensor<?x1x28x28xf64>, %w: tensor<32x1x3x3xf64>) -> tensor<?x32x28x28xf64> {
  %0 = mdl.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf64>, tensor<32x1x3x3xf64> -> tensor<?x32x28x28xf64>
  return %0 : tensor<?x32x28x28xf64>
}

// groups > 1 keeps the direct grouped convolution.
// CHECK: linalg.conv_2d_ngchw_gfchw
// CHECK: tensor.collapse_shape {{.*}} into tensor<?x6x5x5xf32>
func.func @grouped(%x: tensor<?x4x5x5xf32>, %w: tensor<6x2x1x1xf32>) -> tensor<?x6x5x5xf32> {
  %0 = mdl.conv2d %x, %w {groups = 2 : i64} : tensor<?x4x5x5xf32>, tensor<6x2x1x1xf32> -> tensor<?x6x5x5xf32>
  return %0 : tensor<?x6x5x5xf32>
}

// A dynamic column count (the batch as the columns of the right operand,
// `w @ transpose(h)`): the accumulator's columns are the right operand's,
// never the left operand's reduction size.
// CHECK-LABEL: func.func @dynamicColumns
// CHECK: %[[N:.*]] = tensor.dim %arg1, %c1 : tensor<10x?xf32>
// CHECK: tensor.empty(%[[N]]) : tensor<3x?xf32>
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<3x10xf32>, tensor<10x?xf32>) outs({{.*}} : tensor<3x?xf32>)
func.func @dynamicColumns(%w: tensor<3x10xf32>, %h: tensor<10x?xf32>) -> tensor<3x?xf32> {
  %0 = mdl.matmul %w, %h : tensor<3x10xf32>, tensor<10x?xf32> -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// The same through the collapsed form: leading dimensions of the left
// operand from it, the last from the right operand.
// CHECK-LABEL: func.func @dynamicColumns3d
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<2x3x10xf32> into tensor<6x10xf32>
// CHECK: %[[N:.*]] = tensor.dim %arg1, %c1 : tensor<10x?xf32>
// CHECK: tensor.empty(%[[N]]) : tensor<6x?xf32>
// CHECK: %[[P:.*]] = linalg.matmul
// CHECK: %[[N2:.*]] = tensor.dim %arg1, %c1
// CHECK: tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2]] output_shape [2, 3, %[[N2]]] : tensor<6x?xf32> into tensor<2x3x?xf32>
func.func @dynamicColumns3d(%w: tensor<2x3x10xf32>, %h: tensor<10x?xf32>) -> tensor<2x3x?xf32> {
  %0 = mdl.matmul %w, %h : tensor<2x3x10xf32>, tensor<10x?xf32> -> tensor<2x3x?xf32>
  return %0 : tensor<2x3x?xf32>
}
