// bench/numerics/bn_output.mlir: batch-norm (training mode) at batch 256 on
// 32 maps of 28x28, the shape of issue 20's target; run by bn_output.sh.
func.func @bn256(%x: tensor<256x32x28x28xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<256x32x28x28xf32> {
  %y, %m, %v = mdl.batch_norm_train %x, %g, %b : tensor<256x32x28x28xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<256x32x28x28xf32>, tensor<32xf32>, tensor<32xf32>
  return %y : tensor<256x32x28x28xf32>
}
