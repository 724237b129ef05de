//===- Evaluator.cpp - Reference interpreter: driver and helpers ----------===//
//
// Runs a function op by op with the handlers of EvaluatorOps.cpp and
// EvaluatorNN.cpp; tensor index helpers; Philox4x32-10.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorCore.h"

using namespace mlir;
using namespace modelc::test;

Tensor::Tensor(std::vector<int64_t> s, double fill) : shape(std::move(s)) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  data.assign(n, fill);
}

std::vector<int64_t> Tensor::strides() const {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t d = rank() - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

double &Tensor::at(const std::vector<int64_t> &index) {
  std::vector<int64_t> s = strides();
  int64_t linear = 0;
  for (size_t d = 0; d < index.size(); ++d)
    linear += index[d] * s[d];
  return data[linear];
}

std::vector<int64_t> modelc::test::unravel(int64_t linear,
                                           const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

std::vector<int64_t>
modelc::test::broadcastShape(const std::vector<int64_t> &a,
                             const std::vector<int64_t> &b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    out[i] = x == 1 ? y : x;
  }
  return out;
}

double modelc::test::readBroadcast(const Tensor &t,
                                   const std::vector<int64_t> &index) {
  std::vector<int64_t> s = t.strides();
  size_t lead = index.size() - t.shape.size();
  int64_t linear = 0;
  for (size_t d = 0; d < t.shape.size(); ++d)
    linear += (t.shape[d] == 1 ? 0 : index[lead + d]) * s[d];
  return t.data[linear];
}

void modelc::test::forEachSlice(
    const std::vector<int64_t> &shape, int64_t axis,
    const std::function<void(int64_t, int64_t)> &fn) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      fn(o * shape[axis] * inner + i, inner);
}

int64_t modelc::test::normAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

uint32_t modelc::test::dropoutWord(uint64_t seed, uint64_t index) {
  uint64_t group = index / 4;
  uint32_t c[4] = {uint32_t(group), uint32_t(group >> 32), 0, 0};
  uint32_t k[2] = {uint32_t(seed), uint32_t(seed >> 32)};
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
    uint64_t p1 = uint64_t(0xCD9E8D57u) * c[2];
    uint32_t n[4] = {uint32_t(p1 >> 32) ^ c[1] ^ k[0], uint32_t(p1),
                     uint32_t(p0 >> 32) ^ c[3] ^ k[1], uint32_t(p0)};
    std::copy(n, n + 4, c);
    k[0] += 0x9E3779B9u;
    k[1] += 0xBB67AE85u;
  }
  return c[index % 4];
}

bool Evaluator::run(func::FuncOp fn, const std::vector<Tensor> &args,
                    std::vector<Tensor> &results, std::string &error) {
  static const llvm::StringMap<Handler> handlers = [] {
    llvm::StringMap<Handler> map;
    addBasicHandlers(map);
    addNNHandlers(map);
    return map;
  }();
  Env env;
  env.params = &params;
  for (auto [arg, value] : llvm::zip(fn.getArguments(), args))
    env.values[arg] = value;
  for (Operation &op : fn.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      results.clear();
      for (Value v : ret.getOperands())
        results.push_back(env.get(v));
      return true;
    }
    auto it = handlers.find(op.getName().getStringRef());
    if (it == handlers.end()) {
      error = "evaluator: unsupported op " + op.getName().getStringRef().str();
      return false;
    }
    it->second(&op, env);
  }
  error = "evaluator: function has no return";
  return false;
}
