// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.state_read.

// Unknown state symbol.
func.func @f() {
  // expected-error @+1 {{'mdl.state_read' op unknown state @rm}}
  %0 = mdl.state_read @rm : tensor<3xf32>
  return
}

// -----

// Reading a parameter as state.
mdl.parameter @w : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @f() {
  // expected-error @+1 {{@w is not an 'mdl.state' (it is a 'mdl.parameter')}}
  %0 = mdl.state_read @w : tensor<3xf32>
  return
}

// -----

// Type mismatch.
mdl.state @rm : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @f() {
  // expected-error @+1 {{does not match the declared type 'tensor<3xf32>' of state @rm}}
  %0 = mdl.state_read @rm : tensor<3xf64>
  return
}
