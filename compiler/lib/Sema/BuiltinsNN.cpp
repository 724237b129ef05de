//===- BuiltinsNN.cpp - Layer primitives and losses -----------------------===//
//
// Builtin handlers for pooling, convolution, dropout, batch and layer
// normalisation, embedding lookup and the losses. Their checks produce the
// messages users see for the classic shape mistakes (channel mismatch,
// float labels to cross_entropy, broadcasting losses).
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"

#include "modelsupport/ShapeArith.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;

/// Checks that `x` is an NCHW float tensor with static spatial dims.
static bool requireNCHW(Elaborator &el, const Value &x, llvm::StringRef fn,
                        Frame &frame) {
  if (!requireTensor(el, x, fn, "x", frame))
    return false;
  const TensorType &t = el.typeOf(x);
  if (t.rank() == 4 && !t.shape[1].isSymbolic() && !t.shape[2].isSymbolic() &&
      !t.shape[3].isSymbolic())
    return true;
  el.error(x.range.Start,
           fn + " expects an input of shape [batch, channels, height, width] "
                "(NCHW), got " + t.str(), frame);
  el.noteOrigin(x, "the input");
  return false;
}

template <OpKind K>
static Value handlePool(Elaborator &el, llvm::ArrayRef<Value> args,
                        llvm::SMLoc loc, Frame &frame) {
  const char *name = K == OpKind::MaxPool2D ? "max_pool" : "avg_pool";
  if (!requireNCHW(el, args[0], name, frame))
    return Value::error();
  std::optional<int64_t> k = intArg(el, args[1], name, "kernel", 0, 1, loc,
                                    frame);
  if (!k)
    return Value::error();
  std::optional<int64_t> s = intArg(el, args[2], name, "stride", *k, 1, loc,
                                    frame);
  std::optional<int64_t> p = intArg(el, args[3], name, "pad", 0, 0, loc, frame);
  if (!s || !p)
    return Value::error();
  if (2 * *p > *k) {
    el.error(args[3].startOr(loc),
             llvm::Twine(name) + ": 'pad' (" + llvm::Twine(*p) +
                 ") must be at most half the kernel size (" + llvm::Twine(*k) +
                 ")",
             frame);
    return Value::error();
  }
  TensorType t = el.typeOf(args[0]);
  for (int i = 2; i < 4; ++i) {
    std::optional<int64_t> out =
        modelsupport::windowOutputSize(t.shape[i].size, *k, *s, *p);
    if (!out) {
      el.error(loc, llvm::Twine(name) + " with kernel " + llvm::Twine(*k) +
                        " does not fit the input " + t.str(), frame);
      el.noteOrigin(args[0], "the input");
      return Value::error();
    }
    t.shape[i] = SDim::fixed(*out);
  }
  return el.addNode({args[0].node}, t,
                    OpAttrs<K>{{*k, *k}, {*s, *s}, {*p, *p}}, loc, frame, std::string(name) + " at " + el.where(loc));
}

Value sema::handleMaxPool(Elaborator &el, llvm::ArrayRef<Value> a,
                          llvm::SMLoc l, Frame &f) {
  return handlePool<OpKind::MaxPool2D>(el, a, l, f);
}
Value sema::handleAvgPool(Elaborator &el, llvm::ArrayRef<Value> a,
                          llvm::SMLoc l, Frame &f) {
  return handlePool<OpKind::AvgPool2D>(el, a, l, f);
}

Value sema::handleConvolution(Elaborator &el, llvm::ArrayRef<Value> args,
                              llvm::SMLoc loc, Frame &frame) {
  if (!requireNCHW(el, args[0], "convolution", frame) ||
      !requireTensor(el, args[1], "convolution", "weight", frame))
    return Value::error();
  std::optional<int64_t> s =
      intArg(el, args[3], "convolution", "stride", 1, 1, loc, frame);
  std::optional<int64_t> p =
      intArg(el, args[4], "convolution", "pad", 0, 0, loc, frame);
  std::optional<int64_t> d =
      intArg(el, args[5], "convolution", "dilation", 1, 1, loc, frame);
  std::optional<int64_t> g =
      intArg(el, args[6], "convolution", "groups", 1, 1, loc, frame);
  if (!s || !p || !d || !g)
    return Value::error();
  const TensorType &x = el.typeOf(args[0]), &w = el.typeOf(args[1]);
  if (w.rank() != 4 || !isStatic(w.shape) || w.dtype != x.dtype) {
    el.error(args[1].range.Start,
             "convolution expects a " + getDTypeName(x.dtype) +
                 " weight of shape [out_channels, in_channels/groups, kh, "
                 "kw], got " + w.str(), frame);
    return Value::error();
  }
  int64_t c = x.shape[1].size, o = w.shape[0].size;
  if (o % *g) {
    el.error(loc,
             "convolution: the weight " + w.str() + " has " + llvm::Twine(o) +
                 " output channels, which groups=" + llvm::Twine(*g) +
                 " cannot split evenly",
             frame);
    el.noteOrigin(args[1], "the weight");
    return Value::error();
  }
  if (c != w.shape[1].size * *g) {
    el.error(loc, "convolution channel mismatch: the input " + x.str() +
                      " has " + llvm::Twine(c) + " channels but the weight " +
                      w.str() + " expects " +
                      llvm::Twine(w.shape[1].size * *g) + " (groups=" +
                      llvm::Twine(*g) + ")", frame);
    el.noteOrigin(args[0], "the input");
    el.noteOrigin(args[1], "the weight");
    return Value::error();
  }
  std::vector<unsigned> operands{args[0].node, args[1].node};
  if (args[2].kind != Value::Kind::None) {
    if (!requireTensor(el, args[2], "convolution", "bias", frame))
      return Value::error();
    const TensorType &b = el.typeOf(args[2]);
    if (b.rank() != 1 || !b.shape[0].is(o) || b.dtype != x.dtype) {
      el.error(args[2].range.Start, "convolution expects a bias of shape [" +
                                        llvm::Twine(o) + "], got " + b.str(),
               frame);
      return Value::error();
    }
    operands.push_back(args[2].node);
  }
  TensorType t{x.dtype, {x.shape[0], SDim::fixed(o)}};
  for (int i = 2; i < 4; ++i) {
    std::optional<int64_t> out = modelsupport::windowOutputSize(
        x.shape[i].size, w.shape[i].size, *s, *p, *d);
    if (!out) {
      el.error(loc, "convolution kernel " + w.str() +
                        " does not fit the input " + x.str(), frame);
      return Value::error();
    }
    t.shape.push_back(SDim::fixed(*out));
  }
  return el.addNode(operands, t,
                    OpAttrs<OpKind::Conv2D>{{*s, *s}, {*p, *p}, {*d, *d}, *g},
                    loc, frame, "convolution at " + el.where(loc));
}

Value sema::handleDropout(Elaborator &el, llvm::ArrayRef<Value> args,
                          llvm::SMLoc loc, Frame &frame) {
  if (!requireTensor(el, args[0], "dropout", "x", frame))
    return Value::error();
  std::optional<double> rate =
      numberArg(el, args[1], "dropout", "rate", 0, loc, frame);
  if (!rate)
    return Value::error();
  if (!(*rate >= 0 && *rate < 1)) {
    el.error(args[1].range.Start, "dropout rate must be in [0, 1), got " +
                                      formatNumber(*rate), frame);
    return Value::error();
  }
  const Value &pc = args[2];
  if (pc.kind != Value::Kind::None && pc.kind != Value::Kind::Bool) {
    el.error(pc.range.Start, "dropout: per_channel must be true or false, got " +
                                 pc.describe(el.graph), frame);
    return Value::error();
  }
  bool perChannel = pc.kind == Value::Kind::Bool && pc.i;
  if (perChannel && el.typeOf(args[0]).rank() < 3) {
    el.error(args[0].range.Start,
             "dropout: per_channel drops whole feature maps of an input "
             "[batch, channels, ...] of rank >= 3, got " +
                 el.typeOf(args[0]).str(), frame);
    return Value::error();
  }
  return el.addNode({args[0].node}, el.typeOf(args[0]),
                    OpAttrs<OpKind::Dropout>{*rate, perChannel}, loc, frame,
                    "dropout at " + el.where(loc));
}

/// The builtin's name, in its messages.
static const char kSdpa[] = "scaled_dot_product_attention";

/// Checks attention's operands: float [B, H, T, D] tensors of one type, key
/// and value of one length, the query's B, H and D.
static bool checkAttention(Elaborator &el, llvm::ArrayRef<Value> args,
                           llvm::SMLoc loc, Frame &frame) {
  const char *names[] = {"query", "key", "value"};
  for (unsigned i = 0; i < 3; ++i) {
    if (!requireTensor(el, args[i], kSdpa, names[i], frame))
      return false;
    const TensorType &t = el.typeOf(args[i]);
    if (t.rank() != 4) {
      el.error(args[i].range.Start,
               llvm::Twine(kSdpa) + " expects '" + names[i] +
                   "' as [batch, heads, length, width], got " + t.str(),
               frame);
      el.noteOrigin(args[i], names[i]);
      return false;
    }
  }
  const TensorType &q = el.typeOf(args[0]), &k = el.typeOf(args[1]),
                   &v = el.typeOf(args[2]);
  bool fits = q.dtype == k.dtype && q.dtype == v.dtype &&
              k.shape == v.shape && q.shape[0] == k.shape[0] &&
              q.shape[1] == k.shape[1] && q.shape[3] == k.shape[3];
  if (!fits)
    el.error(loc, llvm::Twine(kSdpa) + ": query " + q.str() + ", key " +
                      k.str() + " and value " + v.str() +
                      " must share batch, heads and width (key and value "
                      "the same shape)",
             frame);
  return fits;
}

Value sema::handleAttention(Elaborator &el, llvm::ArrayRef<Value> args,
                            llvm::SMLoc loc, Frame &frame) {
  if (!checkAttention(el, args, loc, frame))
    return Value::error();
  const Value &c = args[3];
  if (c.kind != Value::Kind::None && c.kind != Value::Kind::Bool) {
    el.error(c.range.Start, llvm::Twine(kSdpa) +
                                ": causal must be true or false, got " +
                                c.describe(el.graph),
             frame);
    return Value::error();
  }
  bool causal = c.kind == Value::Kind::Bool && c.i;
  const TensorType &q = el.typeOf(args[0]), &k = el.typeOf(args[1]);
  if (causal && !q.shape[2].isSymbolic() && !k.shape[2].isSymbolic() &&
      q.shape[2].size > k.shape[2].size) {
    el.error(loc, llvm::Twine(kSdpa) +
                      ": a causal mask needs at least as many keys as "
                      "queries, got " + q.str() + " queries and " + k.str() +
                      " keys", frame);
    return Value::error();
  }
  if (causal && el.decode) // one query over the positions' cache
    return el.addNode({args[0].node, args[1].node, args[2].node,
                       el.decode->position},
                      q, OpAttrs<OpKind::AttentionDecode>{el.decode->caches++},
                      loc, frame, std::string(kSdpa) + " at " + el.where(loc));
  return el.addNode({args[0].node, args[1].node, args[2].node}, q,
                    OpAttrs<OpKind::Attention>{causal ? 1 : 0}, loc, frame,
                    std::string(kSdpa) + " at " + el.where(loc));
}

/// positions(table, length): the first `length` rows of a [rows, D] table
/// (a slice); a length beyond the table is an error at the call. In the
/// decoding form, a length of one position is the decoded position's row.
Value sema::handlePositions(Elaborator &el, llvm::ArrayRef<Value> args,
                            llvm::SMLoc loc, Frame &frame) {
  if (!requireTensor(el, args[0], "positions", "table", frame, false))
    return Value::error();
  const TensorType &t = el.typeOf(args[0]);
  if (t.rank() != 2 || t.shape[0].isSymbolic() || t.shape[1].isSymbolic()) {
    el.error(args[0].range.Start, "positions expects a [rows, width] table "
                                  "of fixed size, got " + t.str(), frame);
    return Value::error();
  }
  std::optional<int64_t> n =
      intArg(el, args[1], "positions", "length", 0, 1, loc, frame);
  if (!n)
    return Value::error();
  if (*n > t.shape[0].size) {
    el.error(loc, "a sequence of " + llvm::Twine(*n) +
                      " positions is longer than the positional table " +
                      t.str() + " (" + llvm::Twine(t.shape[0].size) +
                      " positions: raise max_len, or shorten the sequences)",
             frame);
    el.noteOrigin(args[0], "the table");
    return Value::error();
  }
  TensorType out{t.dtype, {SDim::fixed(*n), t.shape[1]}};
  if (el.decode && *n == 1) // the row of the position decoded
    return el.addNode(OpKind::PositionRow, {args[0].node, el.decode->position},
                      out, loc, frame, "positions at " + el.where(loc));
  return el.addNode({args[0].node}, out,
                    OpAttrs<OpKind::Positions>{*n},
                    loc, frame, "positions at " + el.where(loc));
}

/// Checks that a normalisation's scale/shift has exactly `shape`.
static bool checkAffine(Elaborator &el, const Value &v, llvm::StringRef fn,
                        llvm::StringRef arg, const TensorType &want,
                        Frame &frame) {
  if (!requireTensor(el, v, fn, arg, frame))
    return false;
  if (el.typeOf(v) == want)
    return true;
  el.error(v.range.Start, fn + " expects '" + arg + "' of type " + want.str() +
                              ", got " + el.typeOf(v).str(), frame);
  el.noteOrigin(v, "'" + arg.str() + "'");
  return false;
}

/// A state entry named `<prefix>.<name>`; returns its name.
static std::string addState(Elaborator &el, Frame &frame, llvm::StringRef name,
                            const TensorType &type, llvm::StringRef init,
                            llvm::SMLoc loc) {
  std::string base = frame.paramPrefix + "." + name.str(), full = base;
  for (unsigned n = 1;; ++n) {
    bool clash = false;
    for (const TableEntry &e : el.graph.states)
      clash |= e.name == full;
    if (!clash)
      break;
    full = base + "_" + std::to_string(n);
  }
  el.graph.states.push_back({full, type, {init.str(), {}}, loc, frame.instance});
  return full;
}

Value sema::handleBatchNorm(Elaborator &el, llvm::ArrayRef<Value> args,
                            llvm::SMLoc loc, Frame &frame) {
  const char *fn = "batch_normalization";
  if (!requireTensor(el, args[0], fn, "x", frame))
    return Value::error();
  const TensorType &x = el.typeOf(args[0]);
  if (x.rank() < 2 || x.shape[1].isSymbolic()) {
    el.error(args[0].range.Start, llvm::Twine(fn) +
                                      " expects [batch, channels, ...], got " +
                                      x.str(), frame);
    return Value::error();
  }
  TensorType c{x.dtype, {x.shape[1]}};
  std::optional<double> eps = numberArg(el, args[3], fn, "eps", 1e-5, loc, frame);
  std::optional<double> mom =
      numberArg(el, args[4], fn, "momentum", 0.1, loc, frame);
  if (!checkAffine(el, args[1], fn, "gamma", c, frame) ||
      !checkAffine(el, args[2], fn, "beta", c, frame) || !eps || !mom)
    return Value::error();
  if (*eps <= 0 || *mom < 0 || *mom > 1) {
    el.error(loc, llvm::Twine(fn) + " needs eps > 0 and 0 <= momentum <= 1",
             frame);
    return Value::error();
  }
  // The running statistics are f32 states whatever x's type (states cross
  // the runtime's ABI and checkpoints in f32), as master weights are: a
  // bf16 average would stop moving once an update falls below its 8 bits.
  // MLIRGen's emitBatchNorm converts them where they are read.
  TensorType stats{DType::F32, {x.shape[1]}};
  std::string mean = addState(el, frame, "running_mean", stats, "zeros", loc);
  std::string var = addState(el, frame, "running_var", stats, "ones", loc);
  return el.addNode({args[0].node, args[1].node, args[2].node}, x,
                    OpAttrs<OpKind::BatchNorm>{*eps, *mom, mean, var},
                    loc, frame, "batch_normalization at " + el.where(loc));
}

Value sema::handleLayerNorm(Elaborator &el, llvm::ArrayRef<Value> args,
                            llvm::SMLoc loc, Frame &frame) {
  const char *fn = "layer_normalization";
  if (!requireTensor(el, args[0], fn, "x", frame) ||
      !requireTensor(el, args[1], fn, "gamma", frame))
    return Value::error();
  const TensorType &x = el.typeOf(args[0]);
  TensorType g = el.typeOf(args[1]);
  size_t n = g.rank();
  if (n == 0 || n > x.rank() ||
      !std::equal(g.shape.begin(), g.shape.end(), x.shape.end() - n) ||
      g.dtype != x.dtype) {
    el.error(args[1].range.Start,
             llvm::Twine(fn) + ": 'gamma' " + g.str() +
                 " must match the trailing dimensions of the input " + x.str(),
             frame);
    return Value::error();
  }
  if (n == x.rank()) { // only the leading dimension may be symbolic
    el.error(args[1].range.Start,
             llvm::Twine(fn) + ": 'gamma' " + g.str() +
                 " spans every dimension of the input " + x.str() +
                 ", the batch's too; layer normalisation normalises each "
                 "sample over its trailing dimensions",
             frame);
    return Value::error();
  }
  std::optional<double> eps = numberArg(el, args[3], fn, "eps", 1e-5, loc, frame);
  if (!checkAffine(el, args[2], fn, "beta", g, frame) || !eps)
    return Value::error();
  if (*eps <= 0) {
    el.error(args[3].startOr(loc),
             llvm::Twine(fn) + " needs eps > 0, got " +
                 args[3].describe(el.graph),
             frame);
    return Value::error();
  }
  return el.addNode({args[0].node, args[1].node, args[2].node}, x,
                    OpAttrs<OpKind::LayerNorm>{*eps}, loc, frame,
                    "layer_normalization at " + el.where(loc));
}

Value sema::handleEmbedding(Elaborator &el, llvm::ArrayRef<Value> args,
                            llvm::SMLoc loc, Frame &frame) {
  if (!requireTensor(el, args[0], "embedding_lookup", "indices", frame,
                     false) ||
      !requireTensor(el, args[1], "embedding_lookup", "table", frame))
    return Value::error();
  const TensorType &idx = el.typeOf(args[0]), &table = el.typeOf(args[1]);
  if (!isInteger(idx.dtype) || table.rank() != 2) {
    el.error(loc, "embedding_lookup expects integer indices and a [N, D] "
                  "table, got " + idx.str() + " and " + table.str(), frame);
    return Value::error();
  }
  TensorType t{table.dtype, idx.shape};
  t.shape.push_back(table.shape[1]);
  return el.addNode(OpKind::Embedding, {args[0].node, args[1].node}, t, loc,
                    frame, "embedding_lookup at " + el.where(loc));
}

/// Reads the `reduction` argument of a loss.
static std::optional<std::string> reductionArg(Elaborator &el, const Value &v,
                                               llvm::StringRef fn,
                                               Frame &frame) {
  if (v.kind == Value::Kind::None)
    return std::string("mean");
  if (v.kind == Value::Kind::String && (v.s == "mean" || v.s == "sum"))
    return v.s;
  el.error(v.range.Start, fn + ": reduction must be \"mean\" or \"sum\", got " +
                              v.describe(el.graph), frame);
  return std::nullopt;
}

/// Reads cross_entropy's `label_smoothing` (in [0, 1)).
static std::optional<double> smoothingArg(Elaborator &el, const Value &v,
                                          llvm::SMLoc loc, Frame &frame) {
  std::optional<double> e =
      numberArg(el, v, "cross_entropy", "label_smoothing", 0, loc, frame);
  if (e && !(*e >= 0 && *e < 1)) {
    el.error(v.range.Start, "cross_entropy: label_smoothing must be in [0, 1), "
                            "got " + formatNumber(*e), frame);
    return std::nullopt;
  }
  return e;
}

/// Reads cross_entropy's `weight`: absent (empty), or a list of one number
/// >= 0 per class, not all zero.
static std::optional<std::vector<double>>
classWeightsArg(Elaborator &el, const Value &v, const SDim &classes,
                Frame &frame) {
  if (v.kind == Value::Kind::None)
    return std::vector<double>{};
  std::string want = "a list of " + classes.str() + " numbers >= 0, one per class";
  if (v.kind != Value::Kind::List) {
    el.error(v.range.Start, "cross_entropy: weight must be " + want + ", got " +
                                v.describe(el.graph), frame);
    return std::nullopt;
  }
  std::vector<double> w;
  for (const Value &item : v.list) {
    if (!item.isNumber() || !(item.asDouble() >= 0) || !std::isfinite(item.asDouble())) {
      el.error(item.range.Start, "cross_entropy: weight must be " + want + ", got " +
                                     item.describe(el.graph), frame);
      return std::nullopt;
    }
    w.push_back(item.asDouble());
  }
  if (!classes.is(int64_t(w.size()))) {
    el.error(v.range.Start, "cross_entropy: weight has " + std::to_string(w.size()) +
                                " values, the logits have " + classes.str() + " classes",
             frame);
    return std::nullopt;
  }
  if (llvm::all_of(w, [](double x) { return x == 0; })) {
    el.error(v.range.Start, "cross_entropy: weight is all zeros, so every sample's loss "
                            "would be zero", frame);
    return std::nullopt;
  }
  return w;
}

/// Reads cross_entropy's `ignore_index`: absent (empty), or one integer.
static std::optional<std::vector<int64_t>> ignoreIndexArg(Elaborator &el,
                                                          const Value &v,
                                                          Frame &frame) {
  if (v.kind == Value::Kind::None)
    return std::vector<int64_t>{};
  if (v.kind == Value::Kind::Int)
    return std::vector<int64_t>{v.i};
  el.error(v.range.Start,
           "cross_entropy: ignore_index must be an integer (a label value "
           "such as -100 or a padding id), got " + v.describe(el.graph),
           frame);
  return std::nullopt;
}

/// Checks cross_entropy's labels against its [batch, ..., classes] logits:
/// integer class indices of the logits' shape without the classes.
static bool checkCrossEntropyLabels(Elaborator &el, const Value &logits,
                                    const Value &labels, Frame &frame) {
  const TensorType &lg = el.typeOf(logits), &lb = el.typeOf(labels);
  if (!isInteger(lb.dtype)) {
    el.error(labels.range.Start,
             "cross_entropy expects integer class indices as labels (i32 or "
             "i64), got " + lb.str() +
                 "; float or one-hot labels are a PyTorch habit "
                 "(`labels.float()`), here labels stay class indices",
             frame);
    el.noteOrigin(labels, "the labels");
    return false;
  }
  Shape rows(lg.shape.begin(), lg.shape.end() - 1);
  if (lb.shape == rows)
    return true;
  el.error(labels.range.Start,
           "cross_entropy expects labels of shape " + shapeStr(rows) +
               " (the logits' shape without the classes) for logits " +
               lg.str() + ", got " + lb.str(),
           frame);
  el.noteOrigin(labels, "the labels");
  return false;
}

Value sema::handleCrossEntropy(Elaborator &el, llvm::ArrayRef<Value> args,
                               llvm::SMLoc loc, Frame &frame) {
  std::optional<std::string> red =
      reductionArg(el, args[2], "cross_entropy", frame);
  if (!red || !requireTensor(el, args[0], "cross_entropy", "logits", frame) ||
      !requireTensor(el, args[1], "cross_entropy", "labels", frame, false))
    return Value::error();
  const TensorType &lg = el.typeOf(args[0]);
  if (lg.rank() < 2) {
    el.error(args[0].range.Start, "cross_entropy expects logits of shape "
                                  "[batch, classes] or [batch, ..., classes], "
                                  "got " + lg.str(), frame);
    el.noteOrigin(args[0], "the logits");
    return Value::error();
  }
  if (!checkCrossEntropyLabels(el, args[0], args[1], frame))
    return Value::error();
  std::optional<double> smoothing = smoothingArg(el, args[3], loc, frame);
  std::optional<std::vector<double>> weight =
      classWeightsArg(el, args[4], lg.shape.back(), frame);
  std::optional<std::vector<int64_t>> ignore =
      ignoreIndexArg(el, args[5], frame);
  if (!smoothing || !weight || !ignore)
    return Value::error();
  return el.addNode(
      {args[0].node, args[1].node}, TensorType{lg.dtype, {}},
      OpAttrs<OpKind::CrossEntropy>{*red, *smoothing, *weight, *ignore}, loc,
      frame, "cross_entropy at " + el.where(loc));
}

/// mse_loss / l1_loss / bce_with_logits: same-typed input and target.
template <OpKind K>
static Value handlePairLoss(Elaborator &el, llvm::ArrayRef<Value> args,
                            llvm::SMLoc loc, Frame &frame) {
  llvm::StringRef fn = getOpKindName(K);
  std::optional<std::string> red = reductionArg(el, args[2], fn, frame);
  if (!red || !requireTensor(el, args[0], fn, "input", frame) ||
      !requireTensor(el, args[1], fn, "target", frame))
    return Value::error();
  const TensorType &a = el.typeOf(args[0]), &b = el.typeOf(args[1]);
  if (a != b) {
    el.error(loc, fn + " expects input and target of the same type, got " +
                      a.str() + " and " + b.str() +
                      " (a loss never broadcasts: f32[B, 1] against f32[B] "
                      "would silently compare every pair)", frame);
    el.noteOrigin(args[0], "the input");
    el.noteOrigin(args[1], "the target");
    return Value::error();
  }
  return el.addNode({args[0].node, args[1].node}, TensorType{a.dtype, {}},
                    OpAttrs<K>{*red}, loc, frame,
                    fn.str() + " at " + el.where(loc));
}

Value sema::handleMSELoss(Elaborator &el, llvm::ArrayRef<Value> a,
                          llvm::SMLoc l, Frame &f) {
  return handlePairLoss<OpKind::MSELoss>(el, a, l, f);
}
Value sema::handleL1Loss(Elaborator &el, llvm::ArrayRef<Value> a,
                         llvm::SMLoc l, Frame &f) {
  return handlePairLoss<OpKind::L1Loss>(el, a, l, f);
}
Value sema::handleBCEWithLogits(Elaborator &el, llvm::ArrayRef<Value> a,
                                llvm::SMLoc l, Frame &f) {
  return handlePairLoss<OpKind::BCEWithLogits>(el, a, l, f);
}
