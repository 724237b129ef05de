// RUN: modelc-opt %s --modelc-gpu-emulate-launches -verify-diagnostics

// The emulation clones a launch body as one block of ops: a body with
// several blocks (control flow already lowered) is an error at the launch.
func.func @branches(%a: memref<4xf32>, %cond: i1) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  // expected-error @below {{GPU emulation: a launch body with several blocks}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    cf.cond_br %cond, ^store, ^done
  ^store:
    memref.store %f, %a[%tx] : memref<4xf32>
    cf.br ^done
  ^done:
    gpu.terminator
  }
  return
}
