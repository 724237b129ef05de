// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.dropout.

// rate must be below 1.
func.func @f(%x: tensor<?x4xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'mdl.dropout' op rate must be in [0, 1), got 1}}
  %y, %m = mdl.dropout %x, %s {rate = 1.0 : f64} : tensor<?x4xf32>, tensor<i64> -> tensor<?x4xf32>, tensor<?x4xi1>
  return
}

// -----

// The seed is a 0-d i64 tensor.
func.func @f(%x: tensor<?x4xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{operand #1 must be 0D tensor of 64-bit signless integer values}}
  %y, %m = mdl.dropout %x, %s {rate = 0.5 : f64} : tensor<?x4xf32>, tensor<2xi64> -> tensor<?x4xf32>, tensor<?x4xi1>
  return
}

// -----

// The mask has the input's shape.
func.func @f(%x: tensor<?x4xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{inferred type(s) 'tensor<?x4xf32>', 'tensor<?x4xi1>' are incompatible}}
  %y, %m = mdl.dropout %x, %s {rate = 0.5 : f64} : tensor<?x4xf32>, tensor<i64> -> tensor<?x4xf32>, tensor<?x3xi1>
  return
}

// -----

// rate is required.
func.func @f(%x: tensor<?x4xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{requires attribute 'rate'}}
  %y, %m = mdl.dropout %x, %s : tensor<?x4xf32>, tensor<i64> -> tensor<?x4xf32>, tensor<?x4xi1>
  return
}
