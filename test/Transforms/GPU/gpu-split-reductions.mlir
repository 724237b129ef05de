// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(modelc-gpu-split-reductions))' | FileCheck %s

// A bias gradient: 256 column sums over a dynamic batch. The batch counts
// as 256 rows, so K = 16: stage 1 sums rows k, k + 16, ... of each column
// into partial[k, column] (the column varies fastest between threads: the
// rows are not along the buffer's last dimension); stage 2 adds the 16
// partial sums onto the initial value, in order.
// CHECK-LABEL: func.func @column_sums
// CHECK: %[[P:.*]] = memref.alloc() : memref<16x256xf32>
// CHECK: scf.parallel (%[[K:.*]], %[[C:.*]]) = ({{.*}}) to (%c16{{.*}}, %c256{{.*}})
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[S:.*]] = scf.for %{{.*}} = %[[K]] to %{{.*}} step %c16{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
// CHECK: memref.load %arg1[%{{.*}}, %[[C]]] : memref<?x256xf32>
// CHECK: memref.store %[[S]], %[[P]][%[[K]], %[[C]]] : memref<16x256xf32>
// CHECK: scf.parallel (%[[C2:.*]]) = (%c0) to (%c256) step (%c1)
// CHECK: %[[T:.*]] = scf.for %[[I:.*]] = %{{.*}} to %c16{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %arg2) -> (f32)
// CHECK-NEXT: %[[X:.*]] = memref.load %[[P]][%[[I]], %[[C2]]] : memref<16x256xf32>
// CHECK-NEXT: %[[N:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK-NEXT: scf.yield %[[N]] : f32
// CHECK: memref.store %[[T]], %arg0[%[[C2]]] : memref<256xf32>
// CHECK: memref.dealloc %[[P]] : memref<16x256xf32>
func.func @column_sums(%out: memref<256xf32>, %in: memref<?x256xf32>, %zero: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %in, %c0 : memref<?x256xf32>
  scf.parallel (%c) = (%c0) to (%c256) step (%c1) {
    %s = scf.for %b = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %in[%b, %c] : memref<?x256xf32>
      %y = arith.addf %x, %acc : f32
      scf.yield %y : f32
    }
    memref.store %s, %out[%c] : memref<256xf32>
    scf.reduce
  }
  return
}

// -----

// A convolution's bias gradient: per channel, a sum over the batch and 784
// pixels, a perfect nest. It is collapsed into one loop of n * 784
// iterations (the batch and pixel indices recovered by division) and split:
// K = 512 (about sqrt(256 * 784)) would give 32 x 512 = 16384 threads, so,
// this being a long reduction, K doubles up to 4096 (131072 threads of about
// 49 combines each); neighbouring threads take neighbouring iterations,
// which read neighbouring pixels. Stage 2, 4096 partial sums per channel,
// is split again by the square root alone (K = 64).
// CHECK-LABEL: func.func @conv_bias_gradient
// CHECK: %[[P:.*]] = memref.alloc() : memref<4096x32xf32>
// CHECK: scf.parallel (%[[C:.*]], %[[K:.*]]) = ({{.*}}) to (%c32{{.*}}, %c4096{{.*}})
// CHECK: %[[TOTAL:.*]] = arith.muli %{{.*}}, %c784{{.*}} : index
// CHECK: scf.for %[[R:.*]] = %[[K]] to %[[TOTAL]] step %c4096
// CHECK: arith.divsi %[[R]], %c784
// CHECK: arith.remsi %[[R]], %c784
// CHECK: memref.load %arg1[%{{.*}}, %[[C]], %{{.*}}] : memref<?x32x784xf32>
// CHECK: memref.store %{{.*}}, %[[P]][%[[K]], %[[C]]] : memref<4096x32xf32>
// CHECK: %[[Q:.*]] = memref.alloc() : memref<64x32xf32>
// CHECK: scf.parallel
// CHECK: memref.load %[[P]]
// CHECK: memref.store %{{.*}}, %[[Q]]
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c32) step (%c1)
// CHECK: scf.for %{{.*}} to %c64{{.*}} iter_args(%{{.*}} = %arg2) -> (f32)
// CHECK: memref.load %[[Q]]
// CHECK: memref.dealloc %[[Q]]
// CHECK: memref.dealloc %[[P]]
func.func @conv_bias_gradient(%out: memref<32xf32>, %in: memref<?x32x784xf32>, %zero: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c784 = arith.constant 784 : index
  %n = memref.dim %in, %c0 : memref<?x32x784xf32>
  scf.parallel (%c) = (%c0) to (%c32) step (%c1) {
    %s = scf.for %b = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %t = scf.for %p = %c0 to %c784 step %c1 iter_args(%acc2 = %acc) -> (f32) {
        %x = memref.load %in[%b, %c, %p] : memref<?x32x784xf32>
        %y = arith.addf %x, %acc2 : f32
        scf.yield %y : f32
      }
      scf.yield %t : f32
    }
    memref.store %s, %out[%c] : memref<32xf32>
    scf.reduce
  }
  return
}

// -----

// A long reduction to one output (16384 static elements): the thread target
// would ask for K = 131072, but each stage-1 thread keeps at least 8
// combines, so K = 2048; stage 2's 2048 partial sums are split again by the
// square root (K = 64).
// CHECK-LABEL: func.func @long_total
// CHECK: memref.alloc() : memref<2048x1xf32>
// CHECK: scf.parallel ({{.*}}) to (%c1{{.*}}, %c2048{{.*}})
// CHECK: memref.alloc() : memref<64x1xf32>
// CHECK: scf.for %{{.*}} to %c64{{.*}} iter_args(%{{.*}} = %arg2) -> (f32)
func.func @long_total(%out: memref<f32>, %in: memref<16384xf32>, %zero: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 16384 : index
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %in[%j] : memref<16384xf32>
      %y = arith.addf %acc, %x : f32
      scf.yield %y : f32
    }
    memref.store %s, %out[] : memref<f32>
    scf.reduce
  }
  return
}

// -----

// One thread's count over the batch (an integer sum; identity 0), with a
// pure value from the parallel body that the loop uses: it is recomputed in
// stage 1.
// CHECK-LABEL: func.func @scalar_count
// CHECK: memref.alloc() : memref<16x1xi64>
// CHECK: scf.parallel (%[[K:.*]], %[[I:.*]]) =
// CHECK-NEXT: %[[COL:.*]] = arith.addi %c1, %[[I]] : index
// CHECK: arith.constant 0 : i64
// CHECK: scf.for
// CHECK: memref.load %arg1[%{{.*}}, %[[COL]]]
// CHECK: arith.addi
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c1) step (%c1)
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %arg2) -> (i64)
// CHECK: arith.addi
func.func @scalar_count(%out: memref<i64>, %hits: memref<?x2xi64>, %zero: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %hits, %c0 : memref<?x2xi64>
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    %col = arith.addi %c1, %i : index
    %s = scf.for %b = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %x = memref.load %hits[%b, %col] : memref<?x2xi64>
      %y = arith.addi %acc, %x : i64
      scf.yield %y : i64
    }
    memref.store %s, %out[] : memref<i64>
    scf.reduce
  }
  return
}

// -----

// Left alone: a short reduction (a row of 10 classes), one over outputs
// whose number is not static (one per row), a product (not an addition or
// a maximum), a loop that writes memory, and a loop that needs a value the
// thread loaded from memory before it.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref<16x
// CHECK: return
func.func @left_alone(%x: memref<?x10xf32>, %rows: memref<?xf32>, %v: memref<256xf32>,
                      %prod: memref<f32>, %w: memref<?xf32>, %idx: memref<index>, %zero: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?x10xf32>
  scf.parallel (%c) = (%c0) to (%c256) step (%c1) {
    %s = scf.for %j = %c0 to %c10 step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %x[%c, %j] : memref<?x10xf32>
      %y = arith.addf %e, %acc : f32
      scf.yield %y : f32
    }
    memref.store %s, %v[%c] : memref<256xf32>
    scf.reduce
  }
  scf.parallel (%r) = (%c0) to (%n) step (%c1) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %x[%j, %c0] : memref<?x10xf32>
      %y = arith.addf %e, %acc : f32
      scf.yield %y : f32
    }
    memref.store %s, %rows[%r] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %x[%j, %c0] : memref<?x10xf32>
      %y = arith.mulf %e, %acc : f32
      scf.yield %y : f32
    }
    memref.store %s, %prod[] : memref<f32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %x[%j, %c0] : memref<?x10xf32>
      memref.store %e, %w[%j] : memref<?xf32>
      %y = arith.addf %e, %acc : f32
      scf.yield %y : f32
    }
    memref.store %s, %prod[] : memref<f32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    %col = memref.load %idx[] : memref<index>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %x[%j, %col] : memref<?x10xf32>
      %y = arith.addf %e, %acc : f32
      scf.yield %y : f32
    }
    memref.store %s, %prod[] : memref<f32>
    scf.reduce
  }
  return
}

// -----

// Stage 1 runs before the parallel loop: a reduction that reads a buffer the
// parallel body writes before it stays whole; a write to another buffer
// (told apart by its base) does not stop it.
// CHECK-LABEL: func.func @written_before
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c1)
// CHECK-NEXT: memref.store %arg4, %arg0[%c0]
// CHECK-NEXT: scf.for
// CHECK: memref.alloc() : memref<16x1xf32>
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @written_before(%x: memref<?xf32>, %y: memref<?xf32>, %flag: memref<f32>,
                          %out: memref<f32>, %zero: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %zero, %x[%c0] : memref<?xf32>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %x[%j] : memref<?xf32>
      %a = arith.addf %acc, %e : f32
      scf.yield %a : f32
    }
    memref.store %s, %out[] : memref<f32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %zero, %flag[] : memref<f32>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %y[%j] : memref<?xf32>
      %a = arith.addf %acc, %e : f32
      scf.yield %a : f32
    }
    memref.store %s, %out[] : memref<f32>
    scf.reduce
  }
  return
}
