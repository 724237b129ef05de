// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.state declarations: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK: mdl.state @bn_0.running_mean : tensor<32xf32> {init = #mdl.init<zeros>}
// CHECK: mdl.state @bn_0.running_var : tensor<32xf32> {init = #mdl.init<ones>}
// CHECK: mdl.state @step : tensor<i64> {init = #mdl.init<constant(0)>}

mdl.state @bn_0.running_mean : tensor<32xf32> {init = #mdl.init<zeros>}
mdl.state @bn_0.running_var : tensor<32xf32> {init = #mdl.init<ones>}
mdl.state @step : tensor<i64> {init = #mdl.init<constant(0)>}
