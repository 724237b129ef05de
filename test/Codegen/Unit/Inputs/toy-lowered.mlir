// A hand-written module at the level convert-mdl-to-linalg produces (linalg
// on tensors, parameters and state as annotated arguments/results), plus the
// parameter table, mdl.config and mdl.layers. Each result depends on distinct inputs so
// that ProgramEmitterTest can check the adapters' plumbing exactly:
//   train_step: loss = sum(x), grad_w = 2 w + seed, grad_b = b + 1,
//               correct = sum(labels), s' = s + 1
//   eval_metrics: loss sum = sum(x), correct = sum(labels)
//   predict: x w + b
#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>
#all1 = affine_map<(i) -> ()>
#all2 = affine_map<(i, j) -> ()>
#col = affine_map<(i, j) -> (j)>
module attributes {mdl.config = {
    model = "Toy", epochs = 3 : i64, batch = 4 : i64, seed = 7 : i64,
    optimizer = {kind = "adam", lr = 2.0e-03 : f64, beta1 = 0.8 : f64,
                 beta2 = 0.99 : f64, eps = 1.0e-07 : f64, weight_decay = 0.5 : f64},
    schedule = {kind = "step_lr", every = 2.0 : f64, gamma = 0.5 : f64},
    metrics = ["accuracy", "loss"],
    data = {name = "D",
            train = {format = "idx", images = "/data/train-x.gz", labels = "/data/train-y.gz", samples = 100 : i64},
            test = {format = "idx", images = "/data/test-x.gz", labels = "/data/test-y.gz", samples = 10 : i64},
            sample_shape = array<i64: 4>, scale = 0.5 : f64, shift = -0.25 : f64,
            num_classes = 3 : i64,
            augment = [{kind = "random_hflip", p = 0.25 : f64}, {kind = "random_crop", size = array<i64: 4, 4>, pad = 2 : i64},
                       {kind = "random_erasing", p = 0.5 : f64, scale = array<f64: 0.02, 0.33>, ratio = array<f64: 0.3, 3.3>, value = -1.0 : f64}]}},
    mdl.layers = [{name = "linear_0", shape = array<i64: 3>, params = 15 : i64, flops = 27.0 : f64, activation_bytes = 12 : i64},
                  {name = "relu", shape = array<i64: 3>, params = 0 : i64, flops = 3.0 : f64, activation_bytes = 12 : i64}]} {
  mdl.parameter @w : tensor<4x3xf32> {init = #mdl.init<kaiming_uniform(4)>}
  mdl.parameter @b : tensor<3xf32> {init = #mdl.init<uniform(-1, 2)>}
  mdl.state @s : tensor<2xf32> {init = #mdl.init<ones>}

  func.func @train_step(%x: tensor<?x4xf32>, %labels: tensor<?xi64>, %seed: tensor<i64>,
                        %w: tensor<4x3xf32> {mdl.param = @w}, %b: tensor<3xf32> {mdl.param = @b},
                        %s: tensor<2xf32> {mdl.state = @s})
      -> (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>, tensor<i64>, tensor<2xf32> {mdl.state = @s}) {
    %zf = arith.constant 0.0 : f32
    %zi = arith.constant 0 : i64
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %e0 = tensor.empty() : tensor<f32>
    %l0 = linalg.fill ins(%zf : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id2, #all2], iterator_types = ["reduction", "reduction"]}
        ins(%x : tensor<?x4xf32>) outs(%l0 : tensor<f32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    %e1 = tensor.empty() : tensor<4x3xf32>
    %gw = linalg.generic {indexing_maps = [#id2, #all2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%w, %seed : tensor<4x3xf32>, tensor<i64>) outs(%e1 : tensor<4x3xf32>) {
    ^bb0(%a: f32, %sd: i64, %o: f32):
      %sf = arith.sitofp %sd : i64 to f32
      %m = arith.mulf %a, %two : f32
      %r = arith.addf %m, %sf : f32
      linalg.yield %r : f32
    } -> tensor<4x3xf32>
    %e2 = tensor.empty() : tensor<3xf32>
    %gb = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%b : tensor<3xf32>) outs(%e2 : tensor<3xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %one : f32
      linalg.yield %r : f32
    } -> tensor<3xf32>
    %e3 = tensor.empty() : tensor<i64>
    %c0 = linalg.fill ins(%zi : i64) outs(%e3 : tensor<i64>) -> tensor<i64>
    %correct = linalg.generic {indexing_maps = [#id1, #all1], iterator_types = ["reduction"]}
        ins(%labels : tensor<?xi64>) outs(%c0 : tensor<i64>) {
    ^bb0(%a: i64, %acc: i64):
      %r = arith.addi %a, %acc : i64
      linalg.yield %r : i64
    } -> tensor<i64>
    %e4 = tensor.empty() : tensor<2xf32>
    %s2 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%s : tensor<2xf32>) outs(%e4 : tensor<2xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %one : f32
      linalg.yield %r : f32
    } -> tensor<2xf32>
    return %loss, %gw, %gb, %correct, %s2 : tensor<f32>, tensor<4x3xf32>, tensor<3xf32>, tensor<i64>, tensor<2xf32>
  }

  func.func @eval_metrics(%x: tensor<?x4xf32>, %labels: tensor<?xi64>,
                          %w: tensor<4x3xf32> {mdl.param = @w}, %b: tensor<3xf32> {mdl.param = @b})
      -> (tensor<f32>, tensor<i64>) {
    %zf = arith.constant 0.0 : f32
    %zi = arith.constant 0 : i64
    %e0 = tensor.empty() : tensor<f32>
    %l0 = linalg.fill ins(%zf : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id2, #all2], iterator_types = ["reduction", "reduction"]}
        ins(%x : tensor<?x4xf32>) outs(%l0 : tensor<f32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    %e3 = tensor.empty() : tensor<i64>
    %c0 = linalg.fill ins(%zi : i64) outs(%e3 : tensor<i64>) -> tensor<i64>
    %correct = linalg.generic {indexing_maps = [#id1, #all1], iterator_types = ["reduction"]}
        ins(%labels : tensor<?xi64>) outs(%c0 : tensor<i64>) {
    ^bb0(%a: i64, %acc: i64):
      %r = arith.addi %a, %acc : i64
      linalg.yield %r : i64
    } -> tensor<i64>
    return %loss, %correct : tensor<f32>, tensor<i64>
  }

  func.func @predict(%x: tensor<?x4xf32>, %w: tensor<4x3xf32> {mdl.param = @w},
                     %b: tensor<3xf32> {mdl.param = @b}) -> tensor<?x3xf32> {
    %zf = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %n = tensor.dim %x, %c0 : tensor<?x4xf32>
    %e = tensor.empty(%n) : tensor<?x3xf32>
    %f = linalg.fill ins(%zf : f32) outs(%e : tensor<?x3xf32>) -> tensor<?x3xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<?x4xf32>, tensor<4x3xf32>) outs(%f : tensor<?x3xf32>) -> tensor<?x3xf32>
    %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %b : tensor<?x3xf32>, tensor<3xf32>) outs(%e : tensor<?x3xf32>) {
    ^bb0(%a: f32, %bb: f32, %o: f32):
      %r = arith.addf %a, %bb : f32
      linalg.yield %r : f32
    } -> tensor<?x3xf32>
    return %r : tensor<?x3xf32>
  }
}
