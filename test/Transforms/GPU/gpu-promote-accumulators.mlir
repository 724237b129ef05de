// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(modelc-gpu-promote-accumulators))' | FileCheck %s

// A bias gradient's column sum: the store of the initial value right before
// the loop becomes the loop's initial value, the accumulator is carried in
// iter_args, and the element is stored once, after the loop.
// CHECK-LABEL: func.func @column_sum
// CHECK: gpu.launch
// CHECK-NOT: memref.store
// CHECK: %[[R:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %arg2) -> (f32)
// CHECK-NEXT: %[[X:.*]] = memref.load %arg1[%{{.*}}, %{{.*}}] : memref<?x256xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK: memref.store %[[R]], %arg0[%{{.*}}] : memref<256xf32>
// CHECK-NEXT: gpu.terminator
func.func @column_sum(%out: memref<256xf32>, %in: memref<?x256xf32>, %zero: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %zero, %out[%tx] : memref<256xf32>
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %in[%k, %tx] : memref<?x256xf32>
      %a = memref.load %out[%tx] : memref<256xf32>
      %s = arith.addf %x, %a : f32
      memref.store %s, %out[%tx] : memref<256xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// No store before the loop: the element is loaded once before it. A local
// allocation and a function argument are different buffers.
// CHECK-LABEL: func.func @loss_sum
// CHECK: %[[BUF:.*]] = memref.alloc
// CHECK: gpu.launch
// CHECK: %[[INIT:.*]] = memref.load %arg0[] : memref<f32>
// CHECK: %[[R:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK: memref.load %[[BUF]]
// CHECK-NOT: memref.store
// CHECK: scf.yield
// CHECK: memref.store %[[R]], %arg0[] : memref<f32>
func.func @loss_sum(%loss: memref<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.alloc(%n) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %rows[%k] : memref<?xf32>
      %a = memref.load %loss[] : memref<f32>
      %s = arith.addf %a, %x : f32
      memref.store %s, %loss[] : memref<f32>
    }
    gpu.terminator
  }
  return
}

// -----

// Two accumulators in one loop (a row's maximum and its sum of
// exponentials), inside the launch's bounds guard: both are carried.
// CHECK-LABEL: func.func @two_accumulators
// CHECK: scf.if
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32)
// CHECK-NOT: memref.store
// CHECK: scf.yield
// CHECK-DAG: memref.store %{{.*}}, %arg1[%{{.*}}] : memref<?xf32>
// CHECK-DAG: memref.store %{{.*}}, %arg2[%{{.*}}] : memref<?xf32>
func.func @two_accumulators(%x: memref<?x10xf32>, %max: memref<?xf32>, %sum: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %in = arith.cmpi ult, %tx, %n : index
    scf.if %in {
      scf.for %j = %c0 to %c10 step %c1 {
        %v = memref.load %x[%tx, %j] : memref<?x10xf32>
        %m = memref.load %max[%tx] : memref<?xf32>
        %s = memref.load %sum[%tx] : memref<?xf32>
        %m2 = arith.maximumf %m, %v : f32
        %s2 = arith.addf %s, %v : f32
        memref.store %m2, %max[%tx] : memref<?xf32>
        memref.store %s2, %sum[%tx] : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// The loop reads another element of the accumulator's buffer: it stays.
// CHECK-LABEL: func.func @other_element_read
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: memref.store
// CHECK: }
func.func @other_element_read(%out: memref<256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %out[%k] : memref<256xf32>
      %a = memref.load %out[%tx] : memref<256xf32>
      %s = arith.addf %x, %a : f32
      memref.store %s, %out[%tx] : memref<256xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A view of the accumulator's buffer is read in the loop (same base): it
// stays.
// CHECK-LABEL: func.func @view_of_the_same_buffer
// CHECK: scf.for
// CHECK-NOT: iter_args
func.func @view_of_the_same_buffer(%out: memref<256xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %view = memref.subview %out[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %view[%k] : memref<128xf32, strided<[1]>>
      %a = memref.load %out[%tx] : memref<256xf32>
      %s = arith.addf %x, %a : f32
      memref.store %s, %out[%tx] : memref<256xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A buffer whose origin cannot be told (a cast from another type system)
// may be the accumulator's: the loop stays.
// CHECK-LABEL: func.func @unknown_base
// CHECK: scf.for
// CHECK-NOT: iter_args
func.func @unknown_base(%out: memref<256xf32>, %raw: i64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = builtin.unrealized_conversion_cast %raw : i64 to memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %in[%k] : memref<?xf32>
      %a = memref.load %out[%tx] : memref<256xf32>
      %s = arith.addf %x, %a : f32
      memref.store %s, %out[%tx] : memref<256xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A barrier (an op with memory effects of its own) in the loop: it stays.
// CHECK-LABEL: func.func @barrier_in_loop
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: gpu.barrier
func.func @barrier_in_loop(%out: memref<256xf32>, %in: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %in[%k] : memref<?xf32>
      %a = memref.load %out[%tx] : memref<256xf32>
      %s = arith.addf %x, %a : f32
      memref.store %s, %out[%tx] : memref<256xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// A loop on the host (in no kernel, in no parallel loop) is not this pass's
// business.
// CHECK-LABEL: func.func @host_loop
// CHECK: scf.for
// CHECK-NOT: iter_args
func.func @host_loop(%out: memref<f32>, %in: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %x = memref.load %in[%k] : memref<?xf32>
    %a = memref.load %out[] : memref<f32>
    %s = arith.addf %x, %a : f32
    memref.store %s, %out[] : memref<f32>
  }
  return
}

// -----

// The initial store is found past ops that touch no memory (the trip count's
// memref.dim), but not past another store: there the element is reloaded.
// CHECK-LABEL: func.func @initial_store_lookback
// CHECK: gpu.launch
// CHECK-NEXT: memref.dim
// CHECK-NEXT: scf.for %{{.*}} iter_args(%{{.*}} = %arg3) -> (f32)
// CHECK: memref.store %arg3, %arg0[] : memref<f32>
// CHECK-NEXT: memref.store %arg3, %arg2[] : memref<f32>
// CHECK-NEXT: %[[INIT:.*]] = memref.load %arg0[] : memref<f32>
// CHECK-NEXT: scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (f32)
func.func @initial_store_lookback(%loss: memref<f32>, %rows: memref<?xf32>, %other: memref<f32>, %zero: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %zero, %loss[] : memref<f32>
    %n = memref.dim %rows, %c0 : memref<?xf32>
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %rows[%k] : memref<?xf32>
      %a = memref.load %loss[] : memref<f32>
      %s = arith.addf %a, %x : f32
      memref.store %s, %loss[] : memref<f32>
    }
    memref.store %zero, %loss[] : memref<f32>
    memref.store %zero, %other[] : memref<f32>
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %rows[%k] : memref<?xf32>
      %a = memref.load %loss[] : memref<f32>
      %s = arith.addf %a, %x : f32
      memref.store %s, %loss[] : memref<f32>
    }
    gpu.terminator
  }
  return
}

// -----

// Device code before it is mapped to the GPU: a loop inside scf.parallel.
// CHECK-LABEL: func.func @in_parallel_loop
// CHECK: scf.parallel
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %arg2) -> (f32)
// CHECK: memref.store %{{.*}}, %arg0[%{{.*}}] : memref<256xf32>
func.func @in_parallel_loop(%out: memref<256xf32>, %in: memref<?x256xf32>, %zero: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c) = (%c0) to (%c256) step (%c1) {
    memref.store %zero, %out[%c] : memref<256xf32>
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %in[%k, %c] : memref<?x256xf32>
      %a = memref.load %out[%c] : memref<256xf32>
      %s = arith.addf %x, %a : f32
      memref.store %s, %out[%c] : memref<256xf32>
    }
    scf.reduce
  }
  return
}
