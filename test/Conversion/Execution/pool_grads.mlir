// Numerical check of max_pool2d_grad / avg_pool2d_grad against PyTorch autograd in float64
// (Inputs/gen.py pool_grads): non-overlapping, overlapping and padded windows, sizes that do not divide,
// and integer-valued inputs whose ties must route to the first maximum as PyTorch does; 2x2
// windows that tile the input (lowered as one generic) also with NaNs.
// RUN: /usr/bin/python3 %S/Inputs/gen.py pool_grads %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// The f32 pooling ops are runtime calls; again with them expanded by the
// compiler into loops.
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops -o %t.expanded.mlir
// RUN: modelc-backend-test %t.expanded.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.expanded.exe
// RUN: %t.expanded.exe %t.cases | FileCheck %s
// CHECK: 24 cases: PASS

func.func @max_grad_k2s2(%g: tensor<?x3x3x4xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<?x3x3x4xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @max_grad_k2s2_ties(%g: tensor<?x3x3x4xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<?x3x3x4xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @avg_grad_k2s2(%g: tensor<?x3x3x4xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.avg_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<?x3x3x4xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @max_grad_k3s2p1(%g: tensor<?x3x4x5xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x4x5xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @max_grad_k3s2p1_ties(%g: tensor<?x3x4x5xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x4x5xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @avg_grad_k3s2p1(%g: tensor<?x3x4x5xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.avg_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x3x4x5xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @max_grad_k3s1p1(%g: tensor<?x3x7x9xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : tensor<?x3x7x9xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @max_grad_k3s1p1_ties(%g: tensor<?x3x7x9xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : tensor<?x3x7x9xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @avg_grad_k3s1p1(%g: tensor<?x3x7x9xf32>, %x: tensor<?x3x7x9xf32>) -> tensor<?x3x7x9xf32> {
  %dx = mdl.avg_pool2d_grad %g, %x {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : tensor<?x3x7x9xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  return %dx : tensor<?x3x7x9xf32>
}
func.func @max_grad_tiled(%g: tensor<?x3x4x3xf32>, %x: tensor<?x3x8x6xf32>) -> tensor<?x3x8x6xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<?x3x4x3xf32>, tensor<?x3x8x6xf32> -> tensor<?x3x8x6xf32>
  return %dx : tensor<?x3x8x6xf32>
}
func.func @max_grad_tiled_ties(%g: tensor<?x3x4x3xf32>, %x: tensor<?x3x8x6xf32>) -> tensor<?x3x8x6xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<?x3x4x3xf32>, tensor<?x3x8x6xf32> -> tensor<?x3x8x6xf32>
  return %dx : tensor<?x3x8x6xf32>
}
func.func @max_grad_tiled_nan(%g: tensor<?x3x4x3xf32>, %x: tensor<?x3x8x6xf32>) -> tensor<?x3x8x6xf32> {
  %dx = mdl.max_pool2d_grad %g, %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<?x3x4x3xf32>, tensor<?x3x8x6xf32> -> tensor<?x3x8x6xf32>
  return %dx : tensor<?x3x8x6xf32>
}
