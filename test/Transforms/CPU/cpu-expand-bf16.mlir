// RUN: modelc-opt %s --modelc-cpu-expand-bf16 | FileCheck %s
// modelc-cpu-expand-bf16: arith.truncf to bf16 and arith.extf from bf16,
// scalar and vector, become integer arithmetic on the bits (the rounding
// bias added to the f32 bits, the upper half kept, a NaN selected as the
// quiet NaN; the extension a shift); other conversions stay.

// CHECK-LABEL: func.func @round
// CHECK-DAG: %[[NAN:.*]] = arith.constant 32704 : i16
// CHECK-DAG: %[[BIAS:.*]] = arith.constant 32767 : i32
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK: arith.cmpf une
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.addi %{{.*}}, %[[BIAS]]
// CHECK: arith.select %{{.*}}, %[[NAN]]
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK: return
func.func @round(%x: f32) -> f32 {
  %b = arith.truncf %x : f32 to bf16
  %f = arith.extf %b : bf16 to f32
  return %f : f32
}

// CHECK-LABEL: func.func @round_vector
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
// CHECK-NOT: arith.extf
// CHECK: arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK: return
func.func @round_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %b = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  %f = arith.extf %b : vector<8xbf16> to vector<8xf32>
  return %f : vector<8xf32>
}

// CHECK-LABEL: func.func @other_types
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @other_types(%x: f32, %d: f64) -> (f32, f32) {
  %h = arith.truncf %x : f32 to f16
  %f = arith.extf %h : f16 to f32
  %s = arith.truncf %d : f64 to f32
  return %f, %s : f32, f32
}

// f64 -> bf16: to f32 by round-to-odd (truncf, back to f64, the bits one
// toward zero when rounded away, the last bit set when inexact), then the
// f32 expansion. bf16 -> f64 through f32.
// CHECK-LABEL: func.func @from_f64
// CHECK-NOT: arith.truncf {{.*}} to bf16
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.cmpf one
// CHECK: arith.ori
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
// CHECK-NOT: arith.extf {{.*}} bf16 to f64
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: return
func.func @from_f64(%x: f64) -> f64 {
  %b = arith.truncf %x : f64 to bf16
  %f = arith.extf %b : bf16 to f64
  return %f : f64
}

// Integers -> bf16: the magnitude's leading zeros, a shift to 24 bits with
// a sticky last bit, an exact f32, scaled and signed, then the f32
// expansion; i32 and i1 extended to i64 first (sitofp of true is -1).
// CHECK-LABEL: func.func @from_integers
// CHECK-NOT: sitofp {{.*}} to bf16
// CHECK-NOT: uitofp {{.*}} to bf16
// CHECK: math.ctlz %{{.*}} : i64
// CHECK: arith.uitofp %{{.*}} : i32 to f32
// CHECK: arith.extui %{{.*}} : i32 to i64
// CHECK: math.ctlz
// CHECK: arith.extsi %{{.*}} : vector<8xi1> to vector<8xi64>
// CHECK: math.ctlz %{{.*}} : vector<8xi64>
// CHECK-NOT: itofp {{.*}} to {{.*}}bf16
// CHECK: return
func.func @from_integers(%a: i64, %b: i32, %c: vector<8xi1>) -> (bf16, bf16, vector<8xbf16>) {
  %0 = arith.sitofp %a : i64 to bf16
  %1 = arith.uitofp %b : i32 to bf16
  %2 = arith.sitofp %c : vector<8xi1> to vector<8xbf16>
  return %0, %1, %2 : bf16, bf16, vector<8xbf16>
}

// A rounding mode other than to nearest is left to LLVM.
// CHECK-LABEL: func.func @rounding_mode
// CHECK: arith.truncf %{{.*}} toward_zero : f64 to bf16
func.func @rounding_mode(%x: f64) -> bf16 {
  %b = arith.truncf %x toward_zero : f64 to bf16
  return %b : bf16
}
