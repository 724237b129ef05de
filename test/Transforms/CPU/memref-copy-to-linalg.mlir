// RUN: modelc-opt %s --split-input-file --modelc-memref-copy-to-linalg | FileCheck %s

// A copy into a strided view (a pad's interior) becomes linalg.copy, which
// lowers to loops instead of a call to memrefCopy.
func.func @into_view(%src: memref<2x3xf32>, %dst: memref<4x5xf32>) {
  %view = memref.subview %dst[1, 1] [2, 3] [1, 1] : memref<4x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  memref.copy %src, %view : memref<2x3xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  return
}
// CHECK-LABEL: func.func @into_view(
// CHECK-SAME: %[[SRC:.*]]: memref<2x3xf32>, %[[DST:.*]]: memref<4x5xf32>)
// CHECK: %[[VIEW:.*]] = memref.subview %[[DST]]
// CHECK-NEXT: linalg.copy ins(%[[SRC]] : memref<2x3xf32>) outs(%[[VIEW]] : memref<2x3xf32, strided<[5, 1], offset: 6>>)
// CHECK-NOT: memref.copy

// -----

// So does a copy out of one (a slice's source).
func.func @from_view(%src: memref<4x5xf32>, %dst: memref<2x3xf32>) {
  %view = memref.subview %src[0, 2] [2, 3] [1, 1] : memref<4x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 2>>
  memref.copy %view, %dst : memref<2x3xf32, strided<[5, 1], offset: 2>> to memref<2x3xf32>
  return
}
// CHECK-LABEL: func.func @from_view(
// CHECK: linalg.copy ins(%{{.*}} : memref<2x3xf32, strided<[5, 1], offset: 2>>) outs(%{{.*}} : memref<2x3xf32>)
// CHECK-NOT: memref.copy

// -----

// A copy between contiguous buffers stays: it lowers to a memcpy.
func.func @contiguous(%src: memref<2x3xf32>, %dst: memref<2x3xf32>) {
  memref.copy %src, %dst : memref<2x3xf32> to memref<2x3xf32>
  return
}
// CHECK-LABEL: func.func @contiguous(
// CHECK-NEXT: memref.copy
// CHECK-NOT: linalg.copy
