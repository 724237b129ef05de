//===- EvaluatorNN.cpp - Reference interpreter: products, nn, losses ------===//
//
// Handlers of matmul, batch_matmul, attention, convolution and pooling (and
// their adjoints), dropout, normalisation, embedding and the losses for the
// test evaluator. Written
// as direct loops over the definitions in docs/dialect.md.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorCore.h"

#include <cmath>

using namespace mlir;
using namespace modelc::test;

/// lhs ...xMxK times rhs KxN.
static Tensor matmul(const Tensor &a, const Tensor &b) {
  int64_t m = a.shape[a.rank() - 2], k = a.shape.back(), n = b.shape.back();
  int64_t batch = a.numel() / (m * k);
  std::vector<int64_t> shape = a.shape;
  shape.back() = n;
  Tensor out(shape);
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t q = 0; q < k; ++q)
          s += a.data[(p * m + i) * k + q] *
               b.data[q * n + j];
        out.data[(p * m + i) * n + j] = s;
      }
  return out;
}

/// batch_matmul: [a..., M, K] @ [b..., K, N] with the batch dimensions
/// broadcast, element by element from the definition.
static Tensor batchMatmul(const Tensor &a, const Tensor &b) {
  std::vector<int64_t> ab(a.shape.begin(), a.shape.end() - 2);
  std::vector<int64_t> bb(b.shape.begin(), b.shape.end() - 2);
  std::vector<int64_t> shape = broadcastShape(ab, bb);
  int64_t m = a.shape[a.rank() - 2], k = a.shape.back(), n = b.shape.back();
  shape.push_back(m);
  shape.push_back(n);
  Tensor out(shape);
  for (int64_t i = 0; i < out.numel(); ++i) {
    std::vector<int64_t> idx = unravel(i, shape), ia = idx, ib = idx;
    double sum = 0;
    for (int64_t q = 0; q < k; ++q) {
      ia[ia.size() - 1] = q;
      ib[ib.size() - 2] = q;
      ib[ib.size() - 1] = idx.back();
      sum += readBroadcast(a, ia) * readBroadcast(b, ib);
    }
    out.data[i] = sum;
  }
  return out;
}

/// The attention weights of head (b, h) of BxHxTxD q and k: P[i][j] =
/// softmax_j(q_i . k_j / sqrt(D)), keys j > i + Tk - Tq excluded when causal.
static std::vector<std::vector<double>>
attentionWeights(Tensor &q, Tensor &k, int64_t b, int64_t h,
                 bool causal) {
  int64_t tq = q.shape[2], tk = k.shape[2], d = q.shape[3];
  std::vector<std::vector<double>> p(tq, std::vector<double>(tk, 0.0));
  for (int64_t i = 0; i < tq; ++i) {
    double max = -INFINITY, sum = 0;
    std::vector<double> s(tk, -INFINITY);
    for (int64_t j = 0; j < tk && (!causal || j <= i + tk - tq); ++j) {
      s[j] = 0;
      for (int64_t c = 0; c < d; ++c)
        s[j] += q.at({b, h, i, c}) * k.at({b, h, j, c});
      s[j] /= std::sqrt(double(d));
      max = std::max(max, s[j]);
    }
    for (int64_t j = 0; j < tk; ++j)
      sum += s[j] == -INFINITY ? 0 : std::exp(s[j] - max);
    for (int64_t j = 0; j < tk; ++j)
      p[i][j] = s[j] == -INFINITY ? 0 : std::exp(s[j] - max) / sum;
  }
  return p;
}

/// mdl.attention: out = P @ V per head.
static Tensor attention(Tensor q, Tensor k, Tensor v, bool causal) {
  Tensor out(q.shape);
  for (int64_t b = 0; b < q.shape[0]; ++b)
    for (int64_t h = 0; h < q.shape[1]; ++h) {
      auto p = attentionWeights(q, k, b, h, causal);
      for (int64_t i = 0; i < q.shape[2]; ++i)
        for (int64_t c = 0; c < q.shape[3]; ++c)
          for (int64_t j = 0; j < k.shape[2]; ++j)
            out.at({b, h, i, c}) += p[i][j] * v.at({b, h, j, c});
    }
  return out;
}

/// mdl.attention_grad for head (b, h): dV = P^T G; dS = P * (G V^T -
/// rowsum(G * O)) / sqrt(D); dQ = dS K; dK = dS^T Q.
static void attentionGradHead(Tensor &q, Tensor &k, Tensor &v, Tensor &o,
                              Tensor &g, bool causal, int64_t b, int64_t h,
                              Tensor &dq, Tensor &dk, Tensor &dv) {
  int64_t tq = q.shape[2], tk = k.shape[2], d = q.shape[3];
  auto p = attentionWeights(q, k, b, h, causal);
  for (int64_t i = 0; i < tq; ++i) {
    double rows = 0;
    for (int64_t c = 0; c < d; ++c)
      rows += g.at({b, h, i, c}) * o.at({b, h, i, c});
    for (int64_t j = 0; j < tk; ++j) {
      double dp = 0;
      for (int64_t c = 0; c < d; ++c) {
        dv.at({b, h, j, c}) += p[i][j] * g.at({b, h, i, c});
        dp += g.at({b, h, i, c}) * v.at({b, h, j, c});
      }
      double ds = p[i][j] * (dp - rows) / std::sqrt(double(d));
      for (int64_t c = 0; c < d; ++c) {
        dq.at({b, h, i, c}) += ds * k.at({b, h, j, c});
        dk.at({b, h, j, c}) += ds * q.at({b, h, i, c});
      }
    }
  }
}

/// Conv geometry: calls fn(xIndex, wIndex, yIndex) for every product term.
struct ConvGeometry {
  std::vector<int64_t> x, w, y;
  ArrayRef<int64_t> stride, pad, dil;
  int64_t groups;
  void visit(const std::function<void(int64_t, int64_t, int64_t)> &fn) const {
    int64_t cg = w[1], og = w[0] / groups;
    for (int64_t n = 0; n < y[0]; ++n)
      for (int64_t o = 0; o < y[1]; ++o)
        for (int64_t oh = 0; oh < y[2]; ++oh)
          for (int64_t ow = 0; ow < y[3]; ++ow)
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t kh = 0; kh < w[2]; ++kh)
                for (int64_t kw = 0; kw < w[3]; ++kw) {
                  int64_t ih = oh * stride[0] - pad[0] + kh * dil[0];
                  int64_t iw = ow * stride[1] - pad[1] + kw * dil[1];
                  if (ih < 0 || iw < 0 || ih >= x[2] || iw >= x[3])
                    continue;
                  int64_t c = (o / og) * cg + ci;
                  fn(((n * x[1] + c) * x[2] + ih) * x[3] + iw,
                     ((o * cg + ci) * w[2] + kh) * w[3] + kw,
                     ((n * y[1] + o) * y[2] + oh) * y[3] + ow);
                }
  }
};

template <typename OpT>
static ConvGeometry geometry(OpT op, const Tensor &x, const Tensor &w,
                             std::vector<int64_t> y) {
  return {x.shape, w.shape, std::move(y), op.getStride(), op.getPadding(),
          op.getDilation(), static_cast<int64_t>(op.getGroups())};
}

static std::vector<int64_t> convOut(const Tensor &x, const Tensor &w,
                                    ArrayRef<int64_t> s, ArrayRef<int64_t> p,
                                    ArrayRef<int64_t> d) {
  std::vector<int64_t> y{x.shape[0], w.shape[0]};
  for (int i = 0; i < 2; ++i)
    y.push_back((x.shape[2 + i] + 2 * p[i] - d[i] * (w.shape[2 + i] - 1) - 1) /
                    s[i] + 1);
  return y;
}

static void addConv(llvm::StringMap<Handler> &map) {
  map["mdl.conv2d"] = [](Operation *op, Env &env) {
    auto c = cast<mdl::Conv2DOp>(op);
    const Tensor &x = env.in(op, 0), &w = env.in(op, 1);
    Tensor y(convOut(x, w, c.getStride(), c.getPadding(), c.getDilation()));
    geometry(c, x, w, y.shape).visit([&](int64_t xi, int64_t wi, int64_t yi) {
      y.data[yi] += x.data[xi] * w.data[wi];
    });
    if (c.getBias()) {
      const Tensor &b = env.get(c.getBias());
      for (int64_t i = 0; i < y.numel(); ++i)
        y.data[i] += b.data[unravel(i, y.shape)[1]];
    }
    env.set(op, 0, y);
  };
  map["mdl.conv2d_grad_input"] = [](Operation *op, Env &env) {
    auto c = cast<mdl::Conv2DGradInputOp>(op);
    const Tensor &g = env.in(op, 0), &w = env.in(op, 1);
    Tensor dx(env.in(op, 2).shape);
    geometry(c, dx, w, g.shape).visit([&](int64_t xi, int64_t wi, int64_t yi) {
      dx.data[xi] += g.data[yi] * w.data[wi];
    });
    env.set(op, 0, dx);
  };
  map["mdl.conv2d_grad_weight"] = [](Operation *op, Env &env) {
    auto c = cast<mdl::Conv2DGradWeightOp>(op);
    const Tensor &g = env.in(op, 0), &x = env.in(op, 1);
    Tensor dw(env.in(op, 2).shape);
    geometry(c, x, dw, g.shape).visit([&](int64_t xi, int64_t wi, int64_t yi) {
      dw.data[wi] += g.data[yi] * x.data[xi];
    });
    env.set(op, 0, dw);
  };
}

/// Calls fn(yIndex, list of in-range input indices of the window, area).
template <typename OpT>
static std::vector<int64_t> poolWindows(
    OpT op, const std::vector<int64_t> &x,
    const std::function<void(int64_t, const std::vector<int64_t> &)> &fn) {
  ArrayRef<int64_t> k = op.getKernel(), s = op.getStride(), p = op.getPadding();
  std::vector<int64_t> y{x[0], x[1], (x[2] + 2 * p[0] - k[0]) / s[0] + 1,
                         (x[3] + 2 * p[1] - k[1]) / s[1] + 1};
  for (int64_t nc = 0; nc < x[0] * x[1]; ++nc)
    for (int64_t oh = 0; oh < y[2]; ++oh)
      for (int64_t ow = 0; ow < y[3]; ++ow) {
        std::vector<int64_t> window;
        for (int64_t kh = 0; kh < k[0]; ++kh)
          for (int64_t kw = 0; kw < k[1]; ++kw) {
            int64_t ih = oh * s[0] - p[0] + kh, iw = ow * s[1] - p[1] + kw;
            if (ih >= 0 && iw >= 0 && ih < x[2] && iw < x[3])
              window.push_back((nc * x[2] + ih) * x[3] + iw);
          }
        fn((nc * y[2] + oh) * y[3] + ow, window);
      }
  return y;
}

static int64_t argmaxOf(const Tensor &x, const std::vector<int64_t> &window) {
  int64_t best = window[0];
  for (int64_t i : window)
    if (x.data[i] > x.data[best])
      best = i;
  return best;
}

template <typename OpT> static double area(OpT op) {
  return double(op.getKernel()[0] * op.getKernel()[1]);
}

static void addPooling(llvm::StringMap<Handler> &map) {
  map["mdl.max_pool2d"] = [](Operation *op, Env &env) {
    const Tensor &x = env.in(op, 0);
    std::vector<std::pair<int64_t, double>> values;
    auto y = poolWindows(cast<mdl::MaxPool2DOp>(op), x.shape, [&](int64_t yi, const auto &w) {
      values.push_back({yi, x.data[argmaxOf(x, w)]});
    });
    Tensor out(y);
    for (auto [i, v] : values)
      out.data[i] = v;
    env.set(op, 0, out);
  };
  map["mdl.avg_pool2d"] = [](Operation *op, Env &env) {
    auto pool = cast<mdl::AvgPool2DOp>(op);
    const Tensor &x = env.in(op, 0);
    std::vector<std::pair<int64_t, double>> values;
    auto y = poolWindows(pool, x.shape, [&](int64_t yi, const auto &w) {
      double s = 0;
      for (int64_t i : w)
        s += x.data[i];
      values.push_back({yi, s / area(pool)});
    });
    Tensor out(y);
    for (auto [i, v] : values)
      out.data[i] = v;
    env.set(op, 0, out);
  };
  map["mdl.max_pool2d_grad"] = [](Operation *op, Env &env) {
    const Tensor &g = env.in(op, 0), &x = env.in(op, 1);
    Tensor dx(x.shape);
    poolWindows(cast<mdl::MaxPool2DGradOp>(op), x.shape, [&](int64_t yi, const auto &w) {
      dx.data[argmaxOf(x, w)] += g.data[yi];
    });
    env.set(op, 0, dx);
  };
  map["mdl.avg_pool2d_grad"] = [](Operation *op, Env &env) {
    auto pool = cast<mdl::AvgPool2DGradOp>(op);
    const Tensor &g = env.in(op, 0);
    Tensor dx(env.in(op, 1).shape);
    poolWindows(pool, dx.shape, [&](int64_t yi, const auto &w) {
      for (int64_t i : w)
        dx.data[i] += g.data[yi] / area(pool);
    });
    env.set(op, 0, dx);
  };
}

/// Per-position statistics of a normalisation: `group(i)` names the
/// statistic element i belongs to; returns mean and biased variance.
static std::pair<std::vector<double>, std::vector<double>>
statistics(const Tensor &x, int64_t groups,
           const std::function<int64_t(int64_t)> &group) {
  std::vector<double> mean(groups), var(groups), count(groups);
  for (int64_t i = 0; i < x.numel(); ++i)
    mean[group(i)] += x.data[i], count[group(i)] += 1;
  for (int64_t g = 0; g < groups; ++g)
    mean[g] /= count[g];
  for (int64_t i = 0; i < x.numel(); ++i) {
    double d = x.data[i] - mean[group(i)];
    var[group(i)] += d * d;
  }
  for (int64_t g = 0; g < groups; ++g)
    var[g] /= count[g];
  return {mean, var};
}

/// y = (x - mean) / sqrt(var + eps) * gamma + beta with per-group stats and
/// per-`param(i)` gamma/beta.
static Tensor normalize(const Tensor &x, const std::vector<double> &mean,
                        const std::vector<double> &var, double eps,
                        const Tensor &gamma, const Tensor &beta,
                        const std::function<int64_t(int64_t)> &group,
                        const std::function<int64_t(int64_t)> &param) {
  Tensor y(x.shape);
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t g = group(i), p = param(i);
    y.data[i] = (x.data[i] - mean[g]) / std::sqrt(var[g] + eps) *
                    gamma.data[p] + beta.data[p];
  }
  return y;
}

static void addNorms(llvm::StringMap<Handler> &map) {
  map["mdl.batch_norm_train"] = [](Operation *op, Env &env) {
    const Tensor &x = env.in(op, 0);
    int64_t c = x.shape[1];
    auto channel = [&](int64_t i) { return unravel(i, x.shape)[1]; };
    auto [mean, var] = statistics(x, c, channel);
    double eps = cast<mdl::BatchNormTrainOp>(op).getEpsilon().convertToDouble();
    env.set(op, 0, normalize(x, mean, var, eps, env.in(op, 1), env.in(op, 2),
                             channel, channel));
    Tensor m({c}), v({c});
    m.data = mean, v.data = var;
    env.set(op, 1, m);
    env.set(op, 2, v);
  };
  map["mdl.batch_norm_eval"] = [](Operation *op, Env &env) {
    const Tensor &x = env.in(op, 0);
    auto channel = [&](int64_t i) { return unravel(i, x.shape)[1]; };
    double eps = cast<mdl::BatchNormEvalOp>(op).getEpsilon().convertToDouble();
    env.set(op, 0, normalize(x, env.in(op, 3).data, env.in(op, 4).data, eps,
                             env.in(op, 1), env.in(op, 2), channel, channel));
  };
  map["mdl.layer_norm"] = [](Operation *op, Env &env) {
    const Tensor &x = env.in(op, 0), &gamma = env.in(op, 1);
    int64_t inner = gamma.numel();
    auto row = [&](int64_t i) { return i / inner; };
    auto col = [&](int64_t i) { return i % inner; };
    auto [mean, var] = statistics(x, x.numel() / inner, row);
    double eps = cast<mdl::LayerNormOp>(op).getEpsilon().convertToDouble();
    env.set(op, 0, normalize(x, mean, var, eps, gamma, env.in(op, 2), row, col));
  };
}

static void addNN(llvm::StringMap<Handler> &map) {
  map["mdl.matmul"] = [](Operation *op, Env &env) {
    env.set(op, 0, matmul(env.in(op, 0), env.in(op, 1)));
  };
  map["mdl.batch_matmul"] = [](Operation *op, Env &env) {
    env.set(op, 0, batchMatmul(env.in(op, 0), env.in(op, 1)));
  };
  map["mdl.attention"] = [](Operation *op, Env &env) {
    env.set(op, 0, attention(env.in(op, 0), env.in(op, 1), env.in(op, 2),
                             cast<mdl::AttentionOp>(op).getCausal()));
  };
  map["mdl.attention_grad"] = [](Operation *op, Env &env) {
    Tensor q = env.in(op, 0), k = env.in(op, 1), v = env.in(op, 2),
           o = env.in(op, 3), g = env.in(op, 4);
    Tensor dq(q.shape), dk(k.shape), dv(v.shape);
    bool causal = cast<mdl::AttentionGradOp>(op).getCausal();
    for (int64_t b = 0; b < q.shape[0]; ++b)
      for (int64_t h = 0; h < q.shape[1]; ++h)
        attentionGradHead(q, k, v, o, g, causal, b, h, dq, dk, dv);
    env.set(op, 0, dq);
    env.set(op, 1, dk);
    env.set(op, 2, dv);
  };
  map["mdl.dropout"] = [](Operation *op, Env &env) {
    const Tensor &x = env.in(op, 0);
    double rate = cast<mdl::DropoutOp>(op).getRate().convertToDouble();
    auto seed = static_cast<uint64_t>(int64_t(env.in(op, 1).data[0]));
    Tensor y(x.shape), mask(x.shape);
    for (int64_t i = 0; i < x.numel(); ++i) {
      double u = (dropoutWord(seed, i) >> 8) * (1.0 / 16777216.0);
      mask.data[i] = u >= rate;
      y.data[i] = x.data[i] * mask.data[i] / (1.0 - rate);
    }
    env.set(op, 0, y);
    env.set(op, 1, mask);
  };
  map["mdl.embedding"] = [](Operation *op, Env &env) {
    const Tensor &idx = env.in(op, 0), &table = env.in(op, 1);
    int64_t d = table.shape[1];
    std::vector<int64_t> shape = idx.shape;
    shape.push_back(d);
    Tensor out(shape);
    for (int64_t p = 0; p < idx.numel(); ++p)
      for (int64_t j = 0; j < d; ++j)
        out.data[p * d + j] = table.data[int64_t(idx.data[p]) * d + j];
    env.set(op, 0, out);
  };
  map["mdl.embedding_grad"] = [](Operation *op, Env &env) {
    const Tensor &g = env.in(op, 0), &idx = env.in(op, 1);
    Tensor out(env.in(op, 2).shape);
    int64_t d = out.shape[1];
    for (int64_t p = 0; p < idx.numel(); ++p)
      for (int64_t j = 0; j < d; ++j)
        out.data[int64_t(idx.data[p]) * d + j] += g.data[p * d + j];
    env.set(op, 0, out);
  };
}

/// Per-sample cross-entropy terms (or their logits gradient when `grad`).
static Tensor crossEntropy(const Tensor &x, const Tensor &labels, bool mean,
                           double seed, bool grad) {
  int64_t n = x.shape[0], c = x.shape[1];
  Tensor out = grad ? Tensor(x.shape) : Tensor(std::vector<int64_t>{});
  double scale = mean ? seed / n : seed;
  for (int64_t i = 0; i < n; ++i) {
    double m = -INFINITY, s = 0;
    for (int64_t j = 0; j < c; ++j)
      m = std::max(m, x.data[i * c + j]);
    for (int64_t j = 0; j < c; ++j)
      s += std::exp(x.data[i * c + j] - m);
    int64_t label = int64_t(labels.data[i]);
    if (!grad)
      out.data[0] += (m + std::log(s) - x.data[i * c + label]) * scale;
    for (int64_t j = 0; grad && j < c; ++j)
      out.data[i * c + j] =
          (std::exp(x.data[i * c + j] - m) / s - (j == label)) * scale;
  }
  return out;
}

template <typename OpT>
static void addPairLoss(llvm::StringMap<Handler> &map,
                        std::function<double(double, double)> f) {
  map[OpT::getOperationName()] = [f](Operation *op, Env &env) {
    const Tensor &x = env.in(op, 0), &t = env.in(op, 1);
    Tensor out(std::vector<int64_t>{});
    for (int64_t i = 0; i < x.numel(); ++i)
      out.data[0] += f(x.data[i], t.data[i]);
    if (cast<OpT>(op).getReduction() == mdl::Reduction::mean)
      out.data[0] /= x.numel();
    env.set(op, 0, out);
  };
}

static void addLosses(llvm::StringMap<Handler> &map) {
  map["mdl.cross_entropy"] = [](Operation *op, Env &env) {
    bool mean = cast<mdl::CrossEntropyOp>(op).getReduction() == mdl::Reduction::mean;
    env.set(op, 0, crossEntropy(env.in(op, 0), env.in(op, 1), mean, 1.0, false));
  };
  map["mdl.cross_entropy_grad"] = [](Operation *op, Env &env) {
    bool mean = cast<mdl::CrossEntropyGradOp>(op).getReduction() == mdl::Reduction::mean;
    env.set(op, 0, crossEntropy(env.in(op, 0), env.in(op, 1), mean,
                                env.in(op, 2).data[0], true));
  };
  addPairLoss<mdl::MSELossOp>(map, [](double x, double t) { return (x - t) * (x - t); });
  addPairLoss<mdl::L1LossOp>(map, [](double x, double t) { return std::fabs(x - t); });
  addPairLoss<mdl::BCEWithLogitsOp>(map, [](double x, double t) {
    return std::max(x, 0.0) - x * t + std::log1p(std::exp(-std::fabs(x)));
  });
}

void modelc::test::addNNHandlers(llvm::StringMap<Handler> &map) {
  addConv(map);
  addPooling(map);
  addNorms(map);
  addNN(map);
  addLosses(map);
}
