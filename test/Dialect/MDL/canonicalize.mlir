// RUN: modelc-opt %s -canonicalize | FileCheck %s
// Folders of the shape ops and cast under -canonicalize.

// CHECK-LABEL: func.func @transpose_of_transpose_is_identity(
// CHECK-SAME: %[[X:[a-z0-9]+]]
// CHECK-NOT: mdl.transpose
// CHECK: return %[[X]]
func.func @transpose_of_transpose_is_identity(%x: tensor<?x8x16xf32>) -> tensor<?x8x16xf32> {
  %0 = mdl.transpose %x {permutation = array<i64: 0, 2, 1>} : tensor<?x8x16xf32> -> tensor<?x16x8xf32>
  %1 = mdl.transpose %0 {permutation = array<i64: 0, 2, 1>} : tensor<?x16x8xf32> -> tensor<?x8x16xf32>
  return %1 : tensor<?x8x16xf32>
}

// CHECK-LABEL: func.func @transpose_composes(
// CHECK-SAME: %[[X:[a-z0-9]+]]
// CHECK-NEXT: %[[T:.*]] = mdl.transpose %[[X]] {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_composes(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = mdl.transpose %x {permutation = array<i64: 1, 0, 2>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %1 = mdl.transpose %0 {permutation = array<i64: 2, 1, 0>} : tensor<3x2x4xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @identity_transpose(
// CHECK-NOT: mdl.transpose
func.func @identity_transpose(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mdl.transpose %x {permutation = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @reshape_same_shape(
// CHECK-NOT: mdl.reshape
func.func @reshape_same_shape(%x: tensor<?x6xf32>) -> tensor<?x6xf32> {
  %0 = mdl.reshape %x {shape = array<i64: -1, 6>} : tensor<?x6xf32> -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}

// CHECK-LABEL: func.func @reshape_of_reshape(
// CHECK-SAME: %[[X:[a-z0-9]+]]
// CHECK-NEXT: %[[R:.*]] = mdl.reshape %[[X]] {shape = array<i64: -1, 3, 2>} : tensor<?x6xf32> -> tensor<?x3x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%x: tensor<?x6xf32>) -> tensor<?x3x2xf32> {
  %0 = mdl.reshape %x {shape = array<i64: -1, 2, 3>} : tensor<?x6xf32> -> tensor<?x2x3xf32>
  %1 = mdl.reshape %0 {shape = array<i64: -1, 3, 2>} : tensor<?x2x3xf32> -> tensor<?x3x2xf32>
  return %1 : tensor<?x3x2xf32>
}

// CHECK-LABEL: func.func @reshape_back_to_input(
// CHECK-SAME: %[[X:[a-z0-9]+]]
// CHECK-NOT: mdl.reshape
// CHECK: return %[[X]]
func.func @reshape_back_to_input(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = mdl.reshape %x {shape = array<i64: 24>} : tensor<4x6xf32> -> tensor<24xf32>
  %1 = mdl.reshape %0 {shape = array<i64: 4, 6>} : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @noop_flatten_cast_broadcast(
// CHECK-NOT: mdl.
// CHECK: return
func.func @noop_flatten_cast_broadcast(%x: tensor<?x6xf32>, %y: tensor<3xf32>) -> (tensor<?x6xf32>, tensor<3xf32>) {
  %0 = mdl.flatten %x : tensor<?x6xf32> -> tensor<?x6xf32>
  %1 = mdl.cast %0 : tensor<?x6xf32> -> tensor<?x6xf32>
  %2 = mdl.broadcast_to %y {shape = array<i64: 3>} : tensor<3xf32> -> tensor<3xf32>
  return %1, %2 : tensor<?x6xf32>, tensor<3xf32>
}

// A real cast and a dynamic broadcast stay.
// CHECK-LABEL: func.func @kept(
// CHECK: mdl.cast
// CHECK: mdl.broadcast_to
func.func @kept(%x: tensor<?xi64>, %b: tensor<?x3xf32>) -> (tensor<?xf32>, tensor<?x3xf32>) {
  %0 = mdl.cast %x : tensor<?xi64> -> tensor<?xf32>
  %1 = mdl.broadcast_to %b like %b : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %0, %1 : tensor<?xf32>, tensor<?x3xf32>
}

// Unused pure ops are removed; state writes are kept.
// CHECK-LABEL: func.func @dead_code(
// CHECK-NOT: mdl.relu
// CHECK: mdl.state_write
mdl.state @s : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @dead_code(%x: tensor<3xf32>) {
  %0 = mdl.relu %x : tensor<3xf32>
  mdl.state_write @s, %x : tensor<3xf32>
  return
}
