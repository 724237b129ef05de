// RUN: modelc-backend-test %s --last-stage=fusion | FileCheck %s --check-prefix=FUSED
// RUN: modelc-backend-test %s --last-stage=bufferization | FileCheck %s --check-prefix=BUF

// exp(x * 2 + y) as three elementwise ops: fusion leaves one linalg.generic,
// hence one loop nest, and no intermediate buffer.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%x: tensor<?x65xf32>, %y: tensor<?x65xf32>) -> tensor<?x65xf32> {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x65xf32>
  %e = tensor.empty(%n) : tensor<?x65xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x65xf32>) outs(%e : tensor<?x65xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %two : f32
    linalg.yield %m : f32
  } -> tensor<?x65xf32>
  %b = linalg.add ins(%a, %y : tensor<?x65xf32>, tensor<?x65xf32>) outs(%e : tensor<?x65xf32>) -> tensor<?x65xf32>
  %c = linalg.exp ins(%b : tensor<?x65xf32>) outs(%e : tensor<?x65xf32>) -> tensor<?x65xf32>
  return %c : tensor<?x65xf32>
}

// FUSED-LABEL: func.func @chain
// FUSED: linalg.generic
// FUSED: arith.mulf
// FUSED: arith.addf
// FUSED: math.exp
// FUSED: linalg.yield
// FUSED-NOT: linalg.generic
// FUSED-NOT: linalg.add
// FUSED-NOT: linalg.exp
// FUSED: return

// BUF-LABEL: func.func @chain(
// BUF-SAME: %[[OUT:[a-z0-9]+]]: memref<?x65xf32>)
// BUF-NOT: memref.alloc
// The nest is one loop over the B*65 elements (modelc-collapse-loop-dims),
// writing through a view of the out-param.
// BUF: %[[VIEW:.*]] = memref.collapse_shape %[[OUT]] {{\[}}[0, 1]] : memref<?x65xf32> into memref<?xf32>
// BUF-NOT: memref.alloc
// BUF: linalg.generic {{.*}} iterator_types = ["parallel"]{{.*}} outs(%[[VIEW]]
// BUF-NOT: linalg.generic
// BUF: return
