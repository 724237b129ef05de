// Structure of the shape lowering: reshapes keep the dynamic batch.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @reshape
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x3136xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape {{.*}} output_shape [%{{.*}}, 64, 7, 7] : tensor<?xf32> into tensor<?x64x7x7xf32>
func.func @reshape(%x: tensor<?x3136xf32>) -> tensor<?x64x7x7xf32> {
  %0 = mdl.reshape %x {shape = array<i64: -1, 64, 7, 7>} : tensor<?x3136xf32> -> tensor<?x64x7x7xf32>
  return %0 : tensor<?x64x7x7xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK: linalg.transpose ins(%arg0 : tensor<?x8x16xf32>) outs({{.*}} : tensor<?x16x8xf32>) permutation = [0, 2, 1]
func.func @transpose(%x: tensor<?x8x16xf32>) -> tensor<?x16x8xf32> {
  %0 = mdl.transpose %x {permutation = array<i64: 0, 2, 1>} : tensor<?x8x16xf32> -> tensor<?x16x8xf32>
  return %0 : tensor<?x16x8xf32>
}

// CHECK-LABEL: func.func @concat_slice
// CHECK: tensor.insert_slice
// CHECK: tensor.insert_slice
// CHECK: tensor.extract_slice {{.*}}[0, 2] [%{{.*}}, 4] [1, 1]
func.func @concat_slice(%a: tensor<?x3xf32>, %b: tensor<?x5xf32>) -> tensor<?x4xf32> {
  %0 = mdl.concat %a, %b {axis = 1 : i64} : tensor<?x3xf32>, tensor<?x5xf32> -> tensor<?x8xf32>
  %1 = mdl.slice %0 {start = array<i64: 0, 2>, size = array<i64: -1, 4>, stride = array<i64: 1, 1>} : tensor<?x8xf32> -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @embedding
// CHECK: linalg.generic
// CHECK: tensor.extract %arg1
func.func @embedding(%i: tensor<?x16xi64>, %t: tensor<1000x64xf32>) -> tensor<?x16x64xf32> {
  %0 = mdl.embedding %i, %t : tensor<?x16xi64>, tensor<1000x64xf32> -> tensor<?x16x64xf32>
  return %0 : tensor<?x16x64xf32>
}

// A scalar reshaped to one element (the gradient of a full reduction of a
// vector): an expand_shape with no groups, never a cast between ranks.
// CHECK-LABEL: func.func @scalarToVector
// CHECK: tensor.expand_shape %arg0 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK-NOT: tensor.cast
func.func @scalarToVector(%x: tensor<f32>) -> tensor<1xf32> {
  %0 = mdl.reshape %x {shape = array<i64: 1>} : tensor<f32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
