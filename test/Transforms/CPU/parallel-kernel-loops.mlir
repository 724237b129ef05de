// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(modelc-parallel-kernel-loops)' | FileCheck %s

// A kernel's top-level scf.parallel moves into @<kernel>.part0, which runs
// [begin, end) of the first dimension; the kernel calls it over the whole
// range with the work: iterations (n * 784) times the body's operations
// (load, maximumf, store, reduce: 4). Constants are cloned, the rest passed.
// CHECK-LABEL: func.func private @relu.k0.part0
// CHECK-SAME: (%[[B:[a-z0-9]+]]: index, %[[E:[a-z0-9]+]]: index, %{{[a-z0-9]+}}: index, {{.*}}memref<?x784xf32>, %{{[a-z0-9]+}}: memref<?x784xf32>)
// CHECK-SAME: attributes {modelc.parallel_part}
// CHECK-DAG: %[[C0:[a-z0-9]+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:[a-z0-9]+]] = arith.constant 1 : index
// CHECK-DAG: %[[C784:[a-z0-9]+]] = arith.constant 784 : index
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%[[B]], %[[C0]]) to (%[[E]], %[[C784]]) step (%[[C1]], %[[C1]])
// CHECK: arith.maximumf
// CHECK-LABEL: func.func private @relu.k0
// CHECK-SAME: attributes {modelc.kernel}
// CHECK: %[[N:[a-z0-9]+]] = memref.dim
// CHECK: %[[COST:[a-z0-9]+]] = arith.constant 4 : index
// CHECK: %[[ROWS:[a-z0-9]+]] = arith.ceildivsi
// CHECK: %[[W1:[a-z0-9]+]] = arith.muli %[[COST]], %[[ROWS]]
// CHECK: %[[COLS:[a-z0-9]+]] = arith.ceildivsi
// CHECK: %[[WORK:[a-z0-9]+]] = arith.muli %[[W1]], %[[COLS]]
// CHECK: call @relu.k0.part0(%{{[a-z0-9]+}}, %[[N]], %[[WORK]], {{.*}})
// CHECK-NOT: scf.parallel
// CHECK: return
func.func private @relu.k0(%x: memref<?x784xf32>, %y: memref<?x784xf32>) attributes {modelc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c784 = arith.constant 784 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x784xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c784) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<?x784xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %y[%i, %j] : memref<?x784xf32>
    scf.reduce
  }
  return
}

// -----

// Two top-level loops: two parts, called in order. A loop inside the body
// counts its trip count (4) times its operations.
// CHECK-LABEL: func.func private @two.k1.part0
// CHECK-LABEL: func.func private @two.k1.part1
// CHECK: scf.for
// CHECK-LABEL: func.func private @two.k1
// CHECK: call @two.k1.part0
// CHECK: arith.constant 18 : index
// CHECK: call @two.k1.part1
func.func private @two.k1(%x: memref<64xf32>, %y: memref<64x4xf32>) attributes {modelc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %x[%i] : memref<64xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %y[%i, %j] : memref<64x4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i, %j] : memref<64x4xf32>
    }
    scf.reduce
  }
  return
}

// -----

// A lower bound other than 0 is the first call's begin; dimension 1's bound
// (the same value as dimension 0's) is still passed to the part.
// CHECK-LABEL: func.func private @offset.k0.part0
// CHECK-SAME: (%[[B:[a-z0-9]+]]: index, %[[E:[a-z0-9]+]]: index, %{{[a-z0-9]+}}: index, %[[N:[a-z0-9]+]]: index,
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%[[B]], %{{.*}}) to (%[[E]], %[[N]])
// CHECK-LABEL: func.func private @offset.k0(
// CHECK: %[[C3:[a-z0-9_]+]] = arith.constant 3 : index
// CHECK: call @offset.k0.part0(%[[C3]], %[[M:[a-z0-9]+]], %{{[a-z0-9]+}}, %[[M]],
func.func private @offset.k0(%x: memref<?x?xf32>) attributes {modelc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c3, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %zero, %x[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// -----

// Left alone: a loop whose first dimension steps by 2 (the runtime splits
// ranges at their midpoint, which must be an iteration).
// CHECK-LABEL: func.func private @strided.k0
// CHECK-NOT: call
// CHECK: scf.parallel
func.func private @strided.k0(%x: memref<64xf32>) attributes {modelc.kernel} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c2) {
    memref.store %zero, %x[%i] : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// Left alone: a function that is not a kernel, a kernel whose outer loop is
// a sequential scf.for (a reduction), and a loop with results.
// CHECK-LABEL: func.func @not_a_kernel
// CHECK: scf.parallel
// CHECK-LABEL: func.func private @sum.k0
// CHECK-NOT: call
// CHECK: scf.for
// CHECK-LABEL: func.func private @reducing.k0
// CHECK-NOT: call
// CHECK: scf.parallel
// CHECK-NOT: modelc.parallel_part
func.func @not_a_kernel(%x: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %x[%i] : memref<64xf32>
    scf.reduce
  }
  return
}
func.func private @sum.k0(%x: memref<64xf32>, %s: memref<f32>) attributes {modelc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %a = memref.load %s[] : memref<f32>
    %r = arith.addf %v, %a : f32
    memref.store %r, %s[] : memref<f32>
  }
  return
}
func.func private @reducing.k0(%x: memref<64xf32>) -> f32 attributes {modelc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<64xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}
