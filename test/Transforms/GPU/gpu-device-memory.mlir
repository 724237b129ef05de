// RUN: modelc-opt %s --modelc-gpu-device-memory | FileCheck %s

// Host allocations become device allocations; kernels, which read the seed
// (a 0-d argument, a device cell like every argument), are untouched.
// CHECK-LABEL: func.func @step
// CHECK: %[[BUF:.*]] = gpu.alloc (%{{.*}}) : memref<?xf32>
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch
// CHECK: gpu.dealloc %[[BUF]] : memref<?xf32>
// CHECK-NOT: memref.dealloc
func.func @step(%x: memref<?xf32>, %seed: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %buf = memref.alloc(%n) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx] : memref<?xf32>
    %s = memref.load %seed[] : memref<i64>
    %f = arith.sitofp %s : i64 to f32
    %w = arith.addf %v, %f : f32
    memref.store %w, %buf[%bx] : memref<?xf32>
    gpu.terminator
  }
  memref.dealloc %buf : memref<?xf32>
  return
}
