// Parameters become trailing arguments in table order (only those read),
// state read/written becomes an argument and, if written, a result holding
// the last value written; the declarations are erased.
// RUN: modelc-opt %s --convert-mdl-to-linalg | FileCheck %s

mdl.parameter @a.weight : tensor<4x3xf32> {init = #mdl.init<zeros>}
mdl.parameter @a.bias : tensor<3xf32> {init = #mdl.init<zeros>}
mdl.parameter @unused : tensor<2xf32> {init = #mdl.init<zeros>}
mdl.state @bn.mean : tensor<3xf32> {init = #mdl.init<zeros>}
mdl.state @bn.var : tensor<3xf32> {init = #mdl.init<ones>}

// CHECK-NOT: mdl.
// CHECK-LABEL: func.func @step(%arg0: tensor<?x4xf32>, %arg1: tensor<4x3xf32> {mdl.param = @a.weight}, %arg2: tensor<3xf32> {mdl.param = @a.bias}, %arg3: tensor<3xf32> {mdl.state = @bn.mean}, %arg4: tensor<3xf32> {mdl.state = @bn.var})
// CHECK-SAME: -> (tensor<?x3xf32>, tensor<3xf32> {mdl.state = @bn.mean})
// CHECK: %[[NEW:.*]] = linalg.generic {{.*}} ins(%arg3, %arg4
// CHECK: return %{{.*}}, %[[NEW]]
func.func @step(%x: tensor<?x4xf32>) -> tensor<?x3xf32> {
  %b = mdl.param @a.bias : tensor<3xf32>
  %w = mdl.param @a.weight : tensor<4x3xf32>
  %y = mdl.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %m = mdl.state_read @bn.mean : tensor<3xf32>
  %v = mdl.state_read @bn.var : tensor<3xf32>
  %n = mdl.add %m, %v : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  mdl.state_write @bn.mean, %n : tensor<3xf32>
  %z = mdl.add %y, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  return %z : tensor<?x3xf32>
}
