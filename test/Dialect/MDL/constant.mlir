// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.constant splat and dense: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK-LABEL: func.func @constant(
// CHECK: %{{[a-z0-9_]+}} = mdl.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %{{[a-z0-9_]+}} = mdl.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf64>
// CHECK: %{{[a-z0-9_]+}} = mdl.constant dense<[1, 2, 3]> : tensor<3xi64>
// CHECK: %{{[a-z0-9_]+}} = mdl.constant dense<[true, false]> : tensor<2xi1>
// CHECK: return %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<f32>, tensor<2x2xf64>, tensor<3xi64>, tensor<2xi1>

func.func @constant() -> (tensor<f32>, tensor<2x2xf64>, tensor<3xi64>, tensor<2xi1>) {
  %0 = mdl.constant dense<5.000000e-01> : tensor<f32>
  %1 = mdl.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  %2 = mdl.constant dense<[1, 2, 3]> : tensor<3xi64>
  %3 = mdl.constant dense<[true, false]> : tensor<2xi1>
  return %0, %1, %2, %3 : tensor<f32>, tensor<2x2xf64>, tensor<3xi64>, tensor<2xi1>
}
