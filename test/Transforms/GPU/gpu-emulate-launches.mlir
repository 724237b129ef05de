// RUN: modelc-opt %s --split-input-file --modelc-gpu-emulate-launches --canonicalize | FileCheck %s

// A launch becomes loops over blocks (x, y, z) and threads (x, y, z); the
// ids are the loop indices, the sizes the launch operands; the function is
// marked for the host math approximations.
// CHECK-LABEL: func.func @fill
// CHECK-SAME: attributes {modelc.approximate}
// CHECK: scf.for %[[B:.*]] = %c0 to %arg1 step %c1 {
// CHECK: scf.for %[[T:.*]] = %c0 to %c4 step %c1 {
// CHECK: %[[BASE:.*]] = arith.muli %[[B]], %c4 : index
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[T]] : index
// CHECK: memref.store %{{.*}}, %arg0[%[[I]]] : memref<?xf32>
// CHECK-NOT: gpu.launch
func.func @fill(%a: memref<?xf32>, %blocks: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    memref.store %f, %a[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Functions without launches are left alone.
// CHECK-LABEL: func.func @host
// CHECK-NOT: modelc.approximate
func.func @host(%x: f32) -> f32 {
  %r = math.exp %x : f32
  return %r : f32
}
