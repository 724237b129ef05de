// RUN: modelc-opt %s --split-input-file --modelc-gpu-sink-scalars | FileCheck %s

// The seed's load and the key arithmetic computed from it (here: split into
// two words, one offset by a constant) move into each kernel that uses
// them; each kernel gets only what it needs, and the host reads nothing.
func.func @seed_into_kernels(%seed: memref<i64>, %out: memref<4xi32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %k = arith.constant 7 : i32
  %s = memref.load %seed[] : memref<i64>
  %lo = arith.trunci %s : i64 to i32
  %shifted = arith.shrui %s, %c32 : i64
  %hi = arith.trunci %shifted : i64 to i32
  %lo7 = arith.addi %lo, %k : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %lo7, %out[%bx] : memref<4xi32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %hi, %out[%tx] : memref<4xi32>
    gpu.terminator
  }
  return
}
// CHECK-LABEL: func.func @seed_into_kernels(
// CHECK-NOT: memref.load
// CHECK: gpu.launch
// CHECK-NEXT: %[[S1:.*]] = memref.load %arg0[] : memref<i64>
// CHECK-NEXT: %[[LO:.*]] = arith.trunci %[[S1]] : i64 to i32
// CHECK-NEXT: %[[LO7:.*]] = arith.addi %[[LO]], %{{.*}} : i32
// CHECK-NEXT: memref.store %[[LO7]]
// CHECK: gpu.launch
// CHECK-NEXT: %[[S2:.*]] = memref.load %arg0[] : memref<i64>
// CHECK-NEXT: %[[SH:.*]] = arith.shrui %[[S2]], %{{.*}} : i64
// CHECK-NEXT: %[[HI:.*]] = arith.trunci %[[SH]] : i64 to i32
// CHECK-NEXT: memref.store %[[HI]]
// CHECK-NOT: memref.load
// CHECK: return

// -----

// A value the host needs (here a size) keeps the whole chain on the host,
// for modelc-gpu-device-memory to report.
func.func @host_needs_it(%seed: memref<i64>, %out: memref<4xi64>) {
  %c1 = arith.constant 1 : index
  %s = memref.load %seed[] : memref<i64>
  %n = arith.index_cast %s : i64 to index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %s, %out[%bx] : memref<4xi64>
    gpu.terminator
  }
  return
}
// CHECK-LABEL: func.func @host_needs_it(
// CHECK: %[[S:.*]] = memref.load %arg0[] : memref<i64>
// CHECK: arith.index_cast %[[S]]
// CHECK: gpu.launch
// CHECK-NOT: memref.load %arg0
// CHECK: memref.store %[[S]]
