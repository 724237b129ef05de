// RUN: modelc-backend-test %s --last-stage=blas | FileCheck %s

// A product whose output starts as zeros: sgemm overwrites it (beta = 0)
// and the zero fill is gone (no memset before the call).
func.func @zero_init(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @zero_init(
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.generic
// CHECK-DAG: [[ONE:%.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: [[ZERO:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK: call @cblas_sgemm(%c101_i32, %c111_i32, %c111_i32, %c4_i32, %c3_i32, %c5_i32, [[ONE]], %{{.*}}, %c5_i32, %{{.*}}, %c3_i32, [[ZERO]], %{{.*}}, %c3_i32)
// CHECK-NEXT: return

// Starting from ones, the product accumulates (beta = 1) and the fill stays.
func.func @one_init(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %z = linalg.fill ins(%one : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @one_init(
// CHECK: [[ONE2:%.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.generic
// CHECK: call @cblas_sgemm(%c101_i32, %c111_i32, %c111_i32, %c4_i32, %c3_i32, %c5_i32, [[ONE2]], %{{.*}}, %c5_i32, %{{.*}}, %c3_i32, [[ONE2]], %{{.*}}, %c3_i32)

// A zero fill of a buffer that is also read before the product (here: the
// product's output is the running sum of two products): only the first
// product overwrites; the second accumulates.
func.func @two_products(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %c: tensor<4x5xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  %s = linalg.matmul ins(%c, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%r : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @two_products(
// CHECK-NOT: linalg.generic
// CHECK-DAG: [[ONE3:%.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: [[ZERO3:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK: call @cblas_sgemm({{.*}}, [[ZERO3]], %{{.*}}, %c3_i32)
// CHECK: call @cblas_sgemm({{.*}}, [[ONE3]], %{{.*}}, %c3_i32)

// One zero tensor as the init of two products (CSE merges their fills):
// bufferization gives one product a copy of the zero-filled buffer. Both
// products overwrite (beta = 0), and the copy and the fill are gone; a third
// product accumulates into the second's result (beta = 1).
func.func @shared_zero(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %c: tensor<4x5xf32>, %w: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  %s = linalg.matmul ins(%c, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  %t = linalg.matmul ins(%r, %w : tensor<4x3xf32>, tensor<3x3xf32>) outs(%s : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %t : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @shared_zero(
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.copy
// CHECK-DAG: [[ONE4:%.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: [[ZERO4:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK: call @cblas_sgemm({{.*}}, [[ZERO4]], %{{.*}}, %c3_i32)
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.copy
// CHECK: call @cblas_sgemm({{.*}}, [[ZERO4]], %{{.*}}, %c3_i32)
// CHECK: call @cblas_sgemm({{.*}}, [[ONE4]], %{{.*}}, %c3_i32)

// A copy of a buffer that a product wrote after its zero fill holds no
// zeros: two products accumulate into copies of the first one's result
// (beta = 1); only the first overwrites.
func.func @zero_then_written(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %c: tensor<4x5xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  %s = linalg.matmul ins(%c, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%r : tensor<4x3xf32>) -> tensor<4x3xf32>
  %t = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%r : tensor<4x3xf32>) -> tensor<4x3xf32>
  %w = linalg.add ins(%s, %t : tensor<4x3xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %w : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @zero_then_written(
// CHECK-DAG: [[ONE5:%.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: [[ZERO5:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK: call @cblas_sgemm({{.*}}, [[ZERO5]], %{{.*}}, %c3_i32)
// CHECK: memref.copy
// CHECK: call @cblas_sgemm({{.*}}, [[ONE5]], %{{.*}}, %c3_i32)
// CHECK: call @cblas_sgemm({{.*}}, [[ONE5]], %{{.*}}, %c3_i32)
