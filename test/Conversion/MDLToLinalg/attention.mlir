// RUN: modelc-opt %s --convert-mdl-to-linalg --canonicalize --cse | FileCheck %s
// f32 attention with static sizes beyond the batch becomes the library op
// into a fresh [B, H, T, D] tensor; its adjoint one lib_attention_grad into
// a flat buffer of B * H * (Tq + 2 Tk) * D values (768 per sample here),
// viewed as dQ, dK and dV (offsets 0, 256 B and 512 B). f64 attention is
// lowered unfused: the two products, the scale, the softmax.

// CHECK-LABEL: func.func @attention
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[O:.*]] = mdl.lib_attention %arg0, %arg0, %arg0, %{{.*}} {causal = true}
// CHECK: %[[N:.*]] = arith.muli %[[B]], %c768
// CHECK: %[[FLAT:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[D:.*]] = mdl.lib_attention_grad %arg0, %arg0, %arg0, %[[O]], %arg1, %[[FLAT]] {causal = true}
// CHECK: %[[AT:.*]] = arith.muli %[[B]], %c512
// CHECK: %[[LEN:.*]] = arith.muli %[[B]], %c256
// CHECK: %[[DV:.*]] = tensor.extract_slice %[[D]][%[[AT]]] [%[[LEN]]] [1]
// CHECK: %[[V:.*]] = tensor.expand_shape %[[DV]] {{\[}}[0, 1, 2, 3]] output_shape [%[[B]], 2, 8, 16]
// CHECK: return %[[O]], %[[V]]
func.func @attention(%q: tensor<?x2x8x16xf32>, %g: tensor<?x2x8x16xf32>) -> (tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>) {
  %o = mdl.attention %q, %q, %q {causal = true} : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32> -> tensor<?x2x8x16xf32>
  %dq, %dk, %dv = mdl.attention_grad %q, %q, %q, %o, %g {causal = true} : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32> -> tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>
  return %o, %dv : tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>
}

// CHECK-LABEL: func.func @attention_f64
// CHECK-NOT: mdl.
// CHECK: linalg.batch_matmul
// CHECK: math.exp
// CHECK: linalg.batch_matmul
// CHECK-NOT: mdl.
// CHECK: return
func.func @attention_f64(%q: tensor<?x2x4x8xf64>) -> tensor<?x2x4x8xf64> {
  %o = mdl.attention %q, %q, %q : tensor<?x2x4x8xf64>, tensor<?x2x4x8xf64>, tensor<?x2x4x8xf64> -> tensor<?x2x4x8xf64>
  return %o : tensor<?x2x4x8xf64>
}

// Packed attention in f32 becomes the packed library ops, each into a fresh
// tensor of its result's shape; in f64 the unfused form (the moves to
// BxHxTxD and back, the products, the three gradients joined).
// CHECK-LABEL: func.func @attention_packed
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[I:.*]] = tensor.empty(%[[B]]) : tensor<?x8x2x16xf32>
// CHECK: %[[O:.*]] = mdl.lib_attention_packed %arg0, %[[I]] {causal = true}
// CHECK: %[[D:.*]] = tensor.empty(%[[B]]) : tensor<?x8x3x2x16xf32>
// CHECK: mdl.lib_attention_packed_grad %arg0, %[[O]], %arg1, %[[D]] {causal = true}
func.func @attention_packed(%x: tensor<?x8x3x2x16xf32>, %g: tensor<?x8x2x16xf32>) -> tensor<?x8x3x2x16xf32> {
  %o = mdl.attention_packed %x {causal = true} : tensor<?x8x3x2x16xf32> -> tensor<?x8x2x16xf32>
  %d = mdl.attention_packed_grad %x, %o, %g {causal = true} : tensor<?x8x3x2x16xf32>, tensor<?x8x2x16xf32>, tensor<?x8x2x16xf32> -> tensor<?x8x3x2x16xf32>
  return %d : tensor<?x8x3x2x16xf32>
}

// CHECK-LABEL: func.func @attention_packed_f64
// CHECK-NOT: mdl.
// CHECK: linalg.batch_matmul
// CHECK: tensor.insert_slice
// CHECK-NOT: mdl.
// CHECK: return
func.func @attention_packed_f64(%x: tensor<2x5x3x1x4xf64>, %g: tensor<2x5x1x4xf64>) -> tensor<2x5x3x1x4xf64> {
  %o = mdl.attention_packed %x : tensor<2x5x3x1x4xf64> -> tensor<2x5x1x4xf64>
  %d = mdl.attention_packed_grad %x, %o, %g : tensor<2x5x3x1x4xf64>, tensor<2x5x1x4xf64>, tensor<2x5x1x4xf64> -> tensor<2x5x3x1x4xf64>
  return %d : tensor<2x5x3x1x4xf64>
}
