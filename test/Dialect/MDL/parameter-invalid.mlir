// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.parameter.

// A parameter needs a static shape.
// expected-error @+1 {{type must have a static shape}}
mdl.parameter @p : tensor<?x3xf32> {init = #mdl.init<zeros>}

// -----

// Trainable parameters are float.
// expected-error @+1 {{a trainable parameter must have a float element type, got 'i64'}}
mdl.parameter @p : tensor<3xi64> {init = #mdl.init<zeros>}

// -----

// Initialiser arity is checked.
// expected-error @+1 {{initialiser 'uniform' takes 2 argument(s), got 1}}
mdl.parameter @p : tensor<3xf32> {init = #mdl.init<uniform(1)>}

// -----

// uniform needs lo < hi.
// expected-error @+1 {{uniform bounds must satisfy lo < hi}}
mdl.parameter @p : tensor<3xf32> {init = #mdl.init<uniform(1, -1)>}

// -----

// normal needs a positive std.
// expected-error @+1 {{normal std must be positive}}
mdl.parameter @p : tensor<3xf32> {init = #mdl.init<normal(0, 0)>}

// -----

// kaiming_uniform needs a positive fan-in.
// expected-error @+1 {{kaiming_uniform fan_in must be positive}}
mdl.parameter @p : tensor<3xf32> {init = #mdl.init<kaiming_uniform(0)>}

// -----

// Unknown initialiser kinds are rejected.
// expected-error @+1 {{unknown initialiser 'xavier'}}
mdl.parameter @p : tensor<3xf32> {init = #mdl.init<xavier>}

// -----

// Parameters live at module level.
func.func @f() {
  // expected-error @+1 {{expects parent op 'builtin.module'}}
  mdl.parameter @p : tensor<3xf32> {init = #mdl.init<zeros>}
  return
}
