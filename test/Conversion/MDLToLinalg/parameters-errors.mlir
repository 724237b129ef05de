// What the parameter/state rewrite cannot lower, reported at the op.
// RUN: modelc-opt %s --convert-mdl-to-linalg -split-input-file -verify-diagnostics

mdl.parameter @w : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @reads(%x: tensor<3xf32>) -> tensor<3xf32> {
  %w = mdl.param @w : tensor<3xf32>
  %y = mdl.add %x, %w : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @caller(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{cannot lower a call to @reads, which reads parameters or state; inline it first}}
  %y = func.call @reads(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

mdl.state @s : tensor<3xf32> {init = #mdl.init<zeros>}
func.func @nested(%c: i1) -> tensor<3xf32> {
  %r = scf.if %c -> tensor<3xf32> {
    // expected-error @+1 {{cannot lower state access inside nested regions or multi-block functions}}
    %v = mdl.state_read @s : tensor<3xf32>
    scf.yield %v : tensor<3xf32>
  } else {
    %z = mdl.constant dense<0.0> : tensor<3xf32>
    scf.yield %z : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
