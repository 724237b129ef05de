// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.dropout returns output and mask: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @dropout(
// CHECK: %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = mdl.dropout %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {rate = 2.500000e-01 : f64} : tensor<?x128xf32>, tensor<i64> -> tensor<?x128xf32>, tensor<?x128xi1>
// CHECK: return %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<?x128xf32>, tensor<?x128xi1>

func.func @dropout(%x: tensor<?x128xf32>, %seed: tensor<i64>) -> (tensor<?x128xf32>, tensor<?x128xi1>) {
  %y, %mask = mdl.dropout %x, %seed {rate = 2.500000e-01 : f64} : tensor<?x128xf32>, tensor<i64> -> tensor<?x128xf32>, tensor<?x128xi1>
  return %y, %mask : tensor<?x128xf32>, tensor<?x128xi1>
}
