// RUN: modelc-opt %s --modelc-cpu-math-approximation | FileCheck %s
// modelc-cpu-math-approximation: math.erf (scalar and vector) becomes
// arithmetic (the polynomial approximation: selects on |x|'s range and
// fused multiply-adds, no call left for libm), and
// the other math ops stay for convert-math-to-llvm.

// CHECK-LABEL: func.func @gelu
// CHECK-NOT: math.erf
// CHECK: arith.cmpf
// CHECK: arith.select
// CHECK: math.fma
// CHECK-NOT: math.erf
// CHECK: math.exp
// CHECK: return
func.func @gelu(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>) {
  %0 = math.erf %x : f32
  %1 = math.erf %v : vector<8xf32>
  %2 = math.exp %0 : f32
  return %2, %1 : f32, vector<8xf32>
}
