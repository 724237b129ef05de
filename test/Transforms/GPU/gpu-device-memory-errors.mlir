// RUN: modelc-opt %s --split-input-file --modelc-gpu-device-memory -verify-diagnostics

// After the GPU mapping, the host must not read device memory.
func.func @host_load(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{GPU lowering: the host would read device memory}}
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Nor write it.
func.func @host_store(%x: memref<f32>) {
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{GPU lowering: the host would write device memory}}
  memref.store %f, %x[] : memref<f32>
  return
}

// -----

// A 0-d float argument is device memory too.
func.func @float_scalar(%x: memref<f32>) -> f32 {
  // expected-error @+1 {{GPU lowering: the host would read device memory}}
  %v = memref.load %x[] : memref<f32>
  return %v : f32
}

// -----

// A kernel cannot allocate.
func.func @alloc_in_kernel() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{GPU lowering: an allocation inside a kernel}}
    %b = memref.alloc() : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Stack buffers on the host are refused.
func.func @host_alloca() {
  // expected-error @+1 {{GPU lowering: a stack buffer on the host}}
  %b = memref.alloca() : memref<4xf32>
  return
}

// -----

// A 0-d integer argument (the seed's cell, a metric's result) is device
// memory too: the host cannot read it, also when a kernel writes it first.
// (The H200's first run: the host read a derived seed that a kernel had
// written into a metric's cell.) modelc-gpu-sink-scalars moves such reads
// into the kernels when only kernels use them.
func.func @scalar_written_by_kernel(%cell: memref<i64>) -> i64 {
  %c1 = arith.constant 1 : index
  %k = arith.constant 7 : i64
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %k, %cell[] : memref<i64>
    gpu.terminator
  }
  // expected-error @+1 {{GPU lowering: the host would read device memory}}
  %v = memref.load %cell[] : memref<i64>
  return %v : i64
}

// -----

// The seed, read on the host for host work (here the result), is refused.
func.func @seed_on_host(%seed: memref<i64>) -> i64 {
  // expected-error @+1 {{GPU lowering: the host would read device memory}}
  %s = memref.load %seed[] : memref<i64>
  return %s : i64
}

// -----

// A constant that host code other than a kernel uses lives in host memory:
// a library call given its address would read host memory from the GPU
// (the H200 faulted on a causal mask built this way).
memref.global "private" constant @mask : memref<4xf32> = dense<1.0>
func.func private @library(memref<4xf32>)
func.func @host_global(%out: memref<4xf32>) {
  // expected-error @+1 {{GPU lowering: the constant @mask lives in host memory, and the GPU code would read it there}}
  %m = memref.get_global @mask : memref<4xf32>
  call @library(%m) : (memref<4xf32>) -> ()
  return
}
