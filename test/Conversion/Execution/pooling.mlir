// Numerical check of the max_pool2d / avg_pool2d lowering against float64 references
// (Inputs/gen.py: PyTorch pooling in double), through the CPU back end (Inputs/runner.cpp);
// max pooling also on integer-valued inputs with NaNs (ties, NaN propagation).
// RUN: /usr/bin/python3 %S/Inputs/gen.py pooling %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// The f32 pooling ops are runtime calls; again with them expanded by the
// compiler into loops.
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops -o %t.expanded.mlir
// RUN: modelc-backend-test %t.expanded.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.expanded.exe
// RUN: %t.expanded.exe %t.cases | FileCheck %s
// CHECK: 8 cases: PASS

func.func @max_pool(%x: tensor<?x3x7x9xf32>) -> tensor<?x3x3x4xf32> {
  %0 = mdl.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x3x7x9xf32> -> tensor<?x3x3x4xf32>
  return %0 : tensor<?x3x3x4xf32>
}
func.func @max_pool_pad(%x: tensor<?x3x7x9xf32>) -> tensor<?x3x4x5xf32> {
  %0 = mdl.max_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x7x9xf32> -> tensor<?x3x4x5xf32>
  return %0 : tensor<?x3x4x5xf32>
}
func.func @avg_pool_pad(%x: tensor<?x3x7x9xf32>) -> tensor<?x3x4x5xf32> {
  %0 = mdl.avg_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x7x9xf32> -> tensor<?x3x4x5xf32>
  return %0 : tensor<?x3x4x5xf32>
}
