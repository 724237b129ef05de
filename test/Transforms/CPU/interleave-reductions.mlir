// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(modelc-interleave-reductions)' | FileCheck %s

// A conv bias gradient: [N, 32, 784] summed into [32]. The channel loop
// moves innermost (N and H*W keep their order): the 32 sums interleave,
// each adding its terms in the same order as before.
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @bias_grad
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["reduction", "reduction", "parallel"]}
func.func @bias_grad(%x: memref<?x32x784xf32>, %y: memref<32xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : memref<?x32x784xf32>) outs(%y : memref<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Row sums over a dynamic batch: the parallel extent is unknown (it may be
// large), so the loops stay as they are.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_sums
// CHECK: iterator_types = ["parallel", "reduction"]
func.func @row_sums(%x: memref<?x10xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x10xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// More than 4096 outputs: left alone.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @many_outputs
// CHECK: iterator_types = ["parallel", "reduction"]
func.func @many_outputs(%x: memref<8192x64xf32>, %y: memref<8192xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8192x64xf32>) outs(%y : memref<8192xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A dense bias gradient already has its parallel loop innermost.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @dense_bias_grad
// CHECK: iterator_types = ["reduction", "parallel"]
func.func @dense_bias_grad(%x: memref<?x256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<?x256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
