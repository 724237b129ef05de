// RUN: modelc-opt %s --split-input-file --modelc-gpu-map-loops=block-size=128 | FileCheck %s

// A 2-D loop is linearised (indices recovered with rem/div, innermost
// first), tiled by the block size with a guard, and mapped: tiles to
// block x, the intra-tile loop to thread x.
// CHECK-LABEL: func.func @add2d
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %arg2 : index
// CHECK: %[[TOTAL:.*]] = arith.muli %[[ROWS]], %c10 : index
// CHECK: %[[BLOCK:.*]] = arith.muli %{{.*}}, %c128 : index
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[TOTAL]]) step (%[[BLOCK]])
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[BLOCK]])
// CHECK: arith.cmpi ult, %{{.*}}, %[[TOTAL]] : index
// CHECK: scf.if
// CHECK: %[[J:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: %[[K:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: memref.load %{{.*}}[%[[K]], %[[J]]]
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @add2d(%a: memref<?x10xf32>, %b: memref<?x10xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c10) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x10xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i, %j] : memref<?x10xf32>
    scf.reduce
  }
  return
}

// -----

// A loop nested in a mapped one runs sequentially in its thread.
// CHECK-LABEL: func.func @nested
// CHECK: processor = sequential
// CHECK: processor = thread_x
// CHECK: processor = block_x
func.func @nested(%a: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
      memref.store %f, %a[%i, %j] : memref<4x8xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}
