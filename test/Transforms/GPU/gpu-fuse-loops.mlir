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

// -----

// A run of three loops with allocations and views between each: the ops
// move above the first loop of the run (not just above the previous loop),
// and a bias gradient's zero fill fuses with its reduction over the batch,
// one thread per channel, the inner loops sequential.
// The source is a local buffer: an argument might alias %grad, which the
// fill writes.
func.func @run_of_loops(%grad: memref<8xf32>, %input: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %input, %c0 : memref<?x8xf32>
  %src = memref.alloc(%n) : memref<?x8xf32>
  memref.copy %input, %src : memref<?x8xf32> to memref<?x8xf32>
  scf.parallel (%c) = (%c0) to (%c8) step (%c1) {
    memref.store %zero, %grad[%c] : memref<8xf32>
    scf.reduce
  }
  %a = memref.alloc(%n) : memref<?x16xf32>
  %view = memref.collapse_shape %a [[0, 1]] : memref<?x16xf32> into memref<?xf32>
  scf.parallel (%c) = (%c0) to (%c8) step (%c1) {
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %src[%i, %c] : memref<?x8xf32>
      %g = memref.load %grad[%c] : memref<8xf32>
      %s = arith.addf %v, %g : f32
      memref.store %s, %grad[%c] : memref<8xf32>
    }
    scf.reduce
  }
  %b = memref.alloc(%n) : memref<?x16xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c16) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<?x16xf32>
    memref.store %v, %b[%i, %j] : memref<?x16xf32>
    scf.reduce
  }
  memref.dealloc %a : memref<?x16xf32>
  memref.dealloc %b : memref<?x16xf32>
  memref.dealloc %src : memref<?x8xf32>
  return
}
// CHECK-LABEL: func.func @run_of_loops(
// CHECK: memref.copy
// CHECK: memref.alloc
// CHECK: memref.collapse_shape
// CHECK: memref.alloc
// CHECK: scf.parallel
// CHECK-NEXT: memref.store %{{.*}}, %arg0[
// CHECK-NEXT: scf.for
// CHECK: scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: memref.dealloc
