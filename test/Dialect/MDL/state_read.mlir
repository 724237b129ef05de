// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.state_read reads state: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK: mdl.state @rm : tensor<32xf32> {init = #mdl.init<zeros>}
// CHECK-LABEL: func.func @state_read(
// CHECK: %{{[a-z0-9_]+}} = mdl.state_read @rm : tensor<32xf32>
// CHECK: return %{{[a-z0-9_]+}} : tensor<32xf32>

mdl.state @rm : tensor<32xf32> {init = #mdl.init<zeros>}
func.func @state_read() -> tensor<32xf32> {
  %0 = mdl.state_read @rm : tensor<32xf32>
  return %0 : tensor<32xf32>
}
