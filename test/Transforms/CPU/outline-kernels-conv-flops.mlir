// RUN: modelc-opt %s --modelc-outline-kernels="instrument=true" --canonicalize | FileCheck %s
// modelc-outline-kernels with instrument: a convolution call's FLOPs are
// 2 N O OH OW C KH KW (here 2 x 4 x 8 x 8 x 3 x 3 x 3 = 13,824 per image);
// modelrt_conv2d_backward runs both gradients, so twice that (27,648), as
// does modelrt_conv2d_backward_from_max_pool2d_bf16 (the pooling's
// gradient adds no FLOPs).

// CHECK-LABEL: func.func @step(
// CHECK: %[[BOTH:.*]] = arith.muli %arg1, %c27648_i64 : i64
// CHECK: call @step.k0.modelrt_conv2d_backward(
// CHECK-NEXT: call @modelrt_kernel_exit(%{{.*}}, %[[BOTH]], %{{.*}})
// CHECK: %[[DATA:.*]] = arith.muli %arg1, %c13824_i64 : i64
// CHECK: call @step.k1.modelrt_conv2d_backward_data(
// CHECK-NEXT: call @modelrt_kernel_exit(%{{.*}}, %[[DATA]], %{{.*}})
// CHECK: %[[POOLED:.*]] = arith.muli %arg1, %c27648_i64 : i64
// CHECK: call @step.k2.modelrt_conv2d_backward_from_max_pool2d_bf16(
// CHECK-NEXT: call @modelrt_kernel_exit(%{{.*}}, %[[POOLED]], %{{.*}})
func.func private @modelrt_conv2d_backward_from_max_pool2d_bf16(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
func.func private @modelrt_conv2d_backward(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
func.func private @modelrt_conv2d_backward_data(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
func.func @step(%p: !llvm.ptr, %n: i64) {
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c8 = arith.constant 8 : i64
  call @modelrt_conv2d_backward(%p, %p, %p, %p, %p, %n, %c3, %c8, %c8, %c4, %c3, %c3, %c8, %c8, %c1, %c1, %c1, %c1, %c1, %c1) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
  call @modelrt_conv2d_backward_data(%p, %p, %p, %n, %c3, %c8, %c8, %c4, %c3, %c3, %c8, %c8, %c1, %c1, %c1, %c1, %c1, %c1) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
  call @modelrt_conv2d_backward_from_max_pool2d_bf16(%p, %p, %p, %p, %p, %p, %p, %n, %c3, %c8, %c8, %c4, %c3, %c3, %c8, %c8, %c1, %c1, %c1, %c1, %c1, %c1) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
  return
}
