// modelc-expand-library-ops works on tensors: a library op already on
// memrefs (after bufferization) is reported at its location.
// RUN: not modelc-opt %s --modelc-expand-library-ops 2>&1 | FileCheck %s

// CHECK: expand-library-ops-errors.mlir:[[@LINE+2]]:3: error: 'mdl.lib_conv2d' op works on memrefs and cannot be expanded; expand library ops before bufferization
func.func @on_memrefs(%x: memref<2x1x5x5xf32>, %w: memref<4x1x3x3xf32>, %y: memref<2x4x3x3xf32>) {
  mdl.lib_conv2d %x, %w, %y : memref<2x1x5x5xf32>, memref<4x1x3x3xf32>, memref<2x4x3x3xf32>
  return
}
