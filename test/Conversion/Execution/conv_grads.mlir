// Numerical check of conv2d_grad_input / conv2d_grad_weight against PyTorch autograd in float64
// (Inputs/gen.py conv_grads): padding, stride with a remainder, dilation, groups, a 1x1 kernel whose
// padding exceeds its span, a non-square kernel with mixed strides; batches 1 and 7.
// RUN: /usr/bin/python3 %S/Inputs/gen.py conv_grads %t.cases
// RUN: modelc-opt %s --convert-mdl-to-linalg -o %t.mlir
// RUN: modelc-backend-test %t.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.exe
// RUN: %t.exe %t.cases | FileCheck %s
// The convolutions are runtime calls (oneDNN by default); again with the
// runtime's im2col + OpenBLAS path, and with them expanded by the compiler.
// RUN: env MODELRT_BLAS=openblas %t.exe %t.cases | FileCheck %s
// RUN: modelc-opt %s --convert-mdl-to-linalg --modelc-expand-library-ops -o %t.expanded.mlir
// RUN: modelc-backend-test %t.expanded.mlir --emit=exe --link-arg=-rdynamic --link-arg=-ldl --link-input=%S/Inputs/runner.cpp -o %t.expanded.exe
// RUN: %t.expanded.exe %t.cases | FileCheck %s
// CHECK: 14 cases: PASS

func.func @conv_grads_pad1(%g: tensor<?x5x13x11xf32>, %w: tensor<5x3x3x3xf32>, %x: tensor<?x3x13x11xf32>) -> (tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32>) {
  %dx = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : tensor<?x5x13x11xf32>, tensor<5x3x3x3xf32>, tensor<?x3x13x11xf32> -> tensor<?x3x13x11xf32>
  %dw = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : tensor<?x5x13x11xf32>, tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32> -> tensor<5x3x3x3xf32>
  return %dx, %dw : tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32>
}
func.func @conv_grads_stride2_dil2(%g: tensor<?x5x5x4xf32>, %w: tensor<5x3x3x3xf32>, %x: tensor<?x3x13x11xf32>) -> (tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32>) {
  %dx = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : tensor<?x5x5x4xf32>, tensor<5x3x3x3xf32>, tensor<?x3x13x11xf32> -> tensor<?x3x13x11xf32>
  %dw = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : tensor<?x5x5x4xf32>, tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32> -> tensor<5x3x3x3xf32>
  return %dx, %dw : tensor<?x3x13x11xf32>, tensor<5x3x3x3xf32>
}
func.func @conv_grads_stride2_rem(%g: tensor<?x4x6x5xf32>, %w: tensor<4x3x3x3xf32>, %x: tensor<?x3x12x10xf32>) -> (tensor<?x3x12x10xf32>, tensor<4x3x3x3xf32>) {
  %dx = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : tensor<?x4x6x5xf32>, tensor<4x3x3x3xf32>, tensor<?x3x12x10xf32> -> tensor<?x3x12x10xf32>
  %dw = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : tensor<?x4x6x5xf32>, tensor<?x3x12x10xf32>, tensor<4x3x3x3xf32> -> tensor<4x3x3x3xf32>
  return %dx, %dw : tensor<?x3x12x10xf32>, tensor<4x3x3x3xf32>
}
func.func @conv_grads_groups2(%g: tensor<?x6x9x9xf32>, %w: tensor<6x2x3x3xf32>, %x: tensor<?x4x9x9xf32>) -> (tensor<?x4x9x9xf32>, tensor<6x2x3x3xf32>) {
  %dx = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x6x9x9xf32>, tensor<6x2x3x3xf32>, tensor<?x4x9x9xf32> -> tensor<?x4x9x9xf32>
  %dw = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x6x9x9xf32>, tensor<?x4x9x9xf32>, tensor<6x2x3x3xf32> -> tensor<6x2x3x3xf32>
  return %dx, %dw : tensor<?x4x9x9xf32>, tensor<6x2x3x3xf32>
}
func.func @conv_grads_k1_pad1(%g: tensor<?x4x5x6xf32>, %w: tensor<4x3x1x1xf32>, %x: tensor<?x3x7x9xf32>) -> (tensor<?x3x7x9xf32>, tensor<4x3x1x1xf32>) {
  %dx = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : tensor<?x4x5x6xf32>, tensor<4x3x1x1xf32>, tensor<?x3x7x9xf32> -> tensor<?x3x7x9xf32>
  %dw = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : tensor<?x4x5x6xf32>, tensor<?x3x7x9xf32>, tensor<4x3x1x1xf32> -> tensor<4x3x1x1xf32>
  return %dx, %dw : tensor<?x3x7x9xf32>, tensor<4x3x1x1xf32>
}
func.func @conv_grads_mixed(%g: tensor<?x3x6x11xf32>, %w: tensor<3x2x3x2xf32>, %x: tensor<?x2x11x13xf32>) -> (tensor<?x2x11x13xf32>, tensor<3x2x3x2xf32>) {
  %dx = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 1 : i64} : tensor<?x3x6x11xf32>, tensor<3x2x3x2xf32>, tensor<?x2x11x13xf32> -> tensor<?x2x11x13xf32>
  %dw = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 1 : i64} : tensor<?x3x6x11xf32>, tensor<?x2x11x13xf32>, tensor<3x2x3x2xf32> -> tensor<3x2x3x2xf32>
  return %dx, %dw : tensor<?x2x11x13xf32>, tensor<3x2x3x2xf32>
}
func.func @conv_grads_groups3_stride2(%g: tensor<?x3x6x3xf32>, %w: tensor<3x2x3x3xf32>, %x: tensor<?x6x10x9xf32>) -> (tensor<?x6x10x9xf32>, tensor<3x2x3x3xf32>) {
  %dx = mdl.conv2d_grad_input %g, %w, %x {stride = array<i64: 2, 3>, padding = array<i64: 2, 1>, dilation = array<i64: 1, 1>, groups = 3 : i64} : tensor<?x3x6x3xf32>, tensor<3x2x3x3xf32>, tensor<?x6x10x9xf32> -> tensor<?x6x10x9xf32>
  %dw = mdl.conv2d_grad_weight %g, %x, %w {stride = array<i64: 2, 3>, padding = array<i64: 2, 1>, dilation = array<i64: 1, 1>, groups = 3 : i64} : tensor<?x3x6x3xf32>, tensor<?x6x10x9xf32>, tensor<3x2x3x3xf32> -> tensor<3x2x3x3xf32>
  return %dx, %dw : tensor<?x6x10x9xf32>, tensor<3x2x3x3xf32>
}
