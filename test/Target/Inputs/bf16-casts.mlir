// The conversions to and from bf16 for bf16-casts.test: y = f32(bf16(x))
// elementwise, over a dynamic length (a loop the back end vectorises) and
// one element at a time (a scalar).
#id = affine_map<(d0) -> (d0)>

func.func @round_bf16(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %out: f32):
    %b = arith.truncf %v : f32 to bf16
    %f = arith.extf %b : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @round_bf16_scalar(%x: f32) -> f32 {
  %b = arith.truncf %x : f32 to bf16
  %f = arith.extf %b : bf16 to f32
  return %f : f32
}

// The conversions to bf16 from f64 and from integers, and bf16 -> f64.
func.func @f64_to_bf16(%x: f64) -> f32 {
  %b = arith.truncf %x : f64 to bf16
  %f = arith.extf %b : bf16 to f32
  return %f : f32
}

func.func @bf16_to_f64(%x: f32) -> f64 {
  %b = arith.truncf %x : f32 to bf16
  %f = arith.extf %b : bf16 to f64
  return %f : f64
}

func.func @i64_to_bf16(%x: i64) -> f32 {
  %b = arith.sitofp %x : i64 to bf16
  %f = arith.extf %b : bf16 to f32
  return %f : f32
}

func.func @u64_to_bf16(%x: i64) -> f32 {
  %b = arith.uitofp %x : i64 to bf16
  %f = arith.extf %b : bf16 to f32
  return %f : f32
}

func.func @i32_to_bf16(%x: i32) -> f32 {
  %b = arith.sitofp %x : i32 to bf16
  %f = arith.extf %b : bf16 to f32
  return %f : f32
}

func.func @round_f64_loop(%x: tensor<?xf64>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf64>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf64>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f64, %out: f32):
    %b = arith.truncf %v : f64 to bf16
    %f = arith.extf %b : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @round_i64_loop(%x: tensor<?xi64>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xi64>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: i64, %out: f32):
    %b = arith.sitofp %v : i64 to bf16
    %f = arith.extf %b : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
