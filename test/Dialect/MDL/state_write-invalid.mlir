// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.state_write.

// Unknown state symbol.
func.func @f(%v: tensor<3xf32>) {
  // expected-error @+1 {{'mdl.state_write' op unknown state @rm}}
  mdl.state_write @rm, %v : tensor<3xf32>
  return
}

// -----

// Type mismatch.
mdl.state @rm : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @f(%v: tensor<4xf32>) {
  // expected-error @+1 {{type 'tensor<4xf32>' does not match the declared type 'tensor<3xf32>' of state @rm}}
  mdl.state_write @rm, %v : tensor<4xf32>
  return
}
