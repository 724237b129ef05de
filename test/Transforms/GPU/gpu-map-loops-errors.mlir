// RUN: modelc-opt %s --modelc-gpu-map-loops -verify-diagnostics

// The linalg lowering only makes loops from 0 with step 1; anything else
// is reported, not mis-mapped.
func.func @strided(%a: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{GPU lowering: expected a loop from 0 with step 1}}
  scf.parallel (%i) = (%c0) to (%c16) step (%c2) {
    memref.store %f, %a[%i] : memref<16xf32>
    scf.reduce
  }
  return
}
