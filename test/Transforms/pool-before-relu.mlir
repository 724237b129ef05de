// RUN: modelc-opt %s --mdl-pool-before-relu --split-input-file | FileCheck %s
// mdl-pool-before-relu: max pooling of a relu used by it alone becomes the
// relu of the max pooling, with the pooling's kernel, stride and padding;
// a relu with other users, average pooling and other activations stay.

// CHECK-LABEL: func.func @swapped
// CHECK-SAME: (%[[X:.*]]: tensor<?x32x28x28xf32>)
// CHECK-NEXT: %[[P:.*]] = mdl.max_pool2d %[[X]] {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x32x28x28xf32> -> tensor<?x32x14x14xf32>
// CHECK-NEXT: %[[R:.*]] = mdl.relu %[[P]] : tensor<?x32x14x14xf32>
// CHECK-NEXT: return %[[R]]
func.func @swapped(%x: tensor<?x32x28x28xf32>) -> tensor<?x32x14x14xf32> {
  %0 = mdl.relu %x : tensor<?x32x28x28xf32>
  %1 = mdl.max_pool2d %0 {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x32x28x28xf32> -> tensor<?x32x14x14xf32>
  return %1 : tensor<?x32x14x14xf32>
}

// -----

// CHECK-LABEL: func.func @relu_used_twice
// CHECK-NEXT: %[[R:.*]] = mdl.relu
// CHECK-NEXT: mdl.max_pool2d %[[R]]
func.func @relu_used_twice(%x: tensor<2x4x8x8xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32>) {
  %0 = mdl.relu %x : tensor<2x4x8x8xf32>
  %1 = mdl.max_pool2d %0 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x4x8x8xf32> -> tensor<2x4x4x4xf32>
  return %1, %0 : tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32>
}

// -----

// CHECK-LABEL: func.func @not_max_of_relu
// CHECK-NEXT: %[[R:.*]] = mdl.relu
// CHECK-NEXT: mdl.avg_pool2d %[[R]]
// CHECK-NEXT: %[[T:.*]] = mdl.tanh
// CHECK-NEXT: mdl.max_pool2d %[[T]]
func.func @not_max_of_relu(%x: tensor<2x4x8x8xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>) {
  %0 = mdl.relu %x : tensor<2x4x8x8xf32>
  %1 = mdl.avg_pool2d %0 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x4x8x8xf32> -> tensor<2x4x4x4xf32>
  %2 = mdl.tanh %x : tensor<2x4x8x8xf32>
  %3 = mdl.max_pool2d %2 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x4x8x8xf32> -> tensor<2x4x4x4xf32>
  return %1, %3 : tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>
}
