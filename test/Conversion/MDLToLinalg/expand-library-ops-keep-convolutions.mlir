// modelc-expand-library-ops{keep-convolutions} (the GPU pipeline with
// --gpu-conv=cudnn): the three convolution ops stay, for cuDNN; the
// pooling ops are expanded as without the option. Without it (the GPU
// pipeline with --gpu-conv=im2col) the convolutions become im2col and one
// contraction.
// RUN: modelc-opt %s --modelc-expand-library-ops=keep-convolutions=true | FileCheck %s
// RUN: modelc-opt %s --modelc-expand-library-ops | FileCheck %s --check-prefix=ALL

// A convolution with a bias becomes mdl.lib_conv2d (into the same
// destination) and the bias added per channel by one generic; without the
// option, im2col and the contraction, the bias added as the product is laid
// out.
// CHECK: #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #[[CHAN:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv_bias
// CHECK: %[[Y:.*]] = mdl.lib_conv2d %arg0, %arg1, %arg3 {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CHAN]], #[[ID]]], {{.*}}} ins(%[[Y]], %arg2 : tensor<?x32x28x28xf32>, tensor<32xf32>)
// CHECK: arith.addf
// CHECK-NOT: mdl.lib_conv2d_bias
// CHECK: return
// ALL-LABEL: func.func @conv_bias
// ALL-NOT: mdl.lib_
// ALL: iterator_types = ["parallel", "parallel", "reduction"]
// ALL-NOT: mdl.lib_
// ALL: return
func.func @conv_bias(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %b: tensor<32xf32>, %y: tensor<?x32x28x28xf32>) -> tensor<?x32x28x28xf32> {
  %0 = mdl.lib_conv2d_bias %x, %w, %b, %y {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
  return %0 : tensor<?x32x28x28xf32>
}

// CHECK-LABEL: func.func @convs
// CHECK: mdl.lib_conv2d %{{.*}} {padding = array<i64: 1, 1>}
// CHECK: mdl.lib_conv2d_grad_input %{{.*}} {padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}
// CHECK: mdl.lib_conv2d_grad_weight
// CHECK-NOT: mdl.lib_max_pool2d
// CHECK: return
// ALL-LABEL: func.func @convs
// ALL-NOT: mdl.lib_
// ALL: iterator_types = ["parallel", "parallel", "reduction"]
// ALL-NOT: mdl.lib_
// ALL: return
func.func @convs(%x: tensor<?x1x28x28xf32>, %w: tensor<32x1x3x3xf32>, %y: tensor<?x32x28x28xf32>, %g: tensor<?x8x6x6xf32>, %w2: tensor<8x3x3x3xf32>, %dx: tensor<?x3x11x11xf32>, %dw: tensor<32x1x3x3xf32>, %p: tensor<?x32x14x14xf32>) -> (tensor<?x32x28x28xf32>, tensor<?x3x11x11xf32>, tensor<32x1x3x3xf32>, tensor<?x32x14x14xf32>) {
  %0 = mdl.lib_conv2d %x, %w, %y {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<32x1x3x3xf32>, tensor<?x32x28x28xf32> -> tensor<?x32x28x28xf32>
  %1 = mdl.lib_conv2d_grad_input %g, %w2, %dx {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<8x3x3x3xf32>, tensor<?x3x11x11xf32> -> tensor<?x3x11x11xf32>
  %2 = mdl.lib_conv2d_grad_weight %x, %0, %dw {padding = array<i64: 1, 1>} : tensor<?x1x28x28xf32>, tensor<?x32x28x28xf32>, tensor<32x1x3x3xf32> -> tensor<32x1x3x3xf32>
  %3 = mdl.lib_max_pool2d %0, %p {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x32x28x28xf32>, tensor<?x32x14x14xf32> -> tensor<?x32x14x14xf32>
  return %0, %1, %2, %3 : tensor<?x32x28x28xf32>, tensor<?x3x11x11xf32>, tensor<32x1x3x3xf32>, tensor<?x32x14x14xf32>
}
