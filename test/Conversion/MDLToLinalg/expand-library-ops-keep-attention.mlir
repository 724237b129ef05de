// modelc-expand-library-ops{keep-attention-width=N} (the GPU pipeline):
// attention ops whose heads are at most N wide stay for the fused GPU
// kernels; wider heads, the decoding step and the convolutions are
// expanded as without the option.
// RUN: modelc-opt %s --modelc-expand-library-ops=keep-attention-width=8 | FileCheck %s
// RUN: modelc-opt %s --modelc-expand-library-ops | FileCheck %s --check-prefix=ALL

// CHECK-LABEL: func.func @narrow
// CHECK: mdl.lib_attention %{{.*}} {causal = true}
// CHECK: mdl.lib_attention_grad
// CHECK-NOT: linalg.batch_matmul
// CHECK: return
// ALL-LABEL: func.func @narrow
// ALL-NOT: mdl.lib_attention
// ALL: linalg.batch_matmul
func.func @narrow(%q: tensor<?x2x4x8xf32>, %init: tensor<?x2x4x8xf32>, %flat: tensor<?xf32>) -> (tensor<?x2x4x8xf32>, tensor<?xf32>) {
  %o = mdl.lib_attention %q, %q, %q, %init {causal = true} : tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32> -> tensor<?x2x4x8xf32>
  %d = mdl.lib_attention_grad %q, %q, %q, %o, %init, %flat {causal = true} : tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?x2x4x8xf32>, tensor<?xf32> -> tensor<?xf32>
  return %o, %d : tensor<?x2x4x8xf32>, tensor<?xf32>
}

// CHECK-LABEL: func.func @packed
// CHECK: mdl.lib_attention_packed %{{.*}} {causal = true}
// CHECK: mdl.lib_attention_packed_grad
func.func @packed(%x: tensor<?x4x3x2x8xf32>, %o: tensor<?x4x2x8xf32>) -> (tensor<?x4x2x8xf32>, tensor<?x4x3x2x8xf32>) {
  %y = mdl.lib_attention_packed %x, %o {causal = true} : tensor<?x4x3x2x8xf32>, tensor<?x4x2x8xf32> -> tensor<?x4x2x8xf32>
  %d = mdl.lib_attention_packed_grad %x, %y, %o, %x : tensor<?x4x3x2x8xf32>, tensor<?x4x2x8xf32>, tensor<?x4x2x8xf32>, tensor<?x4x3x2x8xf32> -> tensor<?x4x3x2x8xf32>
  return %y, %d : tensor<?x4x2x8xf32>, tensor<?x4x3x2x8xf32>
}

// Heads of 16 are wider than the limit: the unfused products. The causal
// mask is computed from the indices (j <= i + Tk - Tq), not a constant: a
// GPU kernel reading a constant held in host memory faulted on the H200.
// CHECK-LABEL: func.func @wide
// CHECK-NOT: mdl.lib_attention
// CHECK-NOT: tensor<4x4xi1> = dense
// CHECK: linalg.batch_matmul
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK: arith.cmpi sle
// CHECK: arith.select
func.func @wide(%q: tensor<1x2x4x16xf32>, %init: tensor<1x2x4x16xf32>) -> tensor<1x2x4x16xf32> {
  %o = mdl.lib_attention %q, %q, %q, %init {causal = true} : tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32> -> tensor<1x2x4x16xf32>
  return %o : tensor<1x2x4x16xf32>
}
