// RUN: not modelc-opt %s -split-input-file --modelc-grad-ready-calls 2>&1 | FileCheck %s
// modelc-grad-ready-calls reports, at the function or the symbol, marks it
// cannot honour: unstructured control flow, marks that are not integers or
// not on buffers, two marks of one gradient, and a runtime symbol of
// another type.

// CHECK: grad-ready-calls-errors.mlir:[[@LINE+1]]:1: error: gradient buffers are marked but the body has 2 blocks (run before lowering to control flow)
func.func @branches(%g: memref<2xf32> {modelc.grad = 0 : i64}) {
  cf.br ^next
^next:
  return
}

// -----

// CHECK: grad-ready-calls-errors.mlir:[[@LINE+1]]:1: error: argument 0: 'modelc.grad' must be an integer
func.func @not_integer(%g: memref<2xf32> {modelc.grad = "w"}) {
  return
}

// -----

// CHECK: grad-ready-calls-errors.mlir:[[@LINE+1]]:1: error: argument 0: 'modelc.grad' marks a value that is not a memref (run after bufferization)
func.func @tensor(%g: tensor<2xf32> {modelc.grad = 0 : i64}) {
  return
}

// -----

// CHECK: grad-ready-calls-errors.mlir:[[@LINE+1]]:1: error: arguments 0 and 1 are both gradient 4
func.func @twice(%a: memref<2xf32> {modelc.grad = 4 : i64}, %b: memref<2xf32> {modelc.grad = 4 : i64}) {
  return
}

// -----

// CHECK: grad-ready-calls-errors.mlir:[[@LINE+1]]:1: error: 'modelrt_grad_ready' is declared with another type than '(i64) -> ()'
func.func private @modelrt_grad_ready(i32)
func.func @step(%g: memref<2xf32> {modelc.grad = 0 : i64}) {
  return
}
