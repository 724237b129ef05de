// RUN: modelc-backend-test %s --pass-pipeline='modelc-cpu-lowering{stop-after=kernels instrument-kernels=false}' | FileCheck %s
// RUN: modelc-backend-test %s --last-stage=kernels | FileCheck %s --check-prefix=PROF
// RUN: modelc-opt %s --pass-pipeline='builtin.module(modelc-cpu-lowering{stop-after=blas},modelc-outline-kernels{instrument=true})' | FileCheck %s --check-prefix=PROF

// Every top-level kernel of a public function (here: the sgemm and the
// fused bias+relu generic) moves into its own private noinline function,
// named after the function, its index and the mdl ops in its location.
// Constants are cloned into the kernel, not passed as arguments.
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @dense(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32> loc(#loc_mm)
  %p = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32> loc(#loc_mm)
  %r = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<?x32xf32>, tensor<32xf32>) outs(%e : tensor<?x32xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x32xf32> loc(#loc_fused)
  return %r : tensor<?x32xf32>
}
#file = loc("net.model":3:7)
#file2 = loc("net.model":3:20)
#loc_mm = loc("matmul"(#file))
#loc_add = loc("add"(#file))
#loc_relu = loc("relu"(#file2))
#loc_fused = loc(fused[#loc_add, #loc_relu])

// CHECK-LABEL: func.func private @dense.k0.matmul.cblas_sgemm(
// CHECK-SAME: passthrough = ["noinline"]
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: call @cblas_sgemm(
// CHECK-LABEL: func.func private @dense.k1.add.relu(
// CHECK-SAME: %{{.*}}: memref<?x32xf32>, %{{.*}}: memref<32xf32>)
// CHECK-SAME: passthrough = ["noinline"]
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK-LABEL: func.func @dense(
// CHECK-NOT: linalg.generic
// CHECK: call @dense.k0.matmul.cblas_sgemm(
// CHECK-NOT: linalg.generic
// CHECK: call @dense.k1.add.relu(
// CHECK-NOT: modelrt_kernel
// CHECK: return

// With instrumentation, each call is bracketed by the runtime's hooks with
// the kernel's label, its FLOPs: 2*M*N*K for the sgemm (M read at run
// time), rows x 32 x 2 payload ops for the fused generic; and its bytes,
// each buffer once: 256*rows (x) + 8192 (w) + 128*rows (the product) for
// the sgemm, whose buffers are found behind its pointer arguments, and
// 128*rows (the product, updated in place) + 128 (b) for the generic.
// PROF-DAG: llvm.mlir.global internal constant @__modelc_kernel_dense_k0_matmul_cblas_sgemm("dense.k0.matmul.cblas_sgemm @ net.model:3\00")
// PROF-DAG: llvm.mlir.global internal constant @__modelc_kernel_dense_k1_add_relu("dense.k1.add.relu @ net.model:3\00")
// PROF-DAG: func.func private @modelrt_kernel_enter(!llvm.ptr)
// PROF-DAG: func.func private @modelrt_kernel_exit(!llvm.ptr, i64, i64)
// PROF-LABEL: func.func @dense(
// PROF: %[[TWO_M:.*]] = arith.muli %c2_i64, %{{.*}} : i64
// PROF: %[[TWO_MN:.*]] = arith.muli %[[TWO_M]], %{{.*}} : i64
// PROF: %[[SGEMM_FLOPS:.*]] = arith.muli %[[TWO_MN]], %{{.*}} : i64
// PROF: %[[X_BYTES:.*]] = arith.muli %c256_i64, %{{.*}} : i64
// PROF: %[[XW_BYTES:.*]] = arith.addi %[[X_BYTES]], %c8192_i64 : i64
// PROF: %[[P_BYTES:.*]] = arith.muli %c128_i64, %{{.*}} : i64
// PROF: %[[SGEMM_BYTES:.*]] = arith.addi %[[XW_BYTES]], %[[P_BYTES]] : i64
// PROF: %[[NAME0:.*]] = llvm.mlir.addressof @__modelc_kernel_dense_k0_matmul_cblas_sgemm
// PROF: call @modelrt_kernel_enter(%{{.*}})
// PROF-NEXT: call @dense.k0.matmul.cblas_sgemm(
// PROF-NEXT: call @modelrt_kernel_exit(%{{.*}}, %[[SGEMM_FLOPS]], %[[SGEMM_BYTES]])
// PROF: %[[F1:.*]] = arith.muli %c2_i64{{.*}}, %{{.*}} : i64
// PROF: %[[GEN_FLOPS:.*]] = arith.muli %[[F1]], %{{.*}} : i64
// PROF: %[[G_P:.*]] = arith.muli %c128_i64{{.*}}, %{{.*}} : i64
// PROF: %[[GEN_BYTES:.*]] = arith.addi %[[G_P]], %c128_i64{{.*}} : i64
// PROF: call @modelrt_kernel_enter(
// PROF-NEXT: call @dense.k1.add.relu(
// PROF-NEXT: call @modelrt_kernel_exit(%{{.*}}, %[[GEN_FLOPS]], %[[GEN_BYTES]])
