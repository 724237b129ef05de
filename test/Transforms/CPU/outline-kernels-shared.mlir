// RUN: modelc-opt %s --pass-pipeline='builtin.module(modelc-outline-kernels{instrument=false})' | FileCheck %s
// RUN: modelc-opt %s --pass-pipeline='builtin.module(modelc-outline-kernels{instrument=false})' | grep -c 'func.func private' | FileCheck %s --check-prefix=COUNT
// RUN: modelc-opt %s --pass-pipeline='builtin.module(modelc-outline-kernels{instrument=true})' | FileCheck %s --check-prefix=PROF

// Kernels equal but for their locations (the same relu on other buffers,
// in the same entry point or another) are outlined once: the second and
// third calls go to the first kernel. The scaling by 2.0 differs from the
// relu and by 3.0 from both: each stays a kernel of its own.
#map = affine_map<(d0) -> (d0)>
func.func @step(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } loc("relu"("net.model":3:7))
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%b : memref<8xf32>) outs(%c : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } loc("relu"("net.model":4:7))
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%c : memref<8xf32>) outs(%a : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } loc("mul"("net.model":5:7))
  return
}
func.func @predict(%a: memref<8xf32>, %b: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } loc("relu"("net.model":3:7))
  %three = arith.constant 3.0 : f32
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%b : memref<8xf32>) outs(%a : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %three : f32
    linalg.yield %m : f32
  } loc("mul"("net.model":6:7))
  return
}

// CHECK: func.func private @step.k0.relu(
// CHECK: func.func private @step.k2.mul(
// CHECK-LABEL: func.func @step(
// CHECK: call @step.k0.relu(%arg0, %arg1)
// CHECK: call @step.k0.relu(%arg1, %arg2)
// CHECK: call @step.k2.mul(%arg2, %arg0)
// CHECK: func.func private @predict.k1.mul(
// CHECK-LABEL: func.func @predict(
// CHECK: call @step.k0.relu(%arg0, %arg1)
// CHECK: call @predict.k1.mul(%arg1, %arg0)
// COUNT: 3

// Profiles still name each call site, with its own line.
// PROF-DAG: @__modelc_kernel_step_k0_relu("step.k0.relu @ net.model:3\00")
// PROF-DAG: @__modelc_kernel_step_k1_relu("step.k1.relu @ net.model:4\00")
// PROF-DAG: @__modelc_kernel_predict_k0_relu("predict.k0.relu @ net.model:3\00")
