// RUN: modelc-opt %s --split-input-file --modelc-gpu-fuse-loops | FileCheck %s

// An allocation between two loops over the same rows moves above the first;
// the loops, now adjacent, become one (the second reads what the same
// iteration of the first wrote). Only buffers that cannot alias count: the
// first loop reads the argument %x, so the merged loop must not write
// another argument (two arguments may alias).
func.func @alloc_between(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %a = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
    scf.reduce
  }
  %b = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %b[%i] : memref<?xf32>
    scf.reduce
  }
  memref.copy %b, %y : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
// CHECK-LABEL: func.func @alloc_between(
// CHECK: %[[A:.*]] = memref.alloc
// CHECK: %[[B:.*]] = memref.alloc
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK-NOT: scf.parallel
// CHECK: memref.copy
// CHECK: return

// -----

// Adjacent one-iteration loops (scalar work on one thread) merge, their
// bodies in order, although their 0-d accesses do not name the loop index.
func.func @scalar_loops(%cell: memref<f32>, %x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %zero, %cell[] : memref<f32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %x[%j] : memref<4xf32>
      %s = memref.load %cell[] : memref<f32>
      %t = arith.addf %s, %v : f32
      memref.store %t, %cell[] : memref<f32>
    }
    scf.reduce
  }
  return
}
// CHECK-LABEL: func.func @scalar_loops(
// CHECK: scf.parallel
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.parallel
// CHECK: return

// -----

// A call between two loops (here an sgemm) stays where it is: the loops are
// not merged across it.
func.func private @sgemm(memref<?xf32>)
func.func @call_between(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %y[%i] : memref<?xf32>
    scf.reduce
  }
  func.call @sgemm(%y) : (memref<?xf32>) -> ()
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %y[%i] : memref<?xf32>
    memref.store %v, %x[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
// CHECK-LABEL: func.func @call_between(
// CHECK: scf.parallel
// CHECK: call @sgemm
// CHECK: scf.parallel

// -----

// A loop that reads another row of what the previous loop wrote (a
// neighbour, as a reduction across threads would) is not merged: another
// thread writes it.
func.func @other_index(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%c0] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
    scf.reduce
  }
  memref.copy %b, %y : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
// CHECK-LABEL: func.func @other_index(
// CHECK: scf.parallel
// CHECK: scf.parallel

// -----

// Loops over different bounds stay apart; a one-iteration loop after a
// loop of several iterations is not merged into it.
func.func @different_bounds(%x: memref<8xf32>, %cell: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %zero, %x[%i] : memref<8xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %zero, %cell[] : memref<f32>
    scf.reduce
  }
  return
}
// CHECK-LABEL: func.func @different_bounds(
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
