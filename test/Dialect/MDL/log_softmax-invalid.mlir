// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.log_softmax.

// axis out of range.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{'mdl.log_softmax' op axis 2 is out of range for a tensor of rank 2}}
  %0 = mdl.log_softmax %x {axis = 2 : i64} : tensor<?x10xf32>
  return
}

// -----

// Negative axis out of range.
func.func @f(%x: tensor<?x10xf32>) {
  // expected-error @+1 {{axis -3 is out of range for a tensor of rank 2}}
  %0 = mdl.log_softmax %x {axis = -3 : i64} : tensor<?x10xf32>
  return
}

// -----

// Float only.
func.func @f(%x: tensor<?x10xi32>) {
  // expected-error @+1 {{must be ranked tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float values}}
  %0 = mdl.log_softmax %x : tensor<?x10xi32>
  return
}
