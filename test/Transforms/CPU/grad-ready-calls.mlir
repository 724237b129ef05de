// RUN: modelc-opt %s -split-input-file --modelc-grad-ready-calls | FileCheck %s
// modelc-grad-ready-calls announces each marked gradient buffer after the
// last top-level op that uses it or a view of it.

// Two gradients, finished in reverse order (the backward pass): gradient 1
// after its own op, gradient 0 after the copy into its subview; a later
// read of another buffer moves nothing. The marks are removed and the
// runtime function declared once.
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[G0:[a-z0-9]+]]: memref<4xf32>, %[[G1:[a-z0-9]+]]: memref<2xf32>)
// CHECK-NOT: modelc.grad
// CHECK: linalg.fill {{.*}} outs(%[[G1]]
// CHECK-NEXT: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-NEXT: call @modelrt_grad_ready(%[[I1]]) : (i64) -> ()
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[G0]]
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[G0]]
// CHECK-NEXT: memref.copy %{{.*}}, %[[V]]
// CHECK-NEXT: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: call @modelrt_grad_ready(%[[I0]]) : (i64) -> ()
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: return
// CHECK: func.func private @modelrt_grad_ready(i64)
// CHECK-NOT: func.func private @modelrt_grad_ready
func.func @train_step(%g0: memref<4xf32> {modelc.grad = 0 : i64},
                      %g1: memref<2xf32> {modelc.grad = 1 : i64}) {
  %c = arith.constant 1.0 : f32
  %src = memref.alloca() : memref<2xf32>
  %other = memref.alloca() : memref<3xf32>
  linalg.fill ins(%c : f32) outs(%g1 : memref<2xf32>)
  linalg.fill ins(%c : f32) outs(%g0 : memref<4xf32>)
  %v = memref.subview %g0[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.copy %src, %v : memref<2xf32> to memref<2xf32, strided<[1], offset: 1>>
  linalg.fill ins(%c : f32) outs(%other : memref<3xf32>)
  return
}

// -----

// A use inside a loop: the call goes after the loop. Two gradients final
// after the same op are announced in the order of their index, and a
// buffer nothing uses is announced first.
// CHECK-LABEL: func.func @nested(
// CHECK: %[[I3:.*]] = arith.constant 3 : i64
// CHECK-NEXT: call @modelrt_grad_ready(%[[I3]])
// CHECK: scf.for
// CHECK: memref.store
// CHECK: }
// CHECK-NEXT: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: call @modelrt_grad_ready(%[[I0]])
// CHECK-NEXT: %[[I2:.*]] = arith.constant 2 : i64
// CHECK-NEXT: call @modelrt_grad_ready(%[[I2]])
// CHECK-NEXT: return
func.func @nested(%a: memref<4xf32> {modelc.grad = 2 : i64},
                  %b: memref<4xf32> {modelc.grad = 0 : i64},
                  %unused: memref<1xf32> {modelc.grad = 3 : i64}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %x, %a[%i] : memref<4xf32>
    memref.store %x, %b[%i] : memref<4xf32>
  }
  return
}

// -----

// Without marks (eval, predict, the GPU path) nothing changes and nothing
// is declared.
// CHECK-LABEL: func.func @predict(
// CHECK-NOT: modelrt_grad_ready
func.func @predict(%y: memref<2xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%y : memref<2xf32>)
  return
}
