// RUN: modelc-opt %s --split-input-file --modelc-matmul-to-blas | FileCheck %s --check-prefix=CPU
// RUN: modelc-opt %s --split-input-file --modelc-matmul-to-blas="callee=modelrt_cuda_sgemm bf16-callee=modelrt_cuda_gemm_bf16 tf32-callee=modelrt_cuda_gemm_tf32" | FileCheck %s --check-prefix=GPU
// modelc-matmul-to-blas calls the function of the module's precision
// (mdl.precision): `callee` in f32 (no attribute), `bf16-callee` in bf16,
// `tf32-callee` in tf32, or `callee` when that option is empty, as on the
// CPU (its tf32 products are f32). The GPU pipeline's options name the
// runtime's three cuBLAS entry points.

// No precision: f32.
// CPU-LABEL: func.func @f32(
// CPU: call @cblas_sgemm(
// GPU-LABEL: func.func @f32(
// GPU: call @modelrt_cuda_sgemm(
module {
  func.func @f32(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
    linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
    return
  }
}

// -----

// bf16: the CPU's bf16 products, the GPU's cuBLAS bf16 entry point.
// CPU-LABEL: func.func @bf16(
// CPU: call @modelrt_gemm_bf16(
// GPU-LABEL: func.func @bf16(
// GPU: call @modelrt_cuda_gemm_bf16(
module attributes {mdl.precision = "bf16"} {
  func.func @bf16(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
    linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
    return
  }
}

// -----

// tf32: f32 on the CPU, the GPU's cuBLAS TF32 entry point.
// CPU-LABEL: func.func @tf32(
// CPU: call @cblas_sgemm(
// GPU-LABEL: func.func @tf32(
// GPU: call @modelrt_cuda_gemm_tf32(
module attributes {mdl.precision = "tf32"} {
  func.func @tf32(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
    linalg.matmul ins(%a, %b : memref<4x5xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
    return
  }
}
