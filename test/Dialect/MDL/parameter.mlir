// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.parameter with every initialiser kind: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK: mdl.parameter @linear_0.weight : tensor<784x128xf32> {init = #mdl.init<kaiming_uniform(784)>}
// CHECK: mdl.parameter @linear_0.bias : tensor<128xf32> {init = #mdl.init<kaiming_uniform(784, 2.2360679774997898)>}
// CHECK: mdl.parameter @emb.table : tensor<100x8xf64> {init = #mdl.init<normal(0, 2.000000e-02)>}
// CHECK: mdl.parameter @u : tensor<3xf32> {init = #mdl.init<uniform(-1.000000e-01, 1.000000e-01)>}
// CHECK: mdl.parameter @ln.gamma : tensor<8xf32> {init = #mdl.init<ones>}
// CHECK: mdl.parameter @ln.beta : tensor<8xf32> {init = #mdl.init<zeros>}
// CHECK: mdl.parameter @scale : tensor<f32> {init = #mdl.init<constant(5.000000e-01)>}

mdl.parameter @linear_0.weight : tensor<784x128xf32> {init = #mdl.init<kaiming_uniform(784)>}
mdl.parameter @linear_0.bias : tensor<128xf32> {init = #mdl.init<kaiming_uniform(784, 2.23606797749979)>}
mdl.parameter @emb.table : tensor<100x8xf64> {init = #mdl.init<normal(0, 0.02)>}
mdl.parameter @u : tensor<3xf32> {init = #mdl.init<uniform(-0.1, 0.1)>}
mdl.parameter @ln.gamma : tensor<8xf32> {init = #mdl.init<ones>}
mdl.parameter @ln.beta : tensor<8xf32> {init = #mdl.init<zeros>}
mdl.parameter @scale : tensor<f32> {init = #mdl.init<constant(0.5)>}
