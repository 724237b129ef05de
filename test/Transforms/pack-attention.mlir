// RUN: modelc-opt %s --mdl-pack-attention --split-input-file | FileCheck %s
// mdl-pack-attention: self-attention on the three parts of one BxTx3xHxD
// tensor moved to BxHxTxD, its result moved back to BxTxHxD, becomes one
// mdl.attention_packed of the tensor; the moves, slices and reshapes left
// unused are erased. Anything else is left alone.

// CHECK-LABEL: func.func @packed
// CHECK-SAME: (%[[X:.*]]: tensor<?x8x384xf32>)
// CHECK: %[[R:.*]] = mdl.reshape %[[X]]
// CHECK-NEXT: %[[Y:.*]] = mdl.attention_packed %[[R]] {causal = true} : tensor<?x8x3x4x32xf32> -> tensor<?x8x4x32xf32>
// CHECK-NEXT: %[[O:.*]] = mdl.reshape %[[Y]]
// CHECK-NEXT: return %[[O]]
// CHECK-NOT: mdl.slice
// CHECK-NOT: mdl.transpose
// CHECK-NOT: mdl.attention %
func.func @packed(%x: tensor<?x8x384xf32>) -> tensor<?x8x128xf32> {
  %0 = mdl.reshape %x {shape = array<i64: -1, 8, 3, 4, 32>} : tensor<?x8x384xf32> -> tensor<?x8x3x4x32xf32>
  %1 = mdl.transpose %0 {permutation = array<i64: 0, 2, 3, 1, 4>} : tensor<?x8x3x4x32xf32> -> tensor<?x3x4x8x32xf32>
  %2 = mdl.slice %1 {size = array<i64: -1, 1, 4, 8, 32>, start = array<i64: 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<?x3x4x8x32xf32> -> tensor<?x1x4x8x32xf32>
  %3 = mdl.reshape %2 {shape = array<i64: -1, 4, 8, 32>} : tensor<?x1x4x8x32xf32> -> tensor<?x4x8x32xf32>
  %4 = mdl.slice %1 {size = array<i64: -1, 1, 4, 8, 32>, start = array<i64: 0, 1, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<?x3x4x8x32xf32> -> tensor<?x1x4x8x32xf32>
  %5 = mdl.reshape %4 {shape = array<i64: -1, 4, 8, 32>} : tensor<?x1x4x8x32xf32> -> tensor<?x4x8x32xf32>
  %6 = mdl.slice %1 {size = array<i64: -1, 1, 4, 8, 32>, start = array<i64: 0, 2, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<?x3x4x8x32xf32> -> tensor<?x1x4x8x32xf32>
  %7 = mdl.reshape %6 {shape = array<i64: -1, 4, 8, 32>} : tensor<?x1x4x8x32xf32> -> tensor<?x4x8x32xf32>
  %8 = mdl.attention %3, %5, %7 {causal = true} : tensor<?x4x8x32xf32>, tensor<?x4x8x32xf32>, tensor<?x4x8x32xf32> -> tensor<?x4x8x32xf32>
  %9 = mdl.transpose %8 {permutation = array<i64: 0, 2, 1, 3>} : tensor<?x4x8x32xf32> -> tensor<?x8x4x32xf32>
  %10 = mdl.reshape %9 {shape = array<i64: -1, 8, 128>} : tensor<?x8x4x32xf32> -> tensor<?x8x128xf32>
  return %10 : tensor<?x8x128xf32>
}

// -----

// A static batch, full attention; the key and value swapped: left alone.
// CHECK-LABEL: func.func @static_and_swapped
// CHECK: mdl.attention_packed %{{.*}} : tensor<2x5x3x1x4xf64> -> tensor<2x5x1x4xf64>
// CHECK: mdl.attention %{{.*}}, %{{.*}}, %{{.*}} :
func.func @static_and_swapped(%x: tensor<2x5x3x1x4xf64>) -> (tensor<2x5x1x4xf64>, tensor<2x5x1x4xf64>) {
  %1 = mdl.transpose %x {permutation = array<i64: 0, 2, 3, 1, 4>} : tensor<2x5x3x1x4xf64> -> tensor<2x3x1x5x4xf64>
  %2 = mdl.slice %1 {size = array<i64: 2, 1, 1, 5, 4>, start = array<i64: 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<2x3x1x5x4xf64> -> tensor<2x1x1x5x4xf64>
  %3 = mdl.reshape %2 {shape = array<i64: 2, 1, 5, 4>} : tensor<2x1x1x5x4xf64> -> tensor<2x1x5x4xf64>
  %4 = mdl.slice %1 {size = array<i64: 2, 1, 1, 5, 4>, start = array<i64: 0, 1, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<2x3x1x5x4xf64> -> tensor<2x1x1x5x4xf64>
  %5 = mdl.reshape %4 {shape = array<i64: 2, 1, 5, 4>} : tensor<2x1x1x5x4xf64> -> tensor<2x1x5x4xf64>
  %6 = mdl.slice %1 {size = array<i64: 2, 1, 1, 5, 4>, start = array<i64: 0, 2, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<2x3x1x5x4xf64> -> tensor<2x1x1x5x4xf64>
  %7 = mdl.reshape %6 {shape = array<i64: 2, 1, 5, 4>} : tensor<2x1x1x5x4xf64> -> tensor<2x1x5x4xf64>
  %8 = mdl.attention %3, %5, %7 : tensor<2x1x5x4xf64>, tensor<2x1x5x4xf64>, tensor<2x1x5x4xf64> -> tensor<2x1x5x4xf64>
  %9 = mdl.transpose %8 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x1x5x4xf64> -> tensor<2x5x1x4xf64>
  %10 = mdl.attention %3, %7, %5 : tensor<2x1x5x4xf64>, tensor<2x1x5x4xf64>, tensor<2x1x5x4xf64> -> tensor<2x1x5x4xf64>
  %11 = mdl.transpose %10 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x1x5x4xf64> -> tensor<2x5x1x4xf64>
  return %9, %11 : tensor<2x5x1x4xf64>, tensor<2x5x1x4xf64>
}

// -----

// The attention's result used beyond the move back, and a slice of every
// other position: both left alone.
// CHECK-LABEL: func.func @not_packed
// CHECK-NOT: mdl.attention_packed
// CHECK: mdl.attention %
// CHECK: mdl.attention %
// CHECK-NOT: mdl.attention_packed
func.func @not_packed(%x: tensor<2x4x3x1x4xf32>) -> (tensor<2x4x1x4xf32>, tensor<2x1x4x4xf32>, tensor<2x2x1x4xf32>) {
  %1 = mdl.transpose %x {permutation = array<i64: 0, 2, 3, 1, 4>} : tensor<2x4x3x1x4xf32> -> tensor<2x3x1x4x4xf32>
  %2 = mdl.slice %1 {size = array<i64: 2, 1, 1, 4, 4>, start = array<i64: 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<2x3x1x4x4xf32> -> tensor<2x1x1x4x4xf32>
  %3 = mdl.reshape %2 {shape = array<i64: 2, 1, 4, 4>} : tensor<2x1x1x4x4xf32> -> tensor<2x1x4x4xf32>
  %4 = mdl.slice %1 {size = array<i64: 2, 1, 1, 4, 4>, start = array<i64: 0, 1, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<2x3x1x4x4xf32> -> tensor<2x1x1x4x4xf32>
  %5 = mdl.reshape %4 {shape = array<i64: 2, 1, 4, 4>} : tensor<2x1x1x4x4xf32> -> tensor<2x1x4x4xf32>
  %6 = mdl.slice %1 {size = array<i64: 2, 1, 1, 4, 4>, start = array<i64: 0, 2, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1, 1>} : tensor<2x3x1x4x4xf32> -> tensor<2x1x1x4x4xf32>
  %7 = mdl.reshape %6 {shape = array<i64: 2, 1, 4, 4>} : tensor<2x1x1x4x4xf32> -> tensor<2x1x4x4xf32>
  %8 = mdl.attention %3, %5, %7 : tensor<2x1x4x4xf32>, tensor<2x1x4x4xf32>, tensor<2x1x4x4xf32> -> tensor<2x1x4x4xf32>
  %9 = mdl.transpose %8 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x1x4x4xf32> -> tensor<2x4x1x4xf32>
  %10 = mdl.slice %1 {size = array<i64: 2, 1, 1, 2, 4>, start = array<i64: 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1, 2, 1>} : tensor<2x3x1x4x4xf32> -> tensor<2x1x1x2x4xf32>
  %11 = mdl.reshape %10 {shape = array<i64: 2, 1, 2, 4>} : tensor<2x1x1x2x4xf32> -> tensor<2x1x2x4xf32>
  %12 = mdl.attention %11, %5, %7 : tensor<2x1x2x4xf32>, tensor<2x1x4x4xf32>, tensor<2x1x4x4xf32> -> tensor<2x1x2x4xf32>
  %13 = mdl.transpose %12 {permutation = array<i64: 0, 2, 1, 3>} : tensor<2x1x2x4xf32> -> tensor<2x2x1x4xf32>
  return %9, %8, %13 : tensor<2x4x1x4xf32>, tensor<2x1x4x4xf32>, tensor<2x2x1x4xf32>
}
