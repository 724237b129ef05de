// RUN: modelc-opt %s --modelc-emit-c-interface | FileCheck %s

// Public functions with a body get llvm.emit_c_interface (func-to-llvm then
// adds their _mlir_ciface_ wrappers); private functions and declarations
// do not.
// CHECK-LABEL: func.func @entry(
// CHECK-SAME: attributes {llvm.emit_c_interface}
func.func @entry(%x: memref<4xf32>) {
  call @kernel(%x) : (memref<4xf32>) -> ()
  return
}
// CHECK-LABEL: func.func private @kernel(
// CHECK-NOT: llvm.emit_c_interface
// CHECK: return
func.func private @kernel(%x: memref<4xf32>) {
  return
}
// CHECK: func.func private @runtime_hook(memref<4xf32>){{$}}
func.func private @runtime_hook(memref<4xf32>)
