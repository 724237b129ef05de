// RUN: modelc-opt %s --modelc-gpu-merge-modules=name=all | FileCheck %s

// Two outlined kernels (both named @k in their own modules) move into one
// module, renamed after their old modules; the launches follow.
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @all::@m0 blocks
// CHECK: gpu.launch_func @all::@m1 blocks
// CHECK: gpu.module @all
// CHECK-DAG: gpu.func @m0(%{{.*}}: memref<4xf32>) kernel
// CHECK-DAG: gpu.func @m1(%{{.*}}: memref<4xf32>) kernel
// CHECK-NOT: gpu.module @m0
// CHECK-NOT: gpu.module @m1
module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @m1::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
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
