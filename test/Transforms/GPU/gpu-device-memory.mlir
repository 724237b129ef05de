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

// A constant read inside a kernel stays there (outlining copies the global
// into the device module): only the host's use of a global is refused
// (gpu-device-memory-errors.mlir).
// CHECK-LABEL: func.func @kernel_global
// CHECK: gpu.launch
// CHECK: memref.get_global @table
memref.global "private" constant @table : memref<4xf32> = dense<2.0>
func.func @kernel_global(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %t = memref.get_global @table : memref<4xf32>
    %v = memref.load %t[%c0] : memref<4xf32>
    memref.store %v, %out[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// A constant taken in the host code and read by two kernels is copied into
// each of them, and the host's copy is erased.
// CHECK-LABEL: func.func @host_global_in_kernels
// CHECK-NOT: memref.get_global
// CHECK: gpu.launch
// CHECK-NEXT: memref.get_global @weights
// CHECK: gpu.launch
// CHECK-NEXT: memref.get_global @weights
memref.global "private" constant @weights : memref<4xf32> = dense<3.0>
func.func @host_global_in_kernels(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %w = memref.get_global @weights : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %w[%c0] : memref<4xf32>
    memref.store %v, %out[%c0] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %w[%c1] : memref<4xf32>
    memref.store %v, %out[%c1] : memref<4xf32>
    gpu.terminator
  }
  return
}
