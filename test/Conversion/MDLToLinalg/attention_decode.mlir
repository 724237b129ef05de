// RUN: modelc-opt %s --convert-mdl-to-linalg --canonicalize --cse | FileCheck %s
// The decoding step: mdl.attention_decode writes the position's key and
// value into the caches at the run-time row (tensor.insert_slice at the
// position read from its tensor<i64>) and, in f32 with static sizes,
// becomes mdl.lib_attention_decode over the updated caches into a fresh
// [1, H, 1, D] tensor; the updated caches are its other two results. In
// f64 the query's attention over the caches is lowered unfused: the scores
// over every row, the rows after the position masked (iota <= position),
// the softmax, the product with the values. mdl.position_row is a
// one-row tensor.extract_slice at the position.

// CHECK-LABEL: func.func @step
// CHECK: %[[P:.*]] = tensor.extract %arg3[] : tensor<i64>
// CHECK: %[[ROW:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK: %[[K:.*]] = tensor.insert_slice %arg1 into %arg2[0, 0, %[[ROW]], 0] [1, 4, 1, 16] [1, 1, 1, 1] : tensor<1x4x1x16xf32> into tensor<1x4x64x16xf32>
// CHECK: %[[V:.*]] = tensor.insert_slice %arg1 into %arg4[0, 0, %[[ROW]], 0] [1, 4, 1, 16] [1, 1, 1, 1] : tensor<1x4x1x16xf32> into tensor<1x4x64x16xf32>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<1x4x1x16xf32>
// CHECK: %[[O:.*]] = mdl.lib_attention_decode %arg0, %[[K]], %[[V]], %arg3, %[[INIT]] : tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<i64>, tensor<1x4x1x16xf32> -> tensor<1x4x1x16xf32>
// CHECK: return %[[O]], %[[K]], %[[V]]
func.func @step(%q: tensor<1x4x1x16xf32>, %kv: tensor<1x4x1x16xf32>, %kc: tensor<1x4x64x16xf32>, %pos: tensor<i64>, %vc: tensor<1x4x64x16xf32>) -> (tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>) {
  %o, %k2, %v2 = mdl.attention_decode %q, %kv, %kv, %kc, %vc, %pos : tensor<1x4x1x16xf32>, tensor<1x4x1x16xf32>, tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<i64> -> tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>
  return %o, %k2, %v2 : tensor<1x4x1x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>
}

// CHECK-LABEL: func.func @step_f64
// CHECK-NOT: mdl.
// CHECK: %[[IOTA:.*]] = arith.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi64>
// CHECK: tensor.insert_slice %arg0 into %arg1[0, 0, %{{.*}}, 0] [1, 2, 1, 8] [1, 1, 1, 1]
// CHECK: linalg.batch_matmul
// CHECK: ins(%[[IOTA]], %arg2 : tensor<5xi64>, tensor<i64>)
// CHECK: arith.cmpi sle
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: mdl.
// CHECK: return
func.func @step_f64(%q: tensor<1x2x1x8xf64>, %c: tensor<1x2x5x8xf64>, %pos: tensor<i64>) -> tensor<1x2x1x8xf64> {
  %o, %k2, %v2 = mdl.attention_decode %q, %q, %q, %c, %c, %pos : tensor<1x2x1x8xf64>, tensor<1x2x1x8xf64>, tensor<1x2x1x8xf64>, tensor<1x2x5x8xf64>, tensor<1x2x5x8xf64>, tensor<i64> -> tensor<1x2x1x8xf64>, tensor<1x2x5x8xf64>, tensor<1x2x5x8xf64>
  return %o : tensor<1x2x1x8xf64>
}

// CHECK-LABEL: func.func @row
// CHECK: %[[P:.*]] = tensor.extract %arg1[] : tensor<i64>
// CHECK: %[[ROW:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK: %[[R:.*]] = tensor.extract_slice %arg0[%[[ROW]], 0] [1, 32] [1, 1] : tensor<64x32xf32> to tensor<1x32xf32>
// CHECK: return %[[R]]
func.func @row(%table: tensor<64x32xf32>, %pos: tensor<i64>) -> tensor<1x32xf32> {
  %r = mdl.position_row %table, %pos : tensor<64x32xf32>, tensor<i64> -> tensor<1x32xf32>
  return %r : tensor<1x32xf32>
}
