// RUN: modelc-opt %s --mdl-widen-low-precision --split-input-file | FileCheck %s
// mdl-widen-low-precision: an mdl op on bf16 or f16 tensors computes on f32
// operands (each widened by an mdl.cast) and rounds each bf16/f16 result
// back by one mdl.cast; casts, constants and f32/f64/integer ops are left
// as they are.

// CHECK-LABEL: func.func @product
// CHECK-DAG: %[[X:.*]] = mdl.cast %arg0 : tensor<?x784xbf16> -> tensor<?x784xf32>
// CHECK-DAG: %[[W:.*]] = mdl.cast %arg1 : tensor<784x32xbf16> -> tensor<784x32xf32>
// CHECK: %[[P:.*]] = mdl.matmul %[[X]], %[[W]] : tensor<?x784xf32>, tensor<784x32xf32> -> tensor<?x32xf32>
// CHECK: %[[R:.*]] = mdl.cast %[[P]] : tensor<?x32xf32> -> tensor<?x32xbf16>
// CHECK: %[[RW:.*]] = mdl.cast %[[R]] : tensor<?x32xbf16> -> tensor<?x32xf32>
// CHECK: %[[A:.*]] = mdl.relu %[[RW]] : tensor<?x32xf32>
// CHECK: %[[AR:.*]] = mdl.cast %[[A]] : tensor<?x32xf32> -> tensor<?x32xbf16>
// CHECK: return %[[AR]]
func.func @product(%x: tensor<?x784xbf16>, %w: tensor<784x32xbf16>) -> tensor<?x32xbf16> {
  %0 = mdl.matmul %x, %w : tensor<?x784xbf16>, tensor<784x32xbf16> -> tensor<?x32xbf16>
  %1 = mdl.relu %0 : tensor<?x32xbf16>
  return %1 : tensor<?x32xbf16>
}

// -----

// A constant stays f16 (its value is already rounded) and is widened where
// it is used; the f32 input's cast to f16 is the model's own and stays.
// CHECK-LABEL: func.func @scale
// CHECK: %[[H:.*]] = mdl.cast %arg0 : tensor<4xf32> -> tensor<4xf16>
// CHECK: %[[C:.*]] = mdl.constant dense<2.500000e-01> : tensor<f16>
// CHECK-DAG: %[[HW:.*]] = mdl.cast %[[H]] : tensor<4xf16> -> tensor<4xf32>
// CHECK-DAG: %[[CW:.*]] = mdl.cast %[[C]] : tensor<f16> -> tensor<f32>
// CHECK: %[[M:.*]] = mdl.mul %[[HW]], %[[CW]] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: mdl.cast %[[M]] : tensor<4xf32> -> tensor<4xf16>
func.func @scale(%x: tensor<4xf32>) -> tensor<4xf16> {
  %h = mdl.cast %x : tensor<4xf32> -> tensor<4xf16>
  %c = mdl.constant dense<0.25> : tensor<f16>
  %0 = mdl.mul %h, %c : tensor<4xf16>, tensor<f16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// A reduction to a bf16 scalar, and an op on f32 and integers, untouched.
// CHECK-LABEL: func.func @untouched
// CHECK: %[[S:.*]] = mdl.reduce_sum %{{.*}} {axes = array<i64: 0, 1>} : tensor<?x8xf32> -> tensor<f32>
// CHECK: mdl.cast %[[S]] : tensor<f32> -> tensor<bf16>
// CHECK-NEXT: mdl.relu %arg1 : tensor<3xf32>
// CHECK-NEXT: return
func.func @untouched(%x: tensor<?x8xbf16>, %y: tensor<3xf32>) -> (tensor<bf16>, tensor<3xf32>) {
  %0 = mdl.reduce_sum %x {axes = array<i64: 0, 1>} : tensor<?x8xbf16> -> tensor<bf16>
  %1 = mdl.relu %y : tensor<3xf32>
  return %0, %1 : tensor<bf16>, tensor<3xf32>
}

// -----

// Ops of other dialects are left alone.
// CHECK-LABEL: func.func @other_dialect
// CHECK-NEXT: tensor.empty() : tensor<4xbf16>
// CHECK-NEXT: return
func.func @other_dialect() -> tensor<4xbf16> {
  %0 = tensor.empty() : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
