// RUN: modelc-opt %s --split-input-file --modelc-prefix-symbols -verify-diagnostics

// A prefixed name that the module already has would make two functions one
// symbol: an error at the function to rename.
// expected-error @below {{cannot rename to 'gpu_step': the module already has that symbol}}
func.func @step(%x: memref<4xf32>) {
  return
}
func.func private @gpu_step(%x: memref<4xf32>) {
  return
}
