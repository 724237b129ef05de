// RUN: modelc-opt %s --mdl-assign-precision --split-input-file | FileCheck %s
// RUN: modelc-opt %s --mdl-assign-precision=precision=f32 --split-input-file | FileCheck %s --check-prefix=F32
// mdl-assign-precision: in bf16 (here from mdl.config) the module gets mdl.precision = "bf16" and every f32
// matmul, conv2d and convolution gradient is tagged; batch_matmul,
// elementwise work, f64 products and everything else stay untagged (f32),
// and so does the weight gradient of a convolution over fewer than 4 input
// channels (in bf16 only: tagged "f32"). The option overrides the configuration; in f32
// nothing is tagged and earlier tags are removed.

// CHECK: module attributes {{{.*}}mdl.precision = "bf16"
// CHECK-LABEL: func.func @products
// CHECK: mdl.matmul %{{.*}} {mdl.precision = "bf16"} : tensor<?x784xf32>, tensor<784x32xf32>
// CHECK: mdl.conv2d %{{.*}} {mdl.precision = "bf16", padding
// CHECK: mdl.conv2d_grad_weight %{{.*}} {mdl.precision = "bf16", padding
// CHECK: mdl.batch_matmul %{{.*}} : tensor<2x2x4xf32>
// CHECK: mdl.relu %{{.*}} : tensor
// CHECK: mdl.matmul %{{.*}} : tensor<?x784xf64>
// F32-NOT: mdl.precision
module attributes {mdl.config = {precision = "bf16"}} {
func.func @products(%x: tensor<?x784xf32>, %w: tensor<784x32xf32>,
                    %img: tensor<?x4x6x6xf32>, %k: tensor<8x4x3x3xf32>, %b: tensor<8xf32>,
                    %a: tensor<2x2x4xf32>, %q: tensor<2x4x2xf32>,
                    %xd: tensor<?x784xf64>, %wd: tensor<784x32xf64>)
    -> (tensor<?x32xf32>, tensor<8x4x3x3xf32>, tensor<2x2x2xf32>, tensor<?x32xf64>) {
  %0 = mdl.matmul %x, %w : tensor<?x784xf32>, tensor<784x32xf32> -> tensor<?x32xf32>
  %1 = mdl.conv2d %img, %k, %b {padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : tensor<?x4x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32> -> tensor<?x8x6x6xf32>
  %2 = mdl.conv2d_grad_weight %1, %img, %k {padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x4x6x6xf32>, tensor<8x4x3x3xf32> -> tensor<8x4x3x3xf32>
  %3 = mdl.batch_matmul %a, %q : tensor<2x2x4xf32>, tensor<2x4x2xf32> -> tensor<2x2x2xf32>
  %4 = mdl.relu %0 : tensor<?x32xf32>
  %5 = mdl.matmul %xd, %wd : tensor<?x784xf64>, tensor<784x32xf64> -> tensor<?x32xf64>
  return %4, %2, %3, %5 : tensor<?x32xf32>, tensor<8x4x3x3xf32>, tensor<2x2x2xf32>, tensor<?x32xf64>
}
}

// -----

// A first layer over grey (1) or colour (3) images: its convolution and the
// input gradient of the next are tagged bf16, its weight gradient "f32"
// (over an earlier tag). A grouped weight gradient over 2 channels per
// group is tagged bf16 as before.
// CHECK: module attributes {{{.*}}mdl.precision = "bf16"
// CHECK-LABEL: func.func @first_layers
// CHECK: mdl.conv2d %{{.*}} {mdl.precision = "bf16", padding
// CHECK: mdl.conv2d_grad_weight %{{.*}} {mdl.precision = "f32", padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x1x6x6xf32>
// CHECK: mdl.conv2d_grad_weight %{{.*}} {mdl.precision = "f32", padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x3x6x6xf32>
// CHECK: mdl.conv2d_grad_weight %{{.*}} {groups = 2 : i64, mdl.precision = "bf16", padding
module attributes {mdl.config = {precision = "bf16"}} {
func.func @first_layers(%grey: tensor<?x1x6x6xf32>, %kg: tensor<8x1x3x3xf32>, %rgb: tensor<?x3x6x6xf32>,
                        %kc: tensor<8x3x3x3xf32>, %dy: tensor<?x8x6x6xf32>, %four: tensor<?x4x6x6xf32>,
                        %k2: tensor<8x2x3x3xf32>)
    -> (tensor<?x8x6x6xf32>, tensor<8x1x3x3xf32>, tensor<8x3x3x3xf32>, tensor<8x2x3x3xf32>) {
  %0 = mdl.conv2d %grey, %kg {padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : tensor<?x1x6x6xf32>, tensor<8x1x3x3xf32> -> tensor<?x8x6x6xf32>
  %1 = mdl.conv2d_grad_weight %dy, %grey, %kg {padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x1x6x6xf32>, tensor<8x1x3x3xf32> -> tensor<8x1x3x3xf32>
  %2 = mdl.conv2d_grad_weight %dy, %rgb, %kc {mdl.precision = "bf16", padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x3x6x6xf32>, tensor<8x3x3x3xf32> -> tensor<8x3x3x3xf32>
  %3 = mdl.conv2d_grad_weight %dy, %four, %k2 {padding = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x8x6x6xf32>, tensor<?x4x6x6xf32>, tensor<8x2x3x3xf32> -> tensor<8x2x3x3xf32>
  return %0, %1, %2, %3 : tensor<?x8x6x6xf32>, tensor<8x1x3x3xf32>, tensor<8x3x3x3xf32>, tensor<8x2x3x3xf32>
}
}

// -----

// No precision in the configuration: f32, nothing tagged; a tag an earlier
// run left is removed.
// CHECK-LABEL: func.func @default
// CHECK-NOT: mdl.precision
module {
func.func @default(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = mdl.matmul %x, %w {mdl.precision = "bf16"} : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
}

// -----

// tf32 (the GPU's TF32 products; f32 on the CPU) tags the same products
// with "tf32", a first layer's weight gradient too (TF32 operands need no
// rounded copy).
// CHECK: module attributes {{{.*}}mdl.precision = "tf32"
// CHECK-LABEL: func.func @tf32
// CHECK: mdl.matmul %{{.*}} {mdl.precision = "tf32"} : tensor<4x8xf32>
// CHECK: mdl.batch_matmul %{{.*}} : tensor<2x2x4xf32>
// CHECK: mdl.conv2d_grad_weight %{{.*}} {mdl.precision = "tf32", padding
module attributes {mdl.config = {precision = "tf32"}} {
func.func @tf32(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %a: tensor<2x2x4xf32>,
                %q: tensor<2x4x2xf32>, %dy: tensor<?x8x6x6xf32>, %grey: tensor<?x1x6x6xf32>,
                %kg: tensor<8x1x3x3xf32>) -> (tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<8x1x3x3xf32>) {
  %0 = mdl.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %1 = mdl.batch_matmul %a, %q : tensor<2x2x4xf32>, tensor<2x4x2xf32> -> tensor<2x2x2xf32>
  %2 = mdl.conv2d_grad_weight %dy, %grey, %kg {padding = array<i64: 1, 1>} : tensor<?x8x6x6xf32>, tensor<?x1x6x6xf32>, tensor<8x1x3x3xf32> -> tensor<8x1x3x3xf32>
  return %0, %1, %2 : tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<8x1x3x3xf32>
}
}
