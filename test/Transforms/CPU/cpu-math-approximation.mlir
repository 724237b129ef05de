// RUN: modelc-opt %s --modelc-cpu-math-approximation | FileCheck %s
// modelc-cpu-math-approximation: f32 math.erf and math.exp (scalar and
// vector) become arithmetic (the polynomial approximations: selects on the
// argument's range, fused multiply-adds and, for exp, the exponent built
// in the integer bits; no call left for libm); f64 erf and exp, and the
// other math ops, stay for convert-math-to-llvm and convert-math-to-libm.

// CHECK-LABEL: func.func @gelu
// CHECK-NOT: math.erf
// CHECK-NOT: math.exp
// CHECK: arith.cmpf
// CHECK: arith.select
// CHECK: math.fma
// CHECK-NOT: math.erf
// CHECK-NOT: math.exp
// CHECK: return
func.func @gelu(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>) {
  %0 = math.erf %x : f32
  %1 = math.erf %v : vector<8xf32>
  %2 = math.exp %0 : f32
  return %2, %1 : f32, vector<8xf32>
}

// CHECK-LABEL: func.func @softmax_terms
// CHECK-NOT: math.exp
// CHECK: arith.shli {{.*}} : vector<16xi32>
// CHECK: arith.bitcast {{.*}} : vector<16xi32> to vector<16xf32>
// CHECK-NOT: math.exp
// CHECK: math.log
// CHECK: return
func.func @softmax_terms(%v: vector<16xf32>, %s: f32) -> (vector<16xf32>, f32) {
  %0 = math.exp %v : vector<16xf32>
  %1 = math.log %s : f32
  return %0, %1 : vector<16xf32>, f32
}

// CHECK-LABEL: func.func @double
// CHECK: math.erf {{.*}} : f64
// CHECK: math.exp {{.*}} : f64
func.func @double(%x: f64) -> f64 {
  %0 = math.erf %x : f64
  %1 = math.exp %0 : f64
  return %1 : f64
}
