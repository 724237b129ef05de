// RUN: modelc-opt %s --modelc-fuse-elementwise | FileCheck %s

// A chain of five elementwise generics of 20 body ops each (19 multiplies
// and the yield). Fusion stops where the fused body would exceed 64 ops:
// the first three fuse (61 ops), the last two fuse (39 ops), and the cut
// between them stays.
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = linalg.generic
// CHECK-COUNT-57: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%[[A]] :
// CHECK-COUNT-38: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %g0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m0 = arith.mulf %in, %in : f32
    %m1 = arith.mulf %m0, %m0 : f32
    %m2 = arith.mulf %m1, %m1 : f32
    %m3 = arith.mulf %m2, %m2 : f32
    %m4 = arith.mulf %m3, %m3 : f32
    %m5 = arith.mulf %m4, %m4 : f32
    %m6 = arith.mulf %m5, %m5 : f32
    %m7 = arith.mulf %m6, %m6 : f32
    %m8 = arith.mulf %m7, %m7 : f32
    %m9 = arith.mulf %m8, %m8 : f32
    %m10 = arith.mulf %m9, %m9 : f32
    %m11 = arith.mulf %m10, %m10 : f32
    %m12 = arith.mulf %m11, %m11 : f32
    %m13 = arith.mulf %m12, %m12 : f32
    %m14 = arith.mulf %m13, %m13 : f32
    %m15 = arith.mulf %m14, %m14 : f32
    %m16 = arith.mulf %m15, %m15 : f32
    %m17 = arith.mulf %m16, %m16 : f32
    %m18 = arith.mulf %m17, %m17 : f32
    linalg.yield %m18 : f32
  } -> tensor<8xf32>
  %g1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%g0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m0 = arith.mulf %in, %in : f32
    %m1 = arith.mulf %m0, %m0 : f32
    %m2 = arith.mulf %m1, %m1 : f32
    %m3 = arith.mulf %m2, %m2 : f32
    %m4 = arith.mulf %m3, %m3 : f32
    %m5 = arith.mulf %m4, %m4 : f32
    %m6 = arith.mulf %m5, %m5 : f32
    %m7 = arith.mulf %m6, %m6 : f32
    %m8 = arith.mulf %m7, %m7 : f32
    %m9 = arith.mulf %m8, %m8 : f32
    %m10 = arith.mulf %m9, %m9 : f32
    %m11 = arith.mulf %m10, %m10 : f32
    %m12 = arith.mulf %m11, %m11 : f32
    %m13 = arith.mulf %m12, %m12 : f32
    %m14 = arith.mulf %m13, %m13 : f32
    %m15 = arith.mulf %m14, %m14 : f32
    %m16 = arith.mulf %m15, %m15 : f32
    %m17 = arith.mulf %m16, %m16 : f32
    %m18 = arith.mulf %m17, %m17 : f32
    linalg.yield %m18 : f32
  } -> tensor<8xf32>
  %g2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%g1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m0 = arith.mulf %in, %in : f32
    %m1 = arith.mulf %m0, %m0 : f32
    %m2 = arith.mulf %m1, %m1 : f32
    %m3 = arith.mulf %m2, %m2 : f32
    %m4 = arith.mulf %m3, %m3 : f32
    %m5 = arith.mulf %m4, %m4 : f32
    %m6 = arith.mulf %m5, %m5 : f32
    %m7 = arith.mulf %m6, %m6 : f32
    %m8 = arith.mulf %m7, %m7 : f32
    %m9 = arith.mulf %m8, %m8 : f32
    %m10 = arith.mulf %m9, %m9 : f32
    %m11 = arith.mulf %m10, %m10 : f32
    %m12 = arith.mulf %m11, %m11 : f32
    %m13 = arith.mulf %m12, %m12 : f32
    %m14 = arith.mulf %m13, %m13 : f32
    %m15 = arith.mulf %m14, %m14 : f32
    %m16 = arith.mulf %m15, %m15 : f32
    %m17 = arith.mulf %m16, %m16 : f32
    %m18 = arith.mulf %m17, %m17 : f32
    linalg.yield %m18 : f32
  } -> tensor<8xf32>
  %g3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%g2 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m0 = arith.mulf %in, %in : f32
    %m1 = arith.mulf %m0, %m0 : f32
    %m2 = arith.mulf %m1, %m1 : f32
    %m3 = arith.mulf %m2, %m2 : f32
    %m4 = arith.mulf %m3, %m3 : f32
    %m5 = arith.mulf %m4, %m4 : f32
    %m6 = arith.mulf %m5, %m5 : f32
    %m7 = arith.mulf %m6, %m6 : f32
    %m8 = arith.mulf %m7, %m7 : f32
    %m9 = arith.mulf %m8, %m8 : f32
    %m10 = arith.mulf %m9, %m9 : f32
    %m11 = arith.mulf %m10, %m10 : f32
    %m12 = arith.mulf %m11, %m11 : f32
    %m13 = arith.mulf %m12, %m12 : f32
    %m14 = arith.mulf %m13, %m13 : f32
    %m15 = arith.mulf %m14, %m14 : f32
    %m16 = arith.mulf %m15, %m15 : f32
    %m17 = arith.mulf %m16, %m16 : f32
    %m18 = arith.mulf %m17, %m17 : f32
    linalg.yield %m18 : f32
  } -> tensor<8xf32>
  %g4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%g3 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m0 = arith.mulf %in, %in : f32
    %m1 = arith.mulf %m0, %m0 : f32
    %m2 = arith.mulf %m1, %m1 : f32
    %m3 = arith.mulf %m2, %m2 : f32
    %m4 = arith.mulf %m3, %m3 : f32
    %m5 = arith.mulf %m4, %m4 : f32
    %m6 = arith.mulf %m5, %m5 : f32
    %m7 = arith.mulf %m6, %m6 : f32
    %m8 = arith.mulf %m7, %m7 : f32
    %m9 = arith.mulf %m8, %m8 : f32
    %m10 = arith.mulf %m9, %m9 : f32
    %m11 = arith.mulf %m10, %m10 : f32
    %m12 = arith.mulf %m11, %m11 : f32
    %m13 = arith.mulf %m12, %m12 : f32
    %m14 = arith.mulf %m13, %m13 : f32
    %m15 = arith.mulf %m14, %m14 : f32
    %m16 = arith.mulf %m15, %m15 : f32
    %m17 = arith.mulf %m16, %m16 : f32
    %m18 = arith.mulf %m17, %m17 : f32
    linalg.yield %m18 : f32
  } -> tensor<8xf32>
  return %g4 : tensor<8xf32>
}
