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
