// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.attention and mdl.attention_grad: self-attention over a
// dynamic batch, and a causal decoding shape (2 queries over 6 keys).

// CHECK-LABEL: func.func @attention(
// CHECK: mdl.attention %{{.*}}, %{{.*}}, %{{.*}} {causal = true} : tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32> -> tensor<?x4x8x16xf32>
// CHECK: mdl.attention_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {causal = true} : tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32> -> tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>
// CHECK-LABEL: func.func @decode(
// CHECK: mdl.attention %{{.*}}, %{{.*}}, %{{.*}} {causal = true} : tensor<1x2x2x8xf64>, tensor<1x2x6x8xf64>, tensor<1x2x6x8xf64> -> tensor<1x2x2x8xf64>
func.func @attention(%q: tensor<?x4x8x16xf32>, %g: tensor<?x4x8x16xf32>) -> tensor<?x4x8x16xf32> {
  %o = mdl.attention %q, %q, %q {causal = true} : tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32> -> tensor<?x4x8x16xf32>
  %dq, %dk, %dv = mdl.attention_grad %q, %q, %q, %o, %g {causal = true} : tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32> -> tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>
  return %dq : tensor<?x4x8x16xf32>
}
func.func @decode(%q: tensor<1x2x2x8xf64>, %k: tensor<1x2x6x8xf64>) -> tensor<1x2x2x8xf64> {
  %o = mdl.attention %q, %k, %k {causal = true} : tensor<1x2x2x8xf64>, tensor<1x2x6x8xf64>, tensor<1x2x6x8xf64> -> tensor<1x2x2x8xf64>
  return %o : tensor<1x2x2x8xf64>
}
