// RUN: modelc-opt %s --modelc-prefix-symbols | FileCheck %s
// RUN: modelc-opt %s --modelc-prefix-symbols=prefix=dev_ | FileCheck %s --check-prefix=DEV

// Public functions with a body get the prefix (default `gpu_`), and their
// uses follow; private functions and declarations keep their names.
// CHECK-LABEL: func.func @gpu_train_step(
// CHECK: call @gpu_predict(
// CHECK: call @helper(
// CHECK: call @runtime_fn(
// CHECK-LABEL: func.func @gpu_predict(
// CHECK-LABEL: func.func private @helper(
// CHECK: func.func private @runtime_fn(
// DEV: func.func @dev_train_step(
// DEV: call @dev_predict(
// DEV: func.func @dev_predict(
func.func @train_step(%x: memref<4xf32>) {
  call @predict(%x) : (memref<4xf32>) -> ()
  call @helper(%x) : (memref<4xf32>) -> ()
  call @runtime_fn(%x) : (memref<4xf32>) -> ()
  return
}
func.func @predict(%x: memref<4xf32>) {
  return
}
func.func private @helper(%x: memref<4xf32>) {
  return
}
func.func private @runtime_fn(memref<4xf32>)
