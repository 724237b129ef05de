// RUN: modelc-opt %s --split-input-file --modelc-gpu-prepare | FileCheck %s

// A bias gradient sums over the batch: [reduction, parallel] becomes
// [parallel, reduction], one GPU thread per output element.
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#m1 = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @bias_grad
// CHECK-NOT: scf.parallel
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
func.func @bias_grad(%g: memref<?x10xf32>, %out: memref<10xf32>) {
  linalg.generic {indexing_maps = [#m2, #m1], iterator_types = ["reduction", "parallel"]}
      ins(%g : memref<?x10xf32>) outs(%out : memref<10xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A full reduction (a loss sum) and a 0-d fill have no parallel loop: each
// is wrapped in a one-iteration scf.parallel, so that it runs on the device.
#m = affine_map<(d0) -> (d0)>
#s = affine_map<(d0) -> ()>
#z = affine_map<() -> ()>
// CHECK-LABEL: func.func @loss_sum
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[C1]]) step (%[[C1]])
// CHECK-NEXT: linalg.generic {{.*}}iterator_types = []
// CHECK: scf.parallel
// CHECK-NEXT: linalg.generic {{.*}}iterator_types = ["reduction"]
func.func @loss_sum(%x: memref<?xf32>, %loss: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#z], iterator_types = []} outs(%loss : memref<f32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#m, #s], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%loss : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Copies become linalg.copy (a kernel), and a scalar stored from host
// values (the batch size as f32) is stored by a one-thread kernel.
// CHECK-LABEL: func.func @copies_and_stores
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<?x4xf32>) outs(%{{.*}} : memref<?x4xf32>)
// CHECK: scf.parallel
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[] : memref<f32>
func.func @copies_and_stores(%a: memref<?x4xf32>, %b: memref<?x4xf32>, %n: memref<f32>) {
  %c0 = arith.constant 0 : index
  memref.copy %a, %b : memref<?x4xf32> to memref<?x4xf32>
  %d = memref.dim %a, %c0 : memref<?x4xf32>
  %i = arith.index_cast %d : index to i64
  %f = arith.sitofp %i : i64 to f32
  memref.store %f, %n[] : memref<f32>
  return
}
