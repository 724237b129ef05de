// GeneratedHostCode.mlir - host code for CudaTests' ABI check.
//
// Lowered at build time with mlir-opt -gpu-lower-to-nvvm-pipeline (PTX for
// sm_90, JIT-loaded), mlir-translate and llc into an object that CudaTests
// links: the calls to mgpu* in it are exactly what MLIR 22 emits, so the test
// checks the shim's ABI. @fill adds %v to each of the 16 floats of %buf on the
// GPU (gpu.alloc, two gpu.memcpy, one gpu.launch, gpu.dealloc, gpu.wait).
module attributes {gpu.container_module} {
  func.func @fill(%buf: memref<16xf32>, %v: f32) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    %t2 = gpu.memcpy async [%t1] %d, %buf : memref<16xf32>, memref<16xf32>
    %t4 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %old = memref.load %d[%tx] : memref<16xf32>
      %new = arith.addf %old, %v : f32
      memref.store %new, %d[%tx] : memref<16xf32>
      gpu.terminator
    }
    %t5 = gpu.memcpy async [%t4] %buf, %d : memref<16xf32>, memref<16xf32>
    %t6 = gpu.dealloc async [%t5] %d : memref<16xf32>
    gpu.wait [%t6]
    return
  }
}
