// RUN: modelc-opt %s --modelc-gpu-math-approximation=host=true \
// RUN:   --convert-scf-to-cf --convert-math-to-llvm --convert-math-to-libm \
// RUN:   --convert-vector-to-llvm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils | FileCheck %s
// RUN: modelc-opt %s --modelc-gpu-math-approximation=host=true | FileCheck %s --check-prefix=IR

// The GPU kernels compute exp, log, log1p, tanh, erf and powf with the
// polynomial approximations of modelc-gpu-math-approximation, and abs,
// floor and rsqrt with its integer/float rewrites. Here the same rewrites
// run on the CPU (host=true, functions marked modelc.approximate) and are
// compared with libm on 200001 points per function. The error of one point
// is |approx - libm| / max(|libm|, 1); each line prints 1 when the largest
// error is within the bound, then that largest error.

func.func @approx_exp(%x: f32) -> f32 attributes {modelc.approximate} {
  %r = math.exp %x : f32
  return %r : f32
}
func.func @exact_exp(%x: f32) -> f32 {
  %r = math.exp %x : f32
  return %r : f32
}
func.func @approx_log(%x: f32) -> f32 attributes {modelc.approximate} {
  %r = math.log %x : f32
  return %r : f32
}
func.func @exact_log(%x: f32) -> f32 {
  %r = math.log %x : f32
  return %r : f32
}
func.func @approx_log1p(%x: f32) -> f32 attributes {modelc.approximate} {
  %r = math.log1p %x : f32
  return %r : f32
}
func.func @exact_log1p(%x: f32) -> f32 {
  %r = math.log1p %x : f32
  return %r : f32
}
func.func @approx_tanh(%x: f32) -> f32 attributes {modelc.approximate} {
  %r = math.tanh %x : f32
  return %r : f32
}
func.func @exact_tanh(%x: f32) -> f32 {
  %r = math.tanh %x : f32
  return %r : f32
}
func.func @approx_erf(%x: f32) -> f32 attributes {modelc.approximate} {
  %r = math.erf %x : f32
  return %r : f32
}
func.func @exact_erf(%x: f32) -> f32 {
  %r = math.erf %x : f32
  return %r : f32
}
// x^1.7 and x^-2.3: powf expands into exp(y * log(x)).
func.func @approx_pow(%x: f32) -> f32 attributes {modelc.approximate} {
  %y = arith.constant 1.7 : f32
  %r = math.powf %x, %y : f32
  %z = arith.constant -2.3 : f32
  %s = math.powf %x, %z : f32
  %t = arith.addf %r, %s : f32
  return %t : f32
}
func.func @exact_pow(%x: f32) -> f32 {
  %y = arith.constant 1.7 : f32
  %r = math.powf %x, %y : f32
  %z = arith.constant -2.3 : f32
  %s = math.powf %x, %z : f32
  %t = arith.addf %r, %s : f32
  return %t : f32
}
// abs, floor and rsqrt: exact (rsqrt: 1/sqrt, two correctly rounded steps).
func.func @approx_misc(%x: f32) -> f32 attributes {modelc.approximate} {
  %a = math.absf %x : f32
  %f = math.floor %x : f32
  %one = arith.constant 1.0 : f32
  %p = arith.addf %a, %one : f32
  %r = math.rsqrt %p : f32
  %s = arith.addf %a, %f : f32
  %t = arith.addf %s, %r : f32
  return %t : f32
}
func.func @exact_misc(%x: f32) -> f32 {
  %a = math.absf %x : f32
  %f = math.floor %x : f32
  %one = arith.constant 1.0 : f32
  %p = arith.addf %a, %one : f32
  %q = math.sqrt %p : f32
  %r = arith.divf %one, %q : f32
  %s = arith.addf %a, %f : f32
  %t = arith.addf %s, %r : f32
  return %t : f32
}

/// The largest error over x = lo + i * step, i < 200001 (NaN propagates).
func.func @maxerr(%a: (f32) -> f32, %e: (f32) -> f32, %lo: f32, %step: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 200001 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> f32 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %d = arith.mulf %fi, %step : f32
    %x = arith.addf %lo, %d : f32
    %va = func.call_indirect %a(%x) : (f32) -> f32
    %ve = func.call_indirect %e(%x) : (f32) -> f32
    %diff = arith.subf %va, %ve : f32
    %ad = math.absf %diff : f32
    %ae = math.absf %ve : f32
    %scale = arith.maximumf %ae, %one : f32
    %err = arith.divf %ad, %scale : f32
    %m2 = arith.maximumf %m, %err : f32
    scf.yield %m2 : f32
  }
  return %r : f32
}

/// Prints (err <= bound) and err.
func.func @report(%err: f32, %bound: f32) {
  %ok = arith.cmpf ole, %err, %bound : f32
  %flag = arith.extui %ok : i1 to i32
  vector.print %flag : i32
  vector.print %err : f32
  return
}

func.func @check(%a: (f32) -> f32, %e: (f32) -> f32, %lo: f32, %step: f32, %bound: f32) {
  %err = func.call @maxerr(%a, %e, %lo, %step) : ((f32) -> f32, (f32) -> f32, f32, f32) -> f32
  func.call @report(%err, %bound) : (f32, f32) -> ()
  return
}

func.func @main() {
  %ae = constant @approx_exp : (f32) -> f32
  %ee = constant @exact_exp : (f32) -> f32
  %al = constant @approx_log : (f32) -> f32
  %el = constant @exact_log : (f32) -> f32
  %a1 = constant @approx_log1p : (f32) -> f32
  %e1 = constant @exact_log1p : (f32) -> f32
  %at = constant @approx_tanh : (f32) -> f32
  %et = constant @exact_tanh : (f32) -> f32
  %ar = constant @approx_erf : (f32) -> f32
  %er = constant @exact_erf : (f32) -> f32
  %ap = constant @approx_pow : (f32) -> f32
  %ep = constant @exact_pow : (f32) -> f32
  %am = constant @approx_misc : (f32) -> f32
  %em = constant @exact_misc : (f32) -> f32
  %bound = arith.constant 5.0e-7 : f32
  %powbound = arith.constant 2.0e-6 : f32
  %exact = arith.constant 0.0 : f32
  // exp on [-80, 80] (relative error: |exp| >= 1 there half the time).
  %lo_e = arith.constant -80.0 : f32
  %st_e = arith.constant 0.0008 : f32
  func.call @check(%ae, %ee, %lo_e, %st_e, %bound) : ((f32) -> f32, (f32) -> f32, f32, f32, f32) -> ()
  // log on (0, 2000].
  %lo_l = arith.constant 1.0e-4 : f32
  %st_l = arith.constant 0.01 : f32
  func.call @check(%al, %el, %lo_l, %st_l, %bound) : ((f32) -> f32, (f32) -> f32, f32, f32, f32) -> ()
  // log1p on [-0.999, 199].
  %lo_1 = arith.constant -0.999 : f32
  %st_1 = arith.constant 0.001 : f32
  func.call @check(%a1, %e1, %lo_1, %st_1, %bound) : ((f32) -> f32, (f32) -> f32, f32, f32, f32) -> ()
  // tanh and erf on [-10, 10].
  %lo_t = arith.constant -10.0 : f32
  %st_t = arith.constant 0.0001 : f32
  func.call @check(%at, %et, %lo_t, %st_t, %bound) : ((f32) -> f32, (f32) -> f32, f32, f32, f32) -> ()
  func.call @check(%ar, %er, %lo_t, %st_t, %bound) : ((f32) -> f32, (f32) -> f32, f32, f32, f32) -> ()
  // powf on [0.01, 20].
  %lo_p = arith.constant 0.01 : f32
  %st_p = arith.constant 0.0001 : f32
  func.call @check(%ap, %ep, %lo_p, %st_p, %powbound) : ((f32) -> f32, (f32) -> f32, f32, f32, f32) -> ()
  // abs, floor, rsqrt on [-20000, 20000] (steps of 0.2: integers included).
  %lo_m = arith.constant -20000.0 : f32
  %st_m = arith.constant 0.2 : f32
  func.call @check(%am, %em, %lo_m, %st_m, %exact) : ((f32) -> f32, (f32) -> f32, f32, f32, f32) -> ()
  return
}

// exp, log, log1p, tanh, erf: within 5e-7 (measured: 1.2e-7 to 2.4e-7);
// pow: within 2e-6 (measured 1.0e-6); abs, floor, rsqrt: exact.
// CHECK: {{^}}1{{$}}
// CHECK-NEXT: {{^[0-9.e+-]+$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^[0-9.e+-]+$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^[0-9.e+-]+$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^[0-9.e+-]+$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^[0-9.e+-]+$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^[0-9.e+-]+$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}0{{$}}

// The approximated functions call no libm function any more; the exact
// ones are untouched.
// IR-LABEL: func.func @approx_exp
// IR-NOT: math.exp
// IR: llvm.intr.fma
// IR-LABEL: func.func @exact_exp
// IR: math.exp
// IR-LABEL: func.func @approx_log(
// IR-NOT: math.log
// IR-LABEL: func.func @exact_log(
// IR: math.log
// IR-LABEL: func.func @approx_erf
// IR-NOT: math.erf
// IR-LABEL: func.func @exact_erf
// IR-LABEL: func.func @approx_misc
// IR-NOT: math.floor
// IR-NOT: math.rsqrt
// IR-NOT: math.absf
// IR-LABEL: func.func @exact_misc
