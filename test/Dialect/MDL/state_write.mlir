// RUN: modelc-opt %s | modelc-opt | FileCheck %s
// RUN: modelc-opt %s -mlir-print-op-generic | modelc-opt | FileCheck %s
// Round trip of mdl.state_write updates state: custom and generic forms print the same
// text, and the written result types agree with the inferred ones.

// CHECK: mdl.state @rm : tensor<32xf32> {init = #mdl.init<zeros>}
// CHECK-LABEL: func.func @state_write(
// CHECK: mdl.state_write @rm, %{{[a-z0-9_]+}} : tensor<32xf32>
// CHECK: return

mdl.state @rm : tensor<32xf32> {init = #mdl.init<zeros>}
func.func @state_write(%v: tensor<32xf32>) {
  mdl.state_write @rm, %v : tensor<32xf32>
  return
}
