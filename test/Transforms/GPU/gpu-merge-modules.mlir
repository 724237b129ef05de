// RUN: modelc-opt %s --split-input-file --modelc-gpu-merge-modules=name=all | FileCheck %s

// Two outlined kernels (both named @k in their own modules) move into one
// module, renamed after their old modules; the launches follow. A third
// kernel, equal to @m0's but for its locations, is dropped: its launch goes
// to @all::@m0. @m3 has @m0's body but another launch bound
// (known_block_size), so it is kept.
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @all::@m0 blocks
// CHECK: gpu.launch_func @all::@m1 blocks
// CHECK: gpu.launch_func @all::@m0 blocks
// CHECK: gpu.launch_func @all::@m3 blocks
// CHECK: gpu.module @all
// CHECK-DAG: gpu.func @m0(%{{.*}}: memref<4xf32>) kernel
// CHECK-DAG: gpu.func @m1(%{{.*}}: memref<4xf32>) kernel
// CHECK-DAG: gpu.func @m3(%{{.*}}: memref<4xf32>) kernel
// CHECK-NOT: gpu.func @m2
// CHECK-NOT: gpu.module @m
module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @m1::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @m2::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @m3::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @m0 {
    gpu.func @k(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @m1 {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @m2 {
    gpu.func @k(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index loc("other.model":7:3)
      %x = arith.constant 1.0 : f32 loc("other.model":7:3)
      memref.store %x, %a[%c0] : memref<4xf32> loc("other.model":7:3)
      gpu.return
    }
  }
  gpu.module @m3 {
    gpu.func @k(%a: memref<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// The constant the outlining copied into both kernels' modules moves into
// the merged module once, so the kernels' memref.get_global still resolve.
// CHECK-LABEL: func.func @g
// CHECK: gpu.module @all
// CHECK: memref.global "private" constant @table
// CHECK-NOT: memref.global
// CHECK-DAG: gpu.func @n0
// CHECK-DAG: gpu.func @n1
module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<4xf32> = dense<2.0>
  func.func @g(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @n0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @n1::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @n0 {
    memref.global "private" constant @table : memref<4xf32> = dense<2.0>
    gpu.func @k(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = memref.get_global @table : memref<4xf32>
      %v = memref.load %t[%c0] : memref<4xf32>
      memref.store %v, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @n1 {
    memref.global "private" constant @table : memref<4xf32> = dense<2.0>
    gpu.func @k(%a: memref<4xf32>) kernel {
      %c1 = arith.constant 1 : index
      %t = memref.get_global @table : memref<4xf32>
      %v = memref.load %t[%c1] : memref<4xf32>
      memref.store %v, %a[%c1] : memref<4xf32>
      gpu.return
    }
  }
}
