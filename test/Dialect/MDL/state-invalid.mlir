// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of mdl.state.

// State needs a static shape.
// expected-error @+1 {{type must have a static shape}}
mdl.state @s : tensor<?xf32> {init = #mdl.init<zeros>}

// -----

// Random initialisers need float state.
// expected-error @+1 {{initialiser 'normal' needs a float element type, got 'i64'}}
mdl.state @s : tensor<3xi64> {init = #mdl.init<normal(0, 1)>}

// -----

// constant takes one argument.
// expected-error @+1 {{initialiser 'constant' takes 1 argument(s), got 0}}
mdl.state @s : tensor<3xf32> {init = #mdl.init<constant>}
