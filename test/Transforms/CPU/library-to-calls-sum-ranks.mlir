// RUN: modelc-opt %s --modelc-library-to-calls --canonicalize | FileCheck %s
// modelc-library-to-calls: mdl.lib_sum_ranks on memrefs becomes
// modelrt_dist_sum_f64(input, sum, elements), the element count the
// product of the sizes (the dynamic batch read with memref.dim).

// CHECK: func.func private @modelrt_dist_sum_f64(!llvm.ptr, !llvm.ptr, i64)
// CHECK-LABEL: func.func @sum(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x3xf64>, %[[S:[a-z0-9]+]]: memref<?x3xf64>
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: %[[PX:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: memref.extract_aligned_pointer_as_index %[[S]]
// CHECK: %[[PS:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[D:.*]] = memref.dim %[[X]], %c0
// CHECK: %[[N:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK: %[[NN:.*]] = arith.muli %[[N]], %[[C3]] : i64
// CHECK: call @modelrt_dist_sum_f64(%[[PX]], %[[PS]], %[[NN]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NOT: mdl.lib_sum_ranks
func.func @sum(%x: memref<?x3xf64>, %s: memref<?x3xf64>) {
  mdl.lib_sum_ranks %x, %s : memref<?x3xf64>, memref<?x3xf64>
  return
}

// A 0-d count: one element.
// CHECK-LABEL: func.func @scalar(
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: call @modelrt_dist_sum_f64(%{{.*}}, %{{.*}}, %[[ONE]])
func.func @scalar(%x: memref<f64>, %s: memref<f64>) {
  mdl.lib_sum_ranks %x, %s : memref<f64>, memref<f64>
  return
}
