// RUN: not modelc-opt %s -split-input-file --modelc-library-to-calls 2>&1 | FileCheck %s
// modelc-library-to-calls runs after bufferization: a library op still on
// tensors is reported at its location; and a symbol of a runtime entry
// point's name with another signature is reported at the module.

// CHECK: library-to-calls-errors.mlir:[[@LINE+2]]:8: error: 'mdl.lib_conv2d' op is still on tensors: library calls are made after bufferization
func.func @tensors(%x: tensor<2x1x5x5xf32>, %w: tensor<4x1x3x3xf32>, %y: tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32> {
  %0 = mdl.lib_conv2d %x, %w, %y : tensor<2x1x5x5xf32>, tensor<4x1x3x3xf32>, tensor<2x4x3x3xf32> -> tensor<2x4x3x3xf32>
  return %0 : tensor<2x4x3x3xf32>
}

// -----

// A max pooling and its gradient still on tensors are not paired for
// codes: the first is reported.
// CHECK: library-to-calls-errors.mlir:[[@LINE+2]]:8: error: 'mdl.lib_max_pool2d' op is still on tensors: library calls are made after bufferization
func.func @pool_tensors(%x: tensor<2x1x4x4xf32>, %y: tensor<2x1x2x2xf32>, %dx: tensor<2x1x4x4xf32>) -> tensor<2x1x4x4xf32> {
  %0 = mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x1x4x4xf32>, tensor<2x1x2x2xf32> -> tensor<2x1x2x2xf32>
  %1 = mdl.lib_max_pool2d_grad %0, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<2x1x2x2xf32>, tensor<2x1x4x4xf32>, tensor<2x1x4x4xf32> -> tensor<2x1x4x4xf32>
  return %1 : tensor<2x1x4x4xf32>
}

// -----

// CHECK: library-to-calls-errors.mlir:[[@LINE+1]]:1: error: symbol 'modelrt_max_pool2d_forward' already exists with a signature other than the runtime's
module {
  func.func private @modelrt_max_pool2d_forward(i32)
  func.func @pool(%x: memref<2x8x7x5xf32>, %y: memref<2x8x3x2xf32>) {
    mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x7x5xf32>, memref<2x8x3x2xf32>
    return
  }
}

// -----

// On the GPU, only attention and the convolutions have runtime entry
// points: pooling must have been expanded (modelc-expand-library-ops)
// before bufferization.
// RUN: not modelc-opt %s -split-input-file --modelc-library-to-calls=gpu=true 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: library-to-calls-errors.mlir:[[@LINE+2]]:3: error: 'mdl.lib_max_pool2d' op has no GPU entry point: the GPU pipeline expands (or splits) it before bufferization
func.func @pool_on_gpu(%x: memref<2x8x7x5xf32>, %y: memref<2x8x3x2xf32>) {
  mdl.lib_max_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : memref<2x8x7x5xf32>, memref<2x8x3x2xf32>
  return
}

// -----

// A convolution with a bias has no GPU entry point either: the GPU
// pipelines split it into lib_conv2d and the addition first.
// GPU: library-to-calls-errors.mlir:[[@LINE+2]]:3: error: 'mdl.lib_conv2d_bias' op has no GPU entry point: the GPU pipeline expands (or splits) it before bufferization
func.func @conv_bias_on_gpu(%x: memref<2x1x5x5xf32>, %w: memref<4x1x3x3xf32>, %b: memref<4xf32>, %y: memref<2x4x3x3xf32>) {
  mdl.lib_conv2d_bias %x, %w, %b, %y : memref<2x1x5x5xf32>, memref<4x1x3x3xf32>, memref<4xf32>, memref<2x4x3x3xf32>
  return
}
