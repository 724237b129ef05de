// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(modelc-collapse-loop-dims)' | FileCheck %s

// An elementwise op over f32[B, 32, 28, 28]: one loop over every element.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @relu
// CHECK: %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2, 3]] : tensor<?x32x28x28xf32> into tensor<?xf32>
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel"]} ins(%[[X]] : tensor<?xf32>)
// CHECK: tensor.expand_shape %[[Y]] {{\[}}[0, 1, 2, 3]] output_shape [%{{.*}}, 32, 28, 28] : tensor<?xf32> into tensor<?x32x28x28xf32>
func.func @relu(%x: tensor<?x32x28x28xf32>) -> tensor<?x32x28x28xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x32x28x28xf32>
  %e = tensor.empty(%n) : tensor<?x32x28x28xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x32x28x28xf32>) outs(%e : tensor<?x32x28x28xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x32x28x28xf32>
  return %y : tensor<?x32x28x28xf32>
}

// -----

// A bias added over the channels: H and W merge (contiguous everywhere),
// B and C do not (the bias is indexed by C alone).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bias
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<?x32x28x28xf32> into tensor<?x32x784xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]]
func.func @bias(%x: tensor<?x32x28x28xf32>, %b: tensor<32xf32>) -> tensor<?x32x28x28xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x32x28x28xf32>
  %e = tensor.empty(%n) : tensor<?x32x28x28xf32>
  %y = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<?x32x28x28xf32>, tensor<32xf32>) outs(%e : tensor<?x32x28x28xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.addf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x32x28x28xf32>
  return %y : tensor<?x32x28x28xf32>
}

// -----

// Max pooling (window 2) is left alone: its input map is not a projected
// permutation.
#in = affine_map<(d0, d1, d2) -> (d0, d1 * 2 + d2)>
#win = affine_map<(d0, d1, d2) -> (d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @pool
// CHECK-NOT: collapse_shape
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
func.func @pool(%x: tensor<4x8xf32>, %w: tensor<2xf32>, %init: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = linalg.generic {indexing_maps = [#in, #win, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x8xf32>, tensor<2xf32>) outs(%init : tensor<4x4xf32>) {
  ^bb0(%v: f32, %k: f32, %o: f32):
    %r = arith.maximumf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// A generic that reads linalg.index keeps its coordinates (collapsing would
// divide them back out of the linear index).
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @uses_index
// CHECK-NOT: collapse_shape
// CHECK: linalg.index 1
func.func @uses_index(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %r = arith.addf %v, %f : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// A reshaping copy (the input map is not a projected permutation: d1*9 +
// d2*3 + d3) is left alone; MLIR's collapsing would rewrite it wrongly.
#in = affine_map<(d0, d1, d2, d3) -> (d0, d1 * 9 + d2 * 3 + d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @reshaping_copy
// CHECK-NOT: collapse_shape
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
func.func @reshaping_copy(%x: tensor<64x288xf32>) -> tensor<64x32x3x3xf32> {
  %e = tensor.empty() : tensor<64x32x3x3xf32>
  %y = linalg.generic {indexing_maps = [#in, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<64x288xf32>) outs(%e : tensor<64x32x3x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<64x32x3x3xf32>
  return %y : tensor<64x32x3x3xf32>
}

// -----

// Two dynamic extents are not merged (expanding them back into ?x? crashes
// MLIR 22's expand-strided-metadata).
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @two_dynamic
// CHECK-NOT: collapse_shape
// CHECK: iterator_types = ["parallel", "parallel"]
func.func @two_dynamic(%x: tensor<?x?xf32>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// A fill (no input) is left alone: it is often the zero init of a product,
// which modelc-matmul-to-blas folds into beta = 0 when it sees it directly.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @fill
// CHECK-NOT: collapse_shape
// CHECK: iterator_types = ["parallel", "parallel"]
func.func @fill(%e: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %y = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x6xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  } -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// A sum over N, H and W (a conv bias gradient): H and W, both reductions
// and contiguous everywhere, merge, so the innermost loop is 784 long.
#in = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#out = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bias_grad
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<?x32x28x28xf32> into tensor<?x32x784xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
func.func @bias_grad(%x: tensor<?x32x28x28xf32>, %acc: tensor<32xf32>) -> tensor<32xf32> {
  %y = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<?x32x28x28xf32>) outs(%acc : tensor<32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %y : tensor<32xf32>
}
