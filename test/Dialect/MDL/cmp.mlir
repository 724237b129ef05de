// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.cmp with every predicate: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @cmp(
// CHECK: %{{[a-z0-9_]+}} = mdl.cmp eq, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
// CHECK: %{{[a-z0-9_]+}} = mdl.cmp ne, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
// CHECK: %{{[a-z0-9_]+}} = mdl.cmp lt, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
// CHECK: %{{[a-z0-9_]+}} = mdl.cmp le, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
// CHECK: %{{[a-z0-9_]+}} = mdl.cmp gt, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
// CHECK: %{{[a-z0-9_]+}} = mdl.cmp ge, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?xi64>, tensor<?xi64> -> tensor<?xi1>
// CHECK: return %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x10xi1>, tensor<?xi1>

func.func @cmp(%x: tensor<?x10xf32>, %z: tensor<f32>, %i: tensor<?xi64>, %j: tensor<?xi64>) -> (tensor<?x10xi1>, tensor<?xi1>) {
  %eq = mdl.cmp eq, %x, %z : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
  %ne = mdl.cmp ne, %x, %z : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
  %lt = mdl.cmp lt, %x, %z : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
  %le = mdl.cmp le, %x, %z : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
  %gt = mdl.cmp gt, %x, %z : tensor<?x10xf32>, tensor<f32> -> tensor<?x10xi1>
  %ge = mdl.cmp ge, %i, %j : tensor<?xi64>, tensor<?xi64> -> tensor<?xi1>
  return %gt, %ge : tensor<?x10xi1>, tensor<?xi1>
}
