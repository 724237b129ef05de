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

// A 0-d float argument is device memory too (only integer scalars, the
// seed, are passed in host memory).
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
