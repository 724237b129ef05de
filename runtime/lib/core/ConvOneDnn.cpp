//===- ConvOneDnn.cpp - Convolutions by oneDNN primitives ------------------===//
//
// Implements the oneDNN path of ConvBackends.h on the library OneDnn.h opens
// (its instruction set capped at the runtime's level). oneDNN chooses the
// layouts of every tensor (format `any`, forward_training) and the kernels;
// the caller's plain NCHW / OIHW buffers are reordered into and out of
// buffers owned by the cache entry when its layouts differ. In bf16 the
// primitive's two inputs are bf16 (the reorders into them round to nearest
// even) and its result f32. One entry per kind, the 15 sizes, the precision,
// the bias (with or without) and the thread count holds the primitive, its
// scratchpad, the operands' memories and reorders and a stream: made once
// (with the thread count already set, as oneDNN's kernels plan their split
// when made), then each call sets the data handles and executes. A mutex
// guards the cache, another each entry (a call that runs two entries, the
// two gradients of oneDnnConvolutionBackward, takes the data gradient's
// first). A forward convolution with a bias
// adds it in the primitive (oneDNN's `bias`, the caller's f32 buffer). A
// shape that oneDNN refuses at any step is remembered as refused, and runs
// as im2col + sgemm (Conv.cpp). A forward convolution whose result oneDNN
// writes in nChw16c f32 may hand that buffer to its caller instead of
// reordering it (BlockedResult: a max pooling reads it, ConvMaxPool.cpp).
// The two gradients of one convolution on the same dy share its reorder
// when both primitives take dy in one layout (oneDnnConvolutionBackward),
// or read it from the weights primitive's buffer, where a max pooling's
// gradient wrote it in nChw16c, f32 or bf16 (oneDnnConvolutionBackwardFilled).
// An input inside frozen parameters (FrozenParameters.h) that its buffer
// already holds is not reordered again.
//
// oneDNN's dilation is the runtime's minus one; its right padding is chosen
// so that its output size is the caller's OH x OW (negative when the floor
// of the size formula drops input rows or columns, which oneDNN accepts
// down to 1 - stride).
//
//===----------------------------------------------------------------------===//
#include "ConvBackends.h"
#include "OneDnn.h"
#include "modelrt/core/FrozenParameters.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace modelrt {
namespace {

/// The three tensors of a convolution: image (NCHW), weights (OIHW) and
/// output (NCHW).
enum Tensor { Image, Weights, Output };

/// What one kind reads and writes: two inputs, then the result.
struct KindSpec {
  dnnl_query_t query[3];
  int arg[3];
  Tensor tensor[3];
};

const KindSpec &specOf(ConvKind kind) {
  static const KindSpec specs[3] = {
      {{dnnl_query_src_md, dnnl_query_weights_md, dnnl_query_dst_md},
       {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST},
       {Image, Weights, Output}},
      {{dnnl_query_diff_dst_md, dnnl_query_weights_md, dnnl_query_diff_src_md},
       {DNNL_ARG_DIFF_DST, DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_SRC},
       {Output, Weights, Image}},
      {{dnnl_query_src_md, dnnl_query_diff_dst_md, dnnl_query_diff_weights_md},
       {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_WEIGHTS},
       {Image, Output, Weights}},
  };
  return specs[int(kind)];
}

/// One operand: the caller's buffer in its plain layout, and the
/// primitive's own layout when that differs.
struct Operand {
  int arg = 0;                        ///< DNNL_ARG_*
  dnnl_memory_t user = nullptr;       ///< the caller's buffer, set per call
  dnnl_memory_t inner = nullptr;      ///< the primitive's layout; null: the user's
  dnnl_memory_desc_t innerDesc{};     ///< inner's descriptor, when inner is not null
  dnnl_primitive_t reorder = nullptr; ///< user -> inner (inputs), inner -> user (result)
  int64_t elements = 0;               ///< the tensor's elements
  RoundedFrom held; ///< what an input's inner holds (frozen weights are not reordered again)
};

/// One cached convolution: made once, then run per call.
struct ConvPrimitive {
  std::mutex running; ///< one call at a time: the operands' handles are shared
  bool refused = false;
  dnnl_primitive_t conv = nullptr;
  dnnl_memory_t scratchpad = nullptr; ///< null when the primitive needs none
  dnnl_stream_t stream = nullptr;
  Operand operands[3]; ///< the two inputs, then the result
  dnnl_memory_t bias = nullptr; ///< a forward one's bias (the caller's), or null
  /// A forward one's result buffer when it is nChw16c f32 (BlockedResult).
  const float *blocked16 = nullptr;
};

/// The kind, the 15 sizes, the thread count, whether the inputs are bf16
/// and whether it adds a bias.
using CacheKey = std::array<int64_t, 19>;

/// The kind and the 15 sizes: a shape, as `info` counts the refused ones.
using ShapeKey = std::array<int64_t, 16>;

/// Every convolution made so far, and what the user is told about them.
struct ConvCache {
  std::mutex lock;
  dnnl_engine_t engine = nullptr;
  bool engineFailed = false;
  std::map<CacheKey, std::unique_ptr<ConvPrimitive>> entries;
  std::vector<std::string> impls; ///< distinct, in the order first made
  std::set<ShapeKey> refused;     ///< whatever the precision, bias or threads
  std::atomic<int64_t> sharedBackwardInputs{0}; ///< oneDnnSharedBackwardInputs
};

ConvCache &cache() {
  static ConvCache *c = new ConvCache(); // outlives static destructors
  return *c;
}

/// The test hook of setOneDnnConvRefusalForTesting.
std::atomic<bool (*)(const ConvShape &)> refusal{nullptr};

/// The plain (nchw / oihw) and `any` descriptors of the three tensors, and
/// the bias's (f32, one per output channel).
struct TensorDescs {
  dnnl_memory_desc_t plain[3], any[3], bias;
};

/// The plain descriptors are f32 (the caller's buffers); in bf16, the
/// primitive's two inputs of \p kind are bf16 (the reorders into them round)
/// and its result f32.
bool initDescs(const OneDnnConvApi &api, const ConvShape &s, ConvKind kind, bool bf16,
               TensorDescs &d) {
  const dnnl_dims_t dims[3] = {
      {s.n, s.c, s.h, s.w}, {s.o, s.c, s.kh, s.kw}, {s.n, s.o, s.oh, s.ow}};
  for (int t = 0; t < 3; ++t) {
    dnnl_format_tag_t tag = t == Weights ? dnnl_oihw : dnnl_nchw;
    dnnl_data_type_t inner = bf16 && t != specOf(kind).tensor[2] ? dnnl_bf16 : dnnl_f32;
    if (api.memoryDescInitByTag(&d.plain[t], 4, dims[t], dnnl_f32, tag) != dnnl_success ||
        api.memoryDescInitByTag(&d.any[t], 4, dims[t], inner, dnnl_format_tag_any) !=
            dnnl_success)
      return false;
  }
  const dnnl_dims_t channels = {s.o};
  return api.memoryDescInitByTag(&d.bias, 1, channels, dnnl_f32, dnnl_a) == dnnl_success;
}

/// The right padding that makes oneDNN's output size \p out for an input
/// of \p in, a kernel of \p k dilated by \p dil, \p stride and left \p pad.
int64_t rightPadding(int64_t in, int64_t k, int64_t dil, int64_t stride, int64_t pad,
                     int64_t out) {
  return (out - 1) * stride + (k - 1) * dil + 1 - in - pad;
}

/// The operation descriptor of \p kind (a forward one adding d.bias when
/// \p bias).
bool initConvDesc(const OneDnnConvApi &api, ConvKind kind, const ConvShape &s,
                  const TensorDescs &d, bool bias, dnnl_convolution_desc_t &cd) {
  dnnl_dims_t strides = {s.strideH, s.strideW}, dilates = {s.dilH - 1, s.dilW - 1};
  dnnl_dims_t padL = {s.padH, s.padW};
  dnnl_dims_t padR = {rightPadding(s.h, s.kh, s.dilH, s.strideH, s.padH, s.oh),
                      rightPadding(s.w, s.kw, s.dilW, s.strideW, s.padW, s.ow)};
  const dnnl_memory_desc_t *x = &d.any[Image], *w = &d.any[Weights], *y = &d.any[Output];
  dnnl_status_t rc = dnnl_unimplemented;
  switch (kind) {
  case ConvKind::Forward:
    rc = api.forwardDescInit(&cd, dnnl_forward_training, dnnl_convolution_direct, x, w,
                             bias ? &d.bias : nullptr, y, strides, dilates, padL, padR);
    break;
  case ConvKind::BackwardData:
    rc = api.backwardDataDescInit(&cd, dnnl_convolution_direct, x, w, y, strides, dilates, padL,
                                  padR);
    break;
  case ConvKind::BackwardWeights:
    rc = api.backwardWeightsDescInit(&cd, dnnl_convolution_direct, x, w, nullptr, y, strides,
                                     dilates, padL, padR);
    break;
  }
  return rc == dnnl_success;
}

/// The primitive descriptor of \p kind on descriptors \p d (a backward
/// one with the forward one, on \p forwardDescs, as its hint; a forward one
/// adding the bias when \p bias), with the scratchpad provided by the
/// entry; null when oneDNN refuses.
dnnl_primitive_desc_t makePrimitiveDesc(const OneDnnConvApi &api, dnnl_engine_t engine,
                                        ConvKind kind, const ConvShape &s,
                                        const TensorDescs &d,
                                        const TensorDescs &forwardDescs, bool bias) {
  dnnl_primitive_attr_t attr = nullptr;
  if (api.attrCreate(&attr) != dnnl_success)
    return nullptr;
  dnnl_primitive_desc_t forward = nullptr, pd = nullptr;
  dnnl_convolution_desc_t cd;
  if (api.attrSetScratchpadMode(attr, dnnl_scratchpad_mode_user) == dnnl_success &&
      initConvDesc(api, ConvKind::Forward, s, forwardDescs, bias, cd) &&
      api.primitiveDescCreate(&forward, &cd, attr, engine, nullptr) == dnnl_success) {
    if (kind == ConvKind::Forward)
      std::swap(pd, forward);
    else if (!initConvDesc(api, kind, s, d, false, cd) ||
             api.primitiveDescCreate(&pd, &cd, attr, engine, forward) != dnnl_success)
      pd = nullptr;
  } else {
    forward = nullptr;
  }
  if (forward)
    api.primitiveDescDestroy(forward);
  api.attrDestroy(attr);
  return pd;
}

/// Makes \p op's memories and, when the primitive's layout \p inner differs
/// from \p plain, the reorder towards it (an input) or from it (the result).
bool makeOperand(const OneDnnConvApi &api, dnnl_engine_t engine, const dnnl_memory_desc_t &plain,
                 const dnnl_memory_desc_t &inner, bool result, Operand &op) {
  if (api.memoryCreate(&op.user, &plain, engine, DNNL_MEMORY_NONE) != dnnl_success) {
    op.user = nullptr;
    return false;
  }
  if (api.memoryDescEqual(&plain, &inner))
    return true;
  if (api.memoryCreate(&op.inner, &inner, engine, DNNL_MEMORY_ALLOCATE) != dnnl_success) {
    op.inner = nullptr;
    return false;
  }
  op.innerDesc = inner;
  const dnnl_memory_desc_t *from = result ? &inner : &plain, *to = result ? &plain : &inner;
  dnnl_primitive_desc_t pd = nullptr;
  if (api.reorderDescCreate(&pd, from, engine, to, engine, nullptr) != dnnl_success)
    return false;
  if (api.primitiveCreate(&op.reorder, pd) != dnnl_success)
    op.reorder = nullptr;
  api.primitiveDescDestroy(pd);
  return op.reorder != nullptr;
}

/// Makes the primitive's scratchpad, when it needs one.
bool makeScratchpad(const OneDnnConvApi &api, dnnl_engine_t engine, dnnl_primitive_desc_t pd,
                    ConvPrimitive &e) {
  const dnnl_memory_desc_t *md = api.primitiveDescQueryMd(pd, dnnl_query_scratchpad_md, 0);
  if (!md)
    return false;
  if (api.memoryDescGetSize(md) == 0)
    return true;
  if (api.memoryCreate(&e.scratchpad, md, engine, DNNL_MEMORY_ALLOCATE) != dnnl_success) {
    e.scratchpad = nullptr;
    return false;
  }
  return true;
}

/// Makes the memory of a forward primitive's bias over the caller's plain
/// f32 buffer; false when the primitive wants another layout.
bool makeBias(const OneDnnConvApi &api, dnnl_engine_t engine, dnnl_primitive_desc_t pd,
              const TensorDescs &d, ConvPrimitive &e) {
  const dnnl_memory_desc_t *md = api.primitiveDescQueryMd(pd, dnnl_query_weights_md, 1);
  if (!md || !api.memoryDescEqual(md, &d.bias) ||
      api.memoryCreate(&e.bias, &d.bias, engine, DNNL_MEMORY_NONE) != dnnl_success) {
    e.bias = nullptr;
    return false;
  }
  return true;
}

/// The buffer of \p op, an operand of the shape of \p s's output (N, O,
/// OH, OW), when the primitive holds it in nChw16c of \p type
/// (BlockedResult, BlockedGradient); else null.
void *blocked16Buffer(const OneDnnConvApi &api, const ConvShape &s, const Operand &op,
                      dnnl_data_type_t type = dnnl_f32) {
  const dnnl_dims_t dims = {s.n, s.o, s.oh, s.ow};
  dnnl_memory_desc_t blocked;
  void *data = nullptr;
  bool isBlocked16 =
      op.inner && op.reorder &&
      api.memoryDescInitByTag(&blocked, 4, dims, type, dnnl_aBcd16b) == dnnl_success &&
      api.memoryDescEqual(&op.innerDesc, &blocked);
  if (!isBlocked16 || api.memoryGetDataHandle(op.inner, &data) != dnnl_success)
    return nullptr;
  return data;
}

/// The elements of tensor \p t of a convolution of shape \p s.
int64_t tensorElements(const ConvShape &s, Tensor t) {
  switch (t) {
  case Image:
    return s.n * s.c * s.h * s.w;
  case Weights:
    return s.o * s.c * s.kh * s.kw;
  case Output:
    break;
  }
  return s.n * s.o * s.oh * s.ow;
}

/// Makes everything \p e runs; sets \p impl to the implementation oneDNN
/// chose. False when oneDNN refuses any of it (\p e then holds what was made).
bool makeEntry(const OneDnnConvApi &api, dnnl_engine_t engine, ConvKind kind,
               const ConvShape &s, bool bf16, bool bias, ConvPrimitive &e,
               std::string &impl) {
  TensorDescs d, forward;
  if (!initDescs(api, s, kind, bf16, d) || !initDescs(api, s, ConvKind::Forward, bf16, forward))
    return false;
  dnnl_primitive_desc_t pd = makePrimitiveDesc(api, engine, kind, s, d, forward, bias);
  if (!pd)
    return false;
  const char *name = nullptr;
  impl = api.primitiveDescQuery(pd, dnnl_query_impl_info_str, 0, &name) == dnnl_success && name
             ? name
             : "unknown";
  bool ok = makeScratchpad(api, engine, pd, e);
  if (ok && api.primitiveCreate(&e.conv, pd) != dnnl_success) {
    e.conv = nullptr;
    ok = false;
  }
  if (ok && api.streamCreate(&e.stream, engine, dnnl_stream_default_flags) != dnnl_success) {
    e.stream = nullptr;
    ok = false;
  }
  const KindSpec &spec = specOf(kind);
  for (int i = 0; ok && i < 3; ++i) {
    const dnnl_memory_desc_t *inner = api.primitiveDescQueryMd(pd, spec.query[i], 0);
    e.operands[i].arg = spec.arg[i];
    e.operands[i].elements = tensorElements(s, spec.tensor[i]);
    ok = inner && makeOperand(api, engine, d.plain[spec.tensor[i]], *inner, i == 2,
                              e.operands[i]);
    if (ok && i == 2 && kind == ConvKind::Forward)
      e.blocked16 = static_cast<const float *>(blocked16Buffer(api, s, e.operands[i]));
  }
  ok = ok && (!bias || makeBias(api, engine, pd, d, e));
  api.primitiveDescDestroy(pd);
  return ok;
}

/// Destroys whatever \p e holds (after a refusal).
void destroyEntry(const OneDnnConvApi &api, ConvPrimitive &e) {
  for (Operand &op : e.operands) {
    if (op.reorder)
      api.primitiveDestroy(op.reorder);
    for (dnnl_memory_t m : {op.inner, op.user})
      if (m)
        api.memoryDestroy(m);
    op = Operand();
  }
  if (e.conv)
    api.primitiveDestroy(e.conv);
  if (e.scratchpad)
    api.memoryDestroy(e.scratchpad);
  if (e.bias)
    api.memoryDestroy(e.bias);
  if (e.stream)
    api.streamDestroy(e.stream);
  e.conv = nullptr;
  e.scratchpad = nullptr;
  e.bias = nullptr;
  e.stream = nullptr;
}

/// The CPU engine, made once (null when oneDNN cannot make one).
dnnl_engine_t engineOf(ConvCache &c, const OneDnnConvApi &api) {
  if (!c.engine && !c.engineFailed &&
      api.engineCreate(&c.engine, dnnl_cpu, 0) != dnnl_success) {
    c.engine = nullptr;
    c.engineFailed = true;
  }
  return c.engine;
}

/// The entry for \p kind, \p s, \p bf16, \p bias and \p threads, made on
/// first use.
ConvPrimitive &entryFor(const OneDnnConvApi &api, ConvKind kind, const ConvShape &s,
                        bool bf16, bool bias, int threads) {
  ConvCache &c = cache();
  CacheKey key = {int64_t(kind), s.n,      s.c,    s.h,      s.w,       s.o,      s.kh,
                  s.kw,          s.oh,     s.ow,   s.strideH, s.strideW, s.padH,  s.padW,
                  s.dilH,        s.dilW,   threads, bf16,     bias};
  std::lock_guard<std::mutex> hold(c.lock);
  std::unique_ptr<ConvPrimitive> &slot = c.entries[key];
  if (slot)
    return *slot;
  slot = std::make_unique<ConvPrimitive>();
  bool (*refuse)(const ConvShape &) = refusal.load();
  dnnl_engine_t engine = engineOf(c, api);
  std::string impl;
  if (!engine || (refuse && refuse(s)) ||
      !makeEntry(api, engine, kind, s, bf16, bias, *slot, impl)) {
    destroyEntry(api, *slot);
    slot->refused = true;
    ShapeKey shape;
    std::copy(key.begin(), key.begin() + shape.size(), shape.begin());
    c.refused.insert(shape);
  } else if (std::find(c.impls.begin(), c.impls.end(), impl) == c.impls.end()) {
    c.impls.push_back(impl);
  }
  return *slot;
}

/// Executes \p reorder from \p from to \p to on \p stream.
bool reorder(const OneDnnConvApi &api, dnnl_stream_t stream, dnnl_primitive_t reorder,
             dnnl_memory_t from, dnnl_memory_t to) {
  dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  return api.primitiveExecute(reorder, stream, 2, args) == dnnl_success;
}

/// Runs \p e on the caller's buffers: the inputs' reorders, the
/// convolution, the result's reorder (or, for \p blocked where the result
/// is nChw16c, its `take`), then waits for them. An input \p i with
/// \p given[i] (when \p given is not null) reads that memory, already in
/// the primitive's layout, instead of its reorder.
bool run(const OneDnnConvApi &api, ConvPrimitive &e, const float *a, const float *b,
         const float *bias, float *out, BlockedResult *blocked,
         const dnnl_memory_t *given = nullptr) {
  void *handles[3] = {const_cast<float *>(a), const_cast<float *>(b), out};
  dnnl_exec_arg_t args[5];
  int count = 0;
  bool ok = true;
  for (int i = 0; i < 3; ++i) {
    Operand &op = e.operands[i];
    if (i < 2 && given && given[i]) {
      args[count++] = {op.arg, given[i]};
      continue;
    }
    ok = ok && api.memorySetDataHandle(op.user, handles[i]) == dnnl_success;
    if (ok && i < 2 && op.reorder &&
        !roundedCopyIsCurrent(op.held, static_cast<const float *>(handles[i]), op.elements, 1,
                              op.elements)) {
      ok = reorder(api, e.stream, op.reorder, op.user, op.inner);
      if (!ok)
        op.held = RoundedFrom(); // what inner holds is unknown
    }
    args[count++] = {op.arg, op.inner ? op.inner : op.user};
  }
  if (e.scratchpad)
    args[count++] = {DNNL_ARG_SCRATCHPAD, e.scratchpad};
  if (e.bias) {
    ok = ok && api.memorySetDataHandle(e.bias, const_cast<float *>(bias)) == dnnl_success;
    args[count++] = {DNNL_ARG_BIAS, e.bias};
  }
  ok = ok && api.primitiveExecute(e.conv, e.stream, count, args) == dnnl_success;
  const Operand &result = e.operands[2];
  if (ok && blocked && e.blocked16) {
    ok = api.streamWait(e.stream) == dnnl_success;
    if (ok) {
      blocked->take(e.blocked16);
      blocked->taken = true;
    }
    return ok;
  }
  if (ok && result.reorder)
    ok = reorder(api, e.stream, result.reorder, result.inner, result.user);
  return api.streamWait(e.stream) == dnnl_success && ok;
}

/// Sets oneDNN's thread count to \p threads (0: the calling thread's),
/// before its primitives are made or run; returns the count that keys the
/// cache. Null when oneDNN has no convolutions.
const OneDnnLibrary *convLibraryFor(int &threads) {
  const OneDnnLibrary &lib = oneDnnLibrary();
  if (!lib.status.isOk() || !lib.convStatus.isOk())
    return nullptr;
  setOneDnnThreads(threads);
  if (threads <= 0)
    threads = lib.ompGetMaxThreads ? lib.ompGetMaxThreads() : 0;
  return &lib;
}

} // namespace

bool oneDnnConvolution(ConvKind kind, const ConvShape &s, int threads, const float *a,
                       const float *b, float *out, bool bf16, const float *bias,
                       BlockedResult *blocked) {
  const OneDnnLibrary *lib = convLibraryFor(threads);
  if (!lib)
    return false;
  ConvPrimitive &e = entryFor(lib->conv, kind, s, bf16, bias != nullptr, threads);
  if (e.refused)
    return false;
  std::lock_guard<std::mutex> hold(e.running);
  return run(lib->conv, e, a, b, bias, out, blocked);
}

bool oneDnnConvolutionBackward(const ConvShape &s, int threads, const float *dy, const float *x,
                               const float *w, float *dx, float *dw, bool bf16) {
  const OneDnnLibrary *lib = convLibraryFor(threads);
  if (!lib)
    return false;
  const OneDnnConvApi &api = lib->conv;
  ConvPrimitive &data = entryFor(api, ConvKind::BackwardData, s, bf16, false, threads);
  ConvPrimitive &weights = entryFor(api, ConvKind::BackwardWeights, s, bf16, false, threads);
  if (data.refused || weights.refused)
    return false;
  std::lock_guard<std::mutex> holdData(data.running), holdWeights(weights.running);
  if (!run(api, data, dy, w, nullptr, dx, nullptr))
    return false;
  const Operand &dyData = data.operands[0], &dyWeights = weights.operands[1];
  bool shared = dyData.inner && dyWeights.inner &&
                api.memoryDescEqual(&dyData.innerDesc, &dyWeights.innerDesc);
  const dnnl_memory_t given[2] = {nullptr, shared ? dyData.inner : nullptr};
  if (!run(api, weights, x, dy, nullptr, dw, nullptr, given))
    return false;
  if (shared)
    ++cache().sharedBackwardInputs;
  return true;
}

bool oneDnnConvolutionBackwardFilled(const ConvShape &s, int threads, const BlockedGradient &dy,
                                     const float *x, const float *w, float *dx, float *dw,
                                     bool bf16) {
  const OneDnnLibrary *lib = convLibraryFor(threads);
  if (!lib)
    return false;
  const OneDnnConvApi &api = lib->conv;
  ConvPrimitive &weights = entryFor(api, ConvKind::BackwardWeights, s, bf16, false, threads);
  ConvPrimitive *data =
      dx ? &entryFor(api, ConvKind::BackwardData, s, bf16, false, threads) : nullptr;
  if (weights.refused || (data && data->refused))
    return false;
  const Operand &dyWeights = weights.operands[1];
  dnnl_data_type_t type = bf16 ? dnnl_bf16 : dnnl_f32;
  void *blocked = blocked16Buffer(api, s, dyWeights, type);
  if (!blocked || (data && !blocked16Buffer(api, s, data->operands[0], type)))
    return false;
  std::unique_lock<std::mutex> holdData;
  if (data)
    holdData = std::unique_lock<std::mutex>(data->running);
  std::lock_guard<std::mutex> holdWeights(weights.running);
  dy(blocked); // writes the inner buffers: what they held before is gone
  weights.operands[1].held = RoundedFrom();
  if (data)
    data->operands[0].held = RoundedFrom();
  const dnnl_memory_t givenData[2] = {dyWeights.inner, nullptr};
  const dnnl_memory_t givenWeights[2] = {nullptr, dyWeights.inner};
  return (!data || run(api, *data, nullptr, w, nullptr, dx, nullptr, givenData)) &&
         run(api, weights, x, nullptr, nullptr, dw, nullptr, givenWeights);
}

int64_t oneDnnSharedBackwardInputs() {
  return cache().sharedBackwardInputs.load();
}

std::string oneDnnConvolutionImpls() {
  ConvCache &c = cache();
  std::lock_guard<std::mutex> hold(c.lock);
  std::string list;
  for (const std::string &impl : c.impls)
    list += (list.empty() ? "" : ", ") + impl;
  return list;
}

int64_t oneDnnRefusedShapes() {
  ConvCache &c = cache();
  std::lock_guard<std::mutex> hold(c.lock);
  return int64_t(c.refused.size());
}

void setOneDnnConvRefusalForTesting(bool (*refuse)(const ConvShape &)) { refusal = refuse; }

} // namespace modelrt
