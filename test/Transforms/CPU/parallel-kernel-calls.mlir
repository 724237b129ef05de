// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(modelc-parallel-kernel-calls)' | FileCheck %s
// A second run changes nothing (the trampoline keeps calling the part).
// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(modelc-parallel-kernel-calls,modelc-parallel-kernel-calls)' | FileCheck %s

// A call of a part function (begin, end, work, then its captured values)
// becomes: the captured values stored into a stack frame allocated in the
// entry block, and modelrt_parallel_for(@part.run, frame, begin, end, work).
// @part.run loads them back and calls the part with a work of 0.
// CHECK-LABEL: llvm.func @k.part0(
// CHECK-NOT: modelc.parallel_part
// CHECK-LABEL: llvm.func internal @k.part0.run(
// CHECK-SAME: %[[CTX:[a-z0-9]+]]: !llvm.ptr, %[[B:[a-z0-9]+]]: i64, %[[E:[a-z0-9]+]]: i64)
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[CTX]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i64, f32)>
// CHECK: %[[P:.*]] = llvm.load %[[F0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: %[[N:.*]] = llvm.load %[[F1]] : !llvm.ptr -> i64
// CHECK: %[[F2:.*]] = llvm.getelementptr %[[CTX]][0, 2]
// CHECK: %[[S:.*]] = llvm.load %[[F2]] : !llvm.ptr -> f32
// CHECK: llvm.call @k.part0(%[[B]], %[[E]], %[[ZERO]], %[[P]], %[[N]], %[[S]])
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %[[XP:[a-z0-9]+]]: !llvm.ptr, %[[XN:[a-z0-9]+]]: i64, %[[XS:[a-z0-9]+]]: f32)
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[FRAME:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, i64, f32)>
// CHECK: llvm.store %[[XP]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK: llvm.store %[[XN]], %{{.*}} : i64, !llvm.ptr
// CHECK: llvm.store %[[XS]], %{{.*}} : f32, !llvm.ptr
// CHECK: %[[FN:.*]] = llvm.mlir.addressof @k.part0.run : !llvm.ptr
// CHECK: llvm.call @modelrt_parallel_for(%[[FN]], %[[FRAME]], %{{.*}}, %[[XN]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
// CHECK-NOT: llvm.call @k.part0(
// CHECK: llvm.func @modelrt_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64, i64)
llvm.func @k.part0(%b: i64, %e: i64, %w: i64, %p: !llvm.ptr, %n: i64, %s: f32) attributes {modelc.parallel_part} {
  llvm.return
}
llvm.func @k(%p: !llvm.ptr, %n: i64, %s: f32) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %w = llvm.mlir.constant(1000000 : i64) : i64
  llvm.call @k.part0(%c0, %n, %w, %p, %n, %s) : (i64, i64, i64, !llvm.ptr, i64, f32) -> ()
  llvm.return
}

// -----

// Calls of other functions are left alone.
// CHECK-LABEL: llvm.func @caller
// CHECK: llvm.call @plain
// CHECK-NOT: modelrt_parallel_for
llvm.func @plain(%b: i64, %e: i64, %w: i64)
llvm.func @caller(%n: i64) {
  llvm.call @plain(%n, %n, %n) : (i64, i64, i64) -> ()
  llvm.return
}
