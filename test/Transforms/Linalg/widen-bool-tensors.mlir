// RUN: modelc-opt %s --split-input-file --pass-pipeline='builtin.module(modelc-widen-bool-tensors)' | FileCheck %s

// A mask made by one generic and read by two others (dropout's forward and
// its gradient): it becomes an i8 tensor; the producer yields extui and each
// consumer truncates its argument back to i1.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @mask_between_kernels
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x65xi8>
// CHECK: %[[M:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<?x65xi8>)
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: i8):
// CHECK: %[[C:.*]] = arith.cmpf ogt
// CHECK: %[[W:.*]] = arith.extui %[[C]] : i1 to i8
// CHECK: linalg.yield %[[W]] : i8
// CHECK: } -> tensor<?x65xi8>
// CHECK: linalg.generic {{.*}} ins(%[[M]], %{{.*}} : tensor<?x65xi8>, tensor<?x65xf32>)
// CHECK: ^bb0(%[[A:.*]]: i8, %[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[B:.*]] = arith.trunci %[[A]] : i8 to i1
// CHECK: arith.select %[[B]], %[[X]]
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<?x65xi8>)
// CHECK: arith.trunci %{{.*}} : i8 to i1
func.func @mask_between_kernels(%x: tensor<?x65xf32>, %g: tensor<?x65xf32>) -> (tensor<?x65xf32>, tensor<?x65xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x65xf32>
  %eb = tensor.empty(%n) : tensor<?x65xi1>
  %ef = tensor.empty(%n) : tensor<?x65xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x65xf32>) outs(%eb : tensor<?x65xi1>) {
  ^bb0(%v: f32, %o: i1):
    %c = arith.cmpf ogt, %v, %zero : f32
    linalg.yield %c : i1
  } -> tensor<?x65xi1>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %g : tensor<?x65xi1>, tensor<?x65xf32>) outs(%ef : tensor<?x65xf32>) {
  ^bb0(%b: i1, %v: f32, %o: f32):
    %s = arith.select %b, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<?x65xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<?x65xi1>) outs(%ef : tensor<?x65xf32>) {
  ^bb0(%b: i1, %o: f32):
    %s = arith.select %b, %one, %zero : f32
    linalg.yield %s : f32
  } -> tensor<?x65xf32>
  return %y, %z : tensor<?x65xf32>, tensor<?x65xf32>
}

// -----

// A mask that leaves the function stays i1 (the signature is kept).
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @returned_mask
// CHECK-NOT: i8
// CHECK: return %{{.*}} : tensor<7xi1>
func.func @returned_mask(%x: tensor<7xf32>) -> tensor<7xi1> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7xi1>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<7xf32>) outs(%e : tensor<7xi1>) {
  ^bb0(%v: f32, %o: i1):
    %c = arith.cmpf ogt, %v, %zero : f32
    linalg.yield %c : i1
  } -> tensor<7xi1>
  return %m : tensor<7xi1>
}

// -----

// A mask whose init the payload reads (an "or" into an existing mask) keeps
// its i1 init, and so its type.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @init_is_read
// CHECK-NOT: i8
func.func @init_is_read(%x: tensor<7xf32>, %prev: tensor<7xi1>, %g: tensor<7xf32>) -> tensor<7xf32> {
  %zero = arith.constant 0.0 : f32
  %ef = tensor.empty() : tensor<7xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<7xf32>) outs(%prev : tensor<7xi1>) {
  ^bb0(%v: f32, %o: i1):
    %c = arith.cmpf ogt, %v, %zero : f32
    %r = arith.ori %c, %o : i1
    linalg.yield %r : i1
  } -> tensor<7xi1>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%m, %g : tensor<7xi1>, tensor<7xf32>) outs(%ef : tensor<7xf32>) {
  ^bb0(%b: i1, %v: f32, %o: f32):
    %s = arith.select %b, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<7xf32>
  return %y : tensor<7xf32>
}

// -----

// A mask with a user that is not a linalg.generic input (a reshape) stays i1.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @reshaped_mask
// CHECK-NOT: i8
// CHECK: tensor.expand_shape %{{.*}} : tensor<8xi1> into tensor<2x4xi1>
func.func @reshaped_mask(%x: tensor<8xf32>) -> tensor<2x4xi1> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xi1>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xi1>) {
  ^bb0(%v: f32, %o: i1):
    %c = arith.cmpf ogt, %v, %zero : f32
    linalg.yield %c : i1
  } -> tensor<8xi1>
  %r = tensor.expand_shape %m [[0, 1]] output_shape [2, 4] : tensor<8xi1> into tensor<2x4xi1>
  return %r : tensor<2x4xi1>
}

// -----

// A mask made on a flat view and reshaped before its consumer (dropout's
// mask, computed in one loop over the elements): the reshape carries i8.
#flat = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @mask_through_reshape
// CHECK: %[[M:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8xi8>)
// CHECK: %[[R:.*]] = tensor.expand_shape %[[M]] {{.*}} : tensor<8xi8> into tensor<2x4xi8>
// CHECK: linalg.generic {{.*}} ins(%[[R]], %{{.*}} : tensor<2x4xi8>, tensor<2x4xf32>)
// CHECK: arith.trunci %{{.*}} : i8 to i1
func.func @mask_through_reshape(%x: tensor<8xf32>, %g: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xi1>
  %ef = tensor.empty() : tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xi1>) {
  ^bb0(%v: f32, %o: i1):
    %c = arith.cmpf ogt, %v, %zero : f32
    linalg.yield %c : i1
  } -> tensor<8xi1>
  %r = tensor.expand_shape %m [[0, 1]] output_shape [2, 4] : tensor<8xi1> into tensor<2x4xi1>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r, %g : tensor<2x4xi1>, tensor<2x4xf32>) outs(%ef : tensor<2x4xf32>) {
  ^bb0(%b: i1, %v: f32, %o: f32):
    %s = arith.select %b, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
