// modelc-library-to-calls{gpu=true}: in the GPU pipeline (device buffers),
// the attention library ops call the runtime's fused GPU kernels,
// modelrt_cuda_attention_* (runtime/include/modelrt/cuda/GpuAbi.h), with
// the CPU calls' arguments: pointers, then batch, heads, queries, keys,
// width and causal (or, packed, batch, heads, length, width and causal).
// RUN: modelc-opt %s --modelc-library-to-calls=gpu=true --canonicalize | FileCheck %s

// CHECK-DAG: func.func private @modelrt_cuda_attention_forward(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_cuda_attention_backward(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_cuda_attention_packed_forward(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64)
// CHECK-DAG: func.func private @modelrt_cuda_attention_packed_backward(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64)
// CHECK-NOT: func.func private @modelrt_attention_

// CHECK-LABEL: func.func @attention(
// CHECK: %[[B:.*]] = arith.index_cast %dim : index to i64
// CHECK: call @modelrt_cuda_attention_forward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[B]], %c2_i64, %c4_i64, %c6_i64, %c8_i64, %c1_i64)
// CHECK: call @modelrt_cuda_attention_backward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c4_i64, %c6_i64, %c8_i64, %c0_i64)
func.func @attention(%q: memref<?x2x4x8xf32>, %k: memref<?x2x6x8xf32>, %o: memref<?x2x4x8xf32>, %d: memref<?xf32>) {
  mdl.lib_attention %q, %k, %k, %o {causal = true} : memref<?x2x4x8xf32>, memref<?x2x6x8xf32>, memref<?x2x6x8xf32>, memref<?x2x4x8xf32>
  mdl.lib_attention_grad %q, %k, %k, %o, %o, %d : memref<?x2x4x8xf32>, memref<?x2x6x8xf32>, memref<?x2x6x8xf32>, memref<?x2x4x8xf32>, memref<?x2x4x8xf32>, memref<?xf32>
  return
}

// CHECK-LABEL: func.func @attention_packed(
// CHECK: call @modelrt_cuda_attention_packed_forward(%{{.*}}, %{{.*}}, %{{[a-z0-9_]+}}, %c2_i64, %c4_i64, %c8_i64, %c1_i64)
// CHECK: call @modelrt_cuda_attention_packed_backward(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c4_i64, %c8_i64, %c0_i64)
// CHECK-NOT: mdl.lib_
func.func @attention_packed(%x: memref<?x4x3x2x8xf32>, %o: memref<?x4x2x8xf32>) {
  mdl.lib_attention_packed %x, %o {causal = true} : memref<?x4x3x2x8xf32>, memref<?x4x2x8xf32>
  mdl.lib_attention_packed_grad %x, %o, %o, %x : memref<?x4x3x2x8xf32>, memref<?x4x2x8xf32>, memref<?x4x2x8xf32>, memref<?x4x3x2x8xf32>
  return
}
