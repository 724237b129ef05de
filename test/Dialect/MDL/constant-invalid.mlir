// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.constant.

// Unsupported element type.
func.func @f() {
  // expected-error @+1 {{result #0 must be ranked tensor of}}
  %0 = mdl.constant dense<1.0> : tensor<2xf8E4M3FN>
  return
}

// -----

// The value must be an elements attribute.
func.func @f() {
  // expected-error @+1 {{attribute 'value' failed to satisfy constraint: constant vector/tensor attribute}}
  %0 = "mdl.constant"() {value = 1.0 : f32} : () -> tensor<f32>
  return
}

// -----

// The result type is the value's type.
func.func @f() {
  // expected-error @+1 {{inferred type(s) 'tensor<2xf32>' are incompatible}}
  %0 = "mdl.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}
