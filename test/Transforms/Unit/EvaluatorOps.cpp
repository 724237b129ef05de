//===- EvaluatorOps.cpp - Reference interpreter: basic ops ----------------===//
//
// Handlers of the elementwise, comparison, constant, reduction, softmax and
// shape ops for the test evaluator. It runs as one process: the sum over
// the ranks (mdl.all_reduce) is its input.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorCore.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace modelc::test;

/// Static sizes of `v`'s type with dynamic ones taken from `like`.
static std::vector<int64_t> resultShape(Value v, const Tensor &like) {
  auto type = cast<RankedTensorType>(v.getType());
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  int64_t known = 1;
  int dynamic = -1;
  for (auto [d, size] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(size))
      dynamic = d;
    else
      known *= size;
  if (dynamic >= 0)
    shape[dynamic] = known ? like.numel() / known : 0;
  return shape;
}

static Tensor binary(const Tensor &a, const Tensor &b,
                     const std::function<double(double, double)> &f) {
  Tensor out(broadcastShape(a.shape, b.shape));
  for (int64_t i = 0; i < out.numel(); ++i) {
    std::vector<int64_t> idx = unravel(i, out.shape);
    out.data[i] = f(readBroadcast(a, idx), readBroadcast(b, idx));
  }
  return out;
}

static Tensor unary(const Tensor &a, const std::function<double(double)> &f) {
  Tensor out = a;
  for (double &x : out.data)
    x = f(x);
  return out;
}

static void addBinary(llvm::StringMap<Handler> &map, StringRef name,
                      std::function<double(double, double)> f) {
  map[name] = [f](Operation *op, Env &env) {
    env.set(op, 0, binary(env.in(op, 0), env.in(op, 1), f));
  };
}

static void addUnary(llvm::StringMap<Handler> &map, StringRef name,
                     std::function<double(double)> f) {
  map[name] = [f](Operation *op, Env &env) {
    env.set(op, 0, unary(env.in(op, 0), f));
  };
}

static void addElementwise(llvm::StringMap<Handler> &map) {
  addBinary(map, "mdl.add", [](double a, double b) { return a + b; });
  addBinary(map, "mdl.sub", [](double a, double b) { return a - b; });
  addBinary(map, "mdl.mul", [](double a, double b) { return a * b; });
  addBinary(map, "mdl.div", [](double a, double b) { return a / b; });
  addBinary(map, "mdl.pow", [](double a, double b) { return std::pow(a, b); });
  addBinary(map, "mdl.max", [](double a, double b) { return std::max(a, b); });
  addBinary(map, "mdl.min", [](double a, double b) { return std::min(a, b); });
  addUnary(map, "mdl.neg", [](double x) { return -x; });
  addUnary(map, "mdl.abs", [](double x) { return std::fabs(x); });
  addUnary(map, "mdl.exp", [](double x) { return std::exp(x); });
  addUnary(map, "mdl.log", [](double x) { return std::log(x); });
  addUnary(map, "mdl.sqrt", [](double x) { return std::sqrt(x); });
  addUnary(map, "mdl.relu", [](double x) { return x > 0 ? x : 0.0; });
  addUnary(map, "mdl.tanh", [](double x) { return std::tanh(x); });
  addUnary(map, "mdl.sigmoid",
           [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
  addUnary(map, "mdl.gelu", [](double x) {
    return x * 0.5 * (1.0 + std::erf(x / std::sqrt(2.0)));
  });
  addBinary(map, "mdl.gelu_grad", [](double x, double g) {
    double cdf = 0.5 * (1.0 + std::erf(x / std::sqrt(2.0)));
    double pdf = std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI);
    return g * (cdf + x * pdf);
  });
}

static bool compare(mdl::CmpPredicate p, double a, double b) {
  switch (p) {
  case mdl::CmpPredicate::eq: return a == b;
  case mdl::CmpPredicate::ne: return a != b;
  case mdl::CmpPredicate::lt: return a < b;
  case mdl::CmpPredicate::le: return a <= b;
  case mdl::CmpPredicate::gt: return a > b;
  case mdl::CmpPredicate::ge: return a >= b;
  }
  return false;
}

static void addMisc(llvm::StringMap<Handler> &map) {
  map["mdl.cmp"] = [](Operation *op, Env &env) {
    auto p = cast<mdl::CmpOp>(op).getPredicate();
    env.set(op, 0, binary(env.in(op, 0), env.in(op, 1), [p](double a, double b) {
              return compare(p, a, b) ? 1.0 : 0.0;
            }));
  };
  map["mdl.select"] = [](Operation *op, Env &env) {
    const Tensor &c = env.in(op, 0), &a = env.in(op, 1), &b = env.in(op, 2);
    Tensor out(broadcastShape(c.shape, broadcastShape(a.shape, b.shape)));
    for (int64_t i = 0; i < out.numel(); ++i) {
      auto idx = unravel(i, out.shape);
      out.data[i] = readBroadcast(c, idx) != 0 ? readBroadcast(a, idx)
                                               : readBroadcast(b, idx);
    }
    env.set(op, 0, out);
  };
  map["mdl.cast"] = [](Operation *op, Env &env) {
    Type e = getElementTypeOrSelf(op->getResult(0).getType());
    env.set(op, 0, unary(env.in(op, 0), [e](double x) {
              return e.isInteger(1) ? double(x != 0)
                     : e.isInteger() ? std::trunc(x) : x;
            }));
  };
  map["mdl.constant"] = [](Operation *op, Env &env) {
    auto attr = cast<DenseElementsAttr>(cast<mdl::ConstantOp>(op).getValue());
    auto type = cast<RankedTensorType>(attr.getType());
    Tensor t(std::vector<int64_t>(type.getShape().begin(), type.getShape().end()));
    if (isa<FloatType>(type.getElementType())) {
      auto values = llvm::to_vector(attr.getValues<APFloat>());
      for (int64_t i = 0; i < t.numel(); ++i)
        t.data[i] = values[attr.isSplat() ? 0 : i].convertToDouble();
    } else {
      auto values = llvm::to_vector(attr.getValues<APInt>());
      for (int64_t i = 0; i < t.numel(); ++i)
        t.data[i] = double(values[attr.isSplat() ? 0 : i].getSExtValue());
    }
    env.set(op, 0, t);
  };
  map["mdl.param"] = [](Operation *op, Env &env) {
    env.set(op, 0, env.params->at(cast<mdl::ParamOp>(op).getName().str()));
  };
}

/// Reduces `x` over `axes` with `combine` from `init`, then `finish(acc, n)`.
static Tensor reduce(const Tensor &x, ArrayRef<int64_t> axesIn, bool keepdims,
                     double init, const std::function<double(double, double)> &combine,
                     const std::function<double(double, int64_t)> &finish) {
  std::vector<bool> reduced(x.rank(), false);
  for (int64_t a : axesIn)
    reduced[normAxis(a, x.rank())] = true;
  std::vector<int64_t> keep = x.shape, out;
  int64_t n = 1;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (reduced[d])
      n *= keep[d], keep[d] = 1;
    if (!reduced[d] || keepdims)
      out.push_back(keep[d]);
  }
  Tensor acc(keep, init);
  for (int64_t i = 0; i < x.numel(); ++i) {
    std::vector<int64_t> idx = unravel(i, x.shape);
    for (int64_t d = 0; d < x.rank(); ++d)
      if (reduced[d])
        idx[d] = 0;
    double &slot = acc.at(idx);
    slot = combine(slot, x.data[i]);
  }
  for (double &v : acc.data)
    v = finish(v, n);
  acc.shape = out;
  return acc;
}

template <typename OpT>
static void addReduce(llvm::StringMap<Handler> &map, double init,
                      std::function<double(double, double)> combine,
                      std::function<double(double, int64_t)> finish) {
  map[OpT::getOperationName()] = [=](Operation *op, Env &env) {
    auto r = cast<OpT>(op);
    env.set(op, 0, reduce(env.in(op, 0), r.getAxes(), r.getKeepdims(), init,
                          combine, finish));
  };
}

/// softmax (log = false) or log_softmax along `axis`.
static Tensor softmax(const Tensor &x, int64_t axis, bool log) {
  Tensor out = x;
  axis = normAxis(axis, x.rank());
  int64_t size = x.shape[axis];
  forEachSlice(x.shape, axis, [&](int64_t base, int64_t stride) {
    double m = -INFINITY, s = 0;
    for (int64_t k = 0; k < size; ++k)
      m = std::max(m, x.data[base + k * stride]);
    for (int64_t k = 0; k < size; ++k)
      s += std::exp(x.data[base + k * stride] - m);
    for (int64_t k = 0; k < size; ++k) {
      double v = x.data[base + k * stride] - m;
      out.data[base + k * stride] = log ? v - std::log(s) : std::exp(v) / s;
    }
  });
  return out;
}

static void addReductions(llvm::StringMap<Handler> &map) {
  auto add = [](double a, double b) { return a + b; };
  addReduce<mdl::ReduceSumOp>(map, 0.0, add, [](double v, int64_t) { return v; });
  addReduce<mdl::ReduceMeanOp>(map, 0.0, add,
                               [](double v, int64_t n) { return v / n; });
  addReduce<mdl::ReduceMaxOp>(
      map, -INFINITY, [](double a, double b) { return std::max(a, b); },
      [](double v, int64_t) { return v; });
  map["mdl.all_reduce"] = [](Operation *op, Env &env) {
    env.set(op, 0, env.in(op, 0));
  };
  map["mdl.softmax"] = [](Operation *op, Env &env) {
    env.set(op, 0, softmax(env.in(op, 0), cast<mdl::SoftmaxOp>(op).getAxis(), false));
  };
  map["mdl.log_softmax"] = [](Operation *op, Env &env) {
    env.set(op, 0, softmax(env.in(op, 0), cast<mdl::LogSoftmaxOp>(op).getAxis(), true));
  };
}

/// Copies `x` into `out`'s shape reading by broadcast.
static Tensor broadcastTo(const Tensor &x, std::vector<int64_t> shape) {
  Tensor out(std::move(shape));
  for (int64_t i = 0; i < out.numel(); ++i)
    out.data[i] = readBroadcast(x, unravel(i, out.shape));
  return out;
}

/// Visits `fn(inputLinear, outputLinear)` for a strided window of `x`.
static void forEachWindowElement(const std::vector<int64_t> &inShape,
                                 const std::vector<int64_t> &outShape,
                                 ArrayRef<int64_t> start,
                                 ArrayRef<int64_t> stride,
                                 const std::function<void(int64_t, int64_t)> &fn) {
  Tensor probe(inShape);
  int64_t n = 1;
  for (int64_t d : outShape)
    n *= d;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> idx = unravel(i, outShape);
    for (size_t d = 0; d < idx.size(); ++d)
      idx[d] = start[d] + idx[d] * stride[d];
    fn(&probe.at(idx) - probe.data.data(), i);
  }
}

static void addShapes(llvm::StringMap<Handler> &map) {
  auto keepData = [](Operation *op, Env &env) {
    Tensor t = env.in(op, 0);
    t.shape = resultShape(op->getResult(0), t);
    env.set(op, 0, t);
  };
  map["mdl.reshape"] = keepData;
  map["mdl.flatten"] = keepData;
  map["mdl.transpose"] = [](Operation *op, Env &env) {
    const Tensor &x = env.in(op, 0);
    ArrayRef<int64_t> perm = cast<mdl::TransposeOp>(op).getPermutation();
    std::vector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(x.shape[p]);
    Tensor out(shape);
    for (int64_t i = 0; i < out.numel(); ++i) {
      auto idx = unravel(i, shape);
      std::vector<int64_t> src(idx.size());
      for (size_t d = 0; d < perm.size(); ++d)
        src[perm[d]] = idx[d];
      out.data[i] = const_cast<Tensor &>(x).at(src);
    }
    env.set(op, 0, out);
  };
  map["mdl.broadcast_to"] = [](Operation *op, Env &env) {
    auto b = cast<mdl::BroadcastToOp>(op);
    std::vector<int64_t> shape =
        b.getLike() ? env.get(b.getLike()).shape
                    : std::vector<int64_t>(b.getShape()->begin(), b.getShape()->end());
    env.set(op, 0, broadcastTo(env.in(op, 0), shape));
  };
  map["mdl.concat"] = [](Operation *op, Env &env) {
    auto c = cast<mdl::ConcatOp>(op);
    std::vector<int64_t> shape = env.in(op, 0).shape;
    int64_t axis = normAxis(c.getAxis(), shape.size()), offset = 0;
    shape[axis] = 0;
    for (Value v : c.getInputs())
      shape[axis] += env.get(v).shape[axis];
    Tensor out(shape);
    for (Value v : c.getInputs()) {
      const Tensor &x = env.get(v);
      std::vector<int64_t> start(shape.size(), 0), stride(shape.size(), 1);
      start[axis] = offset;
      offset += x.shape[axis];
      forEachWindowElement(shape, x.shape, start, stride,
                           [&](int64_t o, int64_t i) { out.data[o] = x.data[i]; });
    }
    env.set(op, 0, out);
  };
  map["mdl.slice"] = [](Operation *op, Env &env) {
    auto s = cast<mdl::SliceOp>(op);
    const Tensor &x = env.in(op, 0);
    std::vector<int64_t> shape(s.getSize().begin(), s.getSize().end());
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] < 0)
        shape[d] = x.shape[d];
    Tensor out(shape);
    forEachWindowElement(x.shape, shape, s.getStart(), s.getStride(),
                         [&](int64_t i, int64_t o) { out.data[o] = x.data[i]; });
    env.set(op, 0, out);
  };
  map["mdl.slice_grad"] = [](Operation *op, Env &env) {
    auto s = cast<mdl::SliceGradOp>(op);
    const Tensor &g = env.in(op, 0);
    Tensor out(env.in(op, 1).shape);
    forEachWindowElement(out.shape, g.shape, s.getStart(), s.getStride(),
                         [&](int64_t i, int64_t o) { out.data[i] += g.data[o]; });
    env.set(op, 0, out);
  };
}

void modelc::test::addBasicHandlers(llvm::StringMap<Handler> &map) {
  addElementwise(map);
  addMisc(map);
  addReductions(map);
  addShapes(map);
}
