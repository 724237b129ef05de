// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.slice.

// Out of bounds.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{'mdl.slice' op dimension 1: the slice reaches index 10 but the size is 10}}
  %0 = mdl.slice %x {size = array<i64: -1, 5>, start = array<i64: 0, 6>, stride = array<i64: 1, 1>} : tensor<?x10xf32> -> tensor<?x5xf32>
  return
}

// -----

// One entry per dimension.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{start, size and stride must have 2 entries each}}
  %0 = mdl.slice %x {size = array<i64: 5>, start = array<i64: 0>, stride = array<i64: 1>} : tensor<?x10xf32> -> tensor<5xf32>
  return
}

// -----

// stride must be positive.
func.func @f(%x: tensor<8xf32>) {
  // expected-error @+1 {{dimension 0: need start >= 0, size >= 0 and stride >= 1}}
  %0 = mdl.slice %x {size = array<i64: 2>, start = array<i64: 0>, stride = array<i64: 0>} : tensor<8xf32> -> tensor<2xf32>
  return
}

// -----

// Whole dynamic extent needs start 0.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{size -1 on dynamic dimension 0 needs start 0 and stride 1}}
  %0 = mdl.slice %x {size = array<i64: -1, 10>, start = array<i64: 1, 0>, stride = array<i64: 1, 1>} : tensor<?x10xf32> -> tensor<?x10xf32>
  return
}
