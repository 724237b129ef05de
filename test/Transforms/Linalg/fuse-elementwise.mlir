// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(modelc-fuse-elementwise)' | FileCheck %s

// An im2col-style rank-6 copy collapsed into the rhs of a product: the
// collapse is not propagated into the contraction, which stays rank 2 (the
// form modelc-matmul-to-blas hands to cblas_sgemm). Upstream's
// linalg-fuse-elementwise-ops would make it a rank-5 contraction.
#read = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d4 + d1, d5 + d2)>
#id6 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @product_stays_rank2
// CHECK: %[[COLS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x3x?x4x4xf32>)
// CHECK: %[[MAT:.*]] = tensor.collapse_shape %[[COLS]] {{\[}}[0, 1, 2], [3, 4, 5]]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[MAT]] : tensor<5x18xf32>, tensor<18x?xf32>)
func.func @product_stays_rank2(%x: tensor<?x2x6x6xf32>, %w: tensor<5x18xf32>, %acc: tensor<5x?xf32>) -> tensor<5x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2x6x6xf32>
  %e = tensor.empty(%n) : tensor<2x3x3x?x4x4xf32>
  %cols = linalg.generic {indexing_maps = [#read, #id6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x2x6x6xf32>) outs(%e : tensor<2x3x3x?x4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2x3x3x?x4x4xf32>
  %m = tensor.collapse_shape %cols [[0, 1, 2], [3, 4, 5]] : tensor<2x3x3x?x4x4xf32> into tensor<18x?xf32>
  %r = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %m : tensor<5x18xf32>, tensor<18x?xf32>) outs(%acc : tensor<5x?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<5x?xf32>
  return %r : tensor<5x?xf32>
}

// -----

// A size check (tensor.dim of the producer's result) does not count as a
// use: the compare fuses into the select that consumes it.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @dim_is_not_a_use
// CHECK: linalg.generic
// CHECK: arith.cmpf ogt
// CHECK-NOT: linalg.generic
// CHECK: arith.select
// CHECK-NOT: linalg.generic
func.func @dim_is_not_a_use(%x: tensor<?x8xf32>, %g: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e1 = tensor.empty(%n) : tensor<?x8xi1>
  %pos = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x8xf32>) outs(%e1 : tensor<?x8xi1>) {
  ^bb0(%v: f32, %o: i1):
    %b = arith.cmpf ogt, %v, %zero : f32
    linalg.yield %b : i1
  } -> tensor<?x8xi1>
  %m = tensor.dim %pos, %c0 : tensor<?x8xi1>
  %k = tensor.dim %g, %c0 : tensor<?x8xf32>
  %same = arith.cmpi eq, %m, %k : index
  cf.assert %same, "sizes differ"
  %e2 = tensor.empty(%m) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%pos, %g : tensor<?x8xi1>, tensor<?x8xf32>) outs(%e2 : tensor<?x8xf32>) {
  ^bb0(%p: i1, %v: f32, %o: f32):
    %s = arith.select %p, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// An elementwise consumer of a collapsed rank-6 result is expanded to rank
// 6 and fused with its producer (the max-pool gradient and relu's mask).
#g = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
#o6 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4, d3, d5)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @expand_consumer
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x2x3x2x3x2xf32>)
// CHECK: arith.mulf
// CHECK: arith.select
// CHECK: tensor.collapse_shape
// CHECK-NOT: linalg.generic
func.func @expand_consumer(%g: tensor<?x2x3x3xf32>, %mask: tensor<?x2x6x6xi1>) -> tensor<?x2x6x6xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %g, %c0 : tensor<?x2x3x3xf32>
  %e = tensor.empty(%n) : tensor<?x2x3x2x3x2xf32>
  %t = linalg.generic {indexing_maps = [#g, #o6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g : tensor<?x2x3x3xf32>) outs(%e : tensor<?x2x3x2x3x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %h = arith.mulf %v, %v : f32
    linalg.yield %h : f32
  } -> tensor<?x2x3x2x3x2xf32>
  %c = tensor.collapse_shape %t [[0], [1], [2, 3], [4, 5]] : tensor<?x2x3x2x3x2xf32> into tensor<?x2x6x6xf32>
  %e2 = tensor.empty(%n) : tensor<?x2x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%mask, %c : tensor<?x2x6x6xi1>, tensor<?x2x6x6xf32>) outs(%e2 : tensor<?x2x6x6xf32>) {
  ^bb0(%p: i1, %v: f32, %o: f32):
    %s = arith.select %p, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<?x2x6x6xf32>
  return %r : tensor<?x2x6x6xf32>
}

// -----

// A generic that reads linalg.index (dropout's counter over the flattened
// tensor) is not expanded: the collapse stays in front of it.
#w = affine_map<(d0, d1) -> (d0, d1)>
#flat = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @index_generic_not_expanded
// CHECK: arith.negf
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]}
// CHECK: linalg.index 0
func.func @index_generic_not_expanded(%x: tensor<4x16xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %a = linalg.generic {indexing_maps = [#w, #w], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %h = arith.negf %v : f32
    linalg.yield %h : f32
  } -> tensor<4x16xf32>
  %f = tensor.collapse_shape %a [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]}
      ins(%f : tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %s = arith.addf %v, %fi : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A conv result read back from the GEMM through a linearising map cannot
// be expanded; the relu reading its expand_shape is collapsed instead and
// fused with it: bias and relu in one loop, then the expand.
#lin = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
#bias = affine_map<(d0, d1, d2) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4b = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @collapse_into_window_producer
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x3x16xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape
// CHECK-NOT: linalg.generic
func.func @collapse_into_window_producer(%m: tensor<3x?xf32>, %b: tensor<3xf32>, %n: index) -> tensor<?x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x3x16xf32>
  %y = linalg.generic {indexing_maps = [#lin, #bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m, %b : tensor<3x?xf32>, tensor<3xf32>) outs(%e : tensor<?x3x16xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<?x3x16xf32>
  %x = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [%n, 3, 4, 4] : tensor<?x3x16xf32> into tensor<?x3x4x4xf32>
  %e2 = tensor.empty(%n) : tensor<?x3x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4b, #id4b], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x3x4x4xf32>) outs(%e2 : tensor<?x3x4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.maximumf %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<?x3x4x4xf32>
  return %r : tensor<?x3x4x4xf32>
}

// -----

// An elementwise producer with one use (eval's relu before the next layer)
// is not fused into the product reading it: the contraction keeps its
// plain multiply-add body, which the BLAS rewrite recognises.
#x = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @no_fusion_into_product
// CHECK: arith.maximumf
// CHECK: linalg.yield
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
func.func @no_fusion_into_product(%h: tensor<4x8xf32>, %w: tensor<8x3xf32>, %acc: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%r, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%acc : tensor<4x3xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %t = arith.mulf %u, %v : f32
    %s = arith.addf %o, %t : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %p : tensor<4x3xf32>
}

// -----

// A transpose (a generic that only moves data) does fuse into the product:
// the product reads the weight through a permuted map (the BLAS rewrite's
// transposed operand) and no transposed copy is made.
#t_in = affine_map<(d0, d1) -> (d1, d0)>
#t_out = affine_map<(d0, d1) -> (d0, d1)>
#pa = affine_map<(d0, d1, d2) -> (d0, d2)>
#pb = affine_map<(d0, d1, d2) -> (d2, d1)>
#pc = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[WT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @transpose_into_product
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[WT]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<3x8xf32>)
// CHECK-NOT: linalg.generic
func.func @transpose_into_product(%x: tensor<4x8xf32>, %w: tensor<3x8xf32>, %acc: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<8x3xf32>
  %wt = linalg.generic {indexing_maps = [#t_in, #t_out], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<3x8xf32>) outs(%e : tensor<8x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<8x3xf32>
  %p = linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wt : tensor<4x8xf32>, tensor<8x3xf32>) outs(%acc : tensor<4x3xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %t = arith.mulf %u, %v : f32
    %s = arith.addf %o, %t : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %p : tensor<4x3xf32>
}
