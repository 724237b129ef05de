// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.param.

// Unknown parameter symbol.
func.func @f() {
  // expected-error @+1 {{'mdl.param' op unknown parameter @missing}}
  %0 = mdl.param @missing : tensor<3xf32>
  return
}

// -----

// Type mismatch with the declaration.
mdl.parameter @w : tensor<4x3xf32> {init = #mdl.init<zeros>}
func.func @f() {
  // expected-error @+1 {{type 'tensor<3x4xf32>' does not match the declared type 'tensor<4x3xf32>' of parameter @w}}
  %0 = mdl.param @w : tensor<3x4xf32>
  return
}

// -----

// The symbol is state, not a parameter.
mdl.state @s : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @f() {
  // expected-error @+1 {{@s is not an 'mdl.parameter' (it is a 'mdl.state')}}
  %0 = mdl.param @s : tensor<3xf32>
  return
}

// -----

// A function is not a parameter.
func.func @f() {
  // expected-error @+1 {{@f is not an 'mdl.parameter' (it is a 'func.func')}}
  %0 = mdl.param @f : tensor<3xf32>
  return
}
