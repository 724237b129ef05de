// An unranked tensor argument: bufferization across function boundaries
// rejects it with an error at the function (the pipeline handles ranked
// tensors only).
func.func @f(%x: tensor<*xf32>) -> tensor<*xf32> {
  %r = math.exp %x : tensor<*xf32>
  return %r : tensor<*xf32>
}
