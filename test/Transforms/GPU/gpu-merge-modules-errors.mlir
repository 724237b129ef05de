// RUN: modelc-opt %s --modelc-gpu-merge-modules=name=m1 -verify-diagnostics

// The merged module's name must be new: a symbol of that name (here one of
// the modules to merge) is an error at the module, and nothing moves.
// expected-error @below {{symbol 'm1' already exists}}
module attributes {gpu.container_module} {
  gpu.module @m0 {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @m1 {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
