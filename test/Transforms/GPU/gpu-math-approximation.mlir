// RUN: modelc-opt %s --pass-pipeline='builtin.module(modelc-gpu-lowering)' | FileCheck %s

// Every math op the mdl lowering emits becomes PTX without libdevice
// (`__nv_*` functions would need a CUDA toolkit at model-compile time):
// polynomial approximations for exp/log/log1p/tanh/erf (and powf through
// them), PTX instructions for the rest.
#id = affine_map<(d0) -> (d0)>
func.func @math(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = math.exp %a : f32
    %1 = math.log %0 : f32
    %2 = math.log1p %1 : f32
    %3 = math.tanh %2 : f32
    %4 = math.erf %3 : f32
    %5 = math.powf %4, %b : f32
    %6 = math.sqrt %5 : f32
    %7 = math.rsqrt %6 : f32
    %8 = math.absf %7 : f32
    %9 = math.floor %8 : f32
    %10 = math.fma %9, %a, %b : f32
    linalg.yield %10 : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
// CHECK: llvm.func @gpu_math(
// CHECK: gpu.binary @gpu_kernels
// CHECK-SAME: .target sm_90
// CHECK-SAME: sqrt.rn.f32
// CHECK-NOT: __nv_
