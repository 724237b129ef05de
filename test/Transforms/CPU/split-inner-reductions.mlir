// RUN: modelc-opt %s --modelc-split-inner-reductions | FileCheck %s
// modelc-split-inner-reductions: a float sum or max over the innermost
// dimension becomes a lanes generic (L partial results, the lane dimension
// parallel and innermost, filled with the combiner's neutral element) and a
// combine generic into the original init. Contractions, linalg.index,
// dynamic or indivisible extents and outer reductions are left alone.

#row = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_map<(d0, d1) -> (d0)>

// [?, 784] summed over 784 = 49 x 16: 16 lanes, the batch stays dynamic.
// CHECK-LABEL: func.func @bias_grad(
// CHECK-SAME: %[[X:.*]]: tensor<?x784xf32>, %[[INIT:.*]]: tensor<?xf32>
// CHECK: %[[SPLIT:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 49, 16] : tensor<?x784xf32> into tensor<?x49x16xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<?x16xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<?x16xf32>)
// CHECK: %[[LANES:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[SPLIT]] : tensor<?x49x16xf32>) outs(%[[FILL]] : tensor<?x16xf32>)
// CHECK: arith.addf
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[LANES]] : tensor<?x16xf32>) outs(%[[INIT]] : tensor<?xf32>)
// CHECK: arith.addf
// CHECK: return %[[SUM]]
func.func @bias_grad(%x: tensor<?x784xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic {indexing_maps = [#row, #first], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x784xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// A fused body (x * x) and an aux input that does not read the reduced
// dimension keep their meaning; 196 = 49 x 4 gives 4 lanes; a max starts
// from -inf.
// CHECK-LABEL: func.func @fused_max(
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 49, 4] : tensor<?x196xf32> into tensor<?x49x4xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<?x49x4xf32>, tensor<?xf32>)
// CHECK: arith.mulf
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
func.func @fused_max(%x: tensor<?x196xf32>, %s: tensor<?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic {indexing_maps = [#row, #first, #first], iterator_types = ["parallel", "reduction"]} ins(%x, %s : tensor<?x196xf32>, tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%in: f32, %scale: f32, %out: f32):
    %p = arith.mulf %in, %scale : f32
    %m = arith.maximumf %p, %out : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// A sum of everything into a 0-d tensor.
// CHECK-LABEL: func.func @total(
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<62500x16xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%{{.*}} : tensor<16xf32>) outs(%{{.*}} : tensor<f32>)
func.func @total(%x: tensor<1000000xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<1000000xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

// Left alone: a contraction (modelc-matmul-to-blas takes it), an extent of
// 10 (no lane width divides it), a dynamic extent, a reduction that is not
// innermost, and a generic reading linalg.index.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: linalg.generic
func.func @left_alone(%a: tensor<?x64xf32>, %b: tensor<32x64xf32>, %c: tensor<?x32xf32>, %x10: tensor<?x10xf32>, %i10: tensor<?xf32>, %xd: tensor<?x?xf32>, %xo: tensor<64x?xf32>, %io: tensor<?xf32>, %x32: tensor<?x32xf32>) -> (tensor<?x32xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<?x64xf32>, tensor<32x64xf32>) outs(%c : tensor<?x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<?x32xf32>
  %s10 = linalg.generic {indexing_maps = [#row, #first], iterator_types = ["parallel", "reduction"]} ins(%x10 : tensor<?x10xf32>) outs(%i10 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %sd = linalg.generic {indexing_maps = [#row, #first], iterator_types = ["parallel", "reduction"]} ins(%xd : tensor<?x?xf32>) outs(%i10 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %so = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, #first], iterator_types = ["parallel", "reduction"]} ins(%xo : tensor<64x?xf32>) outs(%io : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %si = linalg.generic {indexing_maps = [#row, #first], iterator_types = ["parallel", "reduction"]} ins(%x32 : tensor<?x32xf32>) outs(%i10 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = linalg.index 1 : index
    %f = arith.index_cast %k : index to i32
    %g = arith.sitofp %f : i32 to f32
    %p = arith.mulf %in, %g : f32
    %s = arith.addf %p, %out : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %mm, %s10, %sd, %so, %si : tensor<?x32xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
