// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(modelc-inner-window-loops)' | FileCheck %s

// A 2x2 max-pool gradient fused into consumers that iterate in memory order:
// (n, c, oh, kh, ow, kw). The window dimensions kh and kw move innermost:
// (n, c, oh, ow, kh, kw), and linalg.index follows them.
#grad = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>
#out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-DAG: #[[GRAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4, d3, d5)>
// CHECK-LABEL: func.func @window_rows
// CHECK: linalg.generic {indexing_maps = [#[[GRAD]], #[[OUT]]]
// CHECK: linalg.index 4 : index
func.func @window_rows(%g: memref<?x32x14x14xf32>, %y: memref<?x32x14x2x14x2xf32>) {
  linalg.generic {indexing_maps = [#grad, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g : memref<?x32x14x14xf32>) outs(%y : memref<?x32x14x2x14x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %kh = linalg.index 3 : index
    %i = arith.index_cast %kh : index to i32
    %f = arith.sitofp %i : i32 to f32
    %r = arith.mulf %a, %f : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An elementwise op whose innermost loop is long (W = 28): left alone, even
// with a tiny channel dimension further out.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @rgb
// CHECK: indexing_maps = [#[[ID:.*]], #[[ID]]]
// CHECK-NOT: linalg.generic
func.func @rgb(%x: memref<?x3x28x28xf32>, %y: memref<?x3x28x28xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<?x3x28x28xf32>) outs(%y : memref<?x3x28x28xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Tiny dimensions already innermost: nothing to do.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @already_inner
// CHECK: indexing_maps = [#[[ID]], #[[ID]]]
func.func @already_inner(%x: memref<?x28x2xf32>, %y: memref<?x28x2xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<?x28x2xf32>) outs(%y : memref<?x28x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}
