//===- GemmBf16OneDnn.cpp - bf16 products by oneDNN's matmul primitive ----===//
//
// Implements oneDnnGemmBf16 (Bf16.h) on the library OneDnn.h opens: a
// matmul primitive with bf16 source and weights and an f32 destination
// (alpha as its output scale, beta as a sum post-op), whose kernels oneDNN
// picks by features (AMX tiles, or vdpbf16ps when capped at
// avx512_core_bf16). The operands are rounded into dense bf16 buffers owned
// by the cache entry, in their stored layout (a transposed operand is
// described by its strides); an operand inside frozen parameters
// (FrozenParameters.h) is rounded once per scope, into a copy the scope
// keeps (whichever product of its shape reads it).
// One entry per transposition, sizes, ldc, alpha, beta and thread count
// holds the primitive, its memories, scratchpad and stream; a mutex guards
// the cache, another each entry. A product oneDNN refuses to make is
// remembered as refused (the caller then runs the emulation); one it fails
// to run aborts with a message.
//
//===----------------------------------------------------------------------===//
#include "BlasBackends.h"
#include "OneDnn.h"
#include "modelrt/core/Bf16.h"
#include "modelrt/core/FrozenParameters.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace modelrt {
namespace {

/// One cached product.
struct MatmulPrimitive {
  std::mutex running; ///< one call at a time: the handles and buffers are shared
  bool refused = false;
  dnnl_primitive_t matmul = nullptr;
  dnnl_memory_t src = nullptr, weights = nullptr, dst = nullptr, scratchpad = nullptr;
  dnnl_stream_t stream = nullptr;
  std::vector<uint16_t> a, b; ///< the rounded operands (but frozen ones)
};

/// tA, tB, M, N, K, ldc, alpha's and beta's bits, threads.
using CacheKey = std::array<int64_t, 9>;

struct MatmulCache {
  std::mutex lock;
  dnnl_engine_t engine = nullptr;
  bool engineFailed = false;
  std::map<CacheKey, std::unique_ptr<MatmulPrimitive>> entries;
  std::vector<std::string> impls; ///< distinct, in the order first made
};

MatmulCache &cache() {
  static MatmulCache *c = new MatmulCache(); // outlives static destructors
  return *c;
}

/// The three descriptors: A (M x K) and B (K x N) in bf16, dense in their
/// stored layout, and C (M x N, leading dimension ldc) in f32.
bool initDescs(const OneDnnMatmulApi &m, bool tA, bool tB, int64_t M, int64_t N, int64_t K,
               int64_t ldc, dnnl_memory_desc_t d[3]) {
  dnnl_dims_t aDims = {M, K}, bDims = {K, N}, cDims = {M, N};
  dnnl_dims_t aStrides = {tA ? 1 : K, tA ? M : 1}, bStrides = {tB ? 1 : N, tB ? K : 1};
  dnnl_dims_t cStrides = {ldc, 1};
  return m.memoryDescInitByStrides(&d[0], 2, aDims, dnnl_bf16, aStrides) == dnnl_success &&
         m.memoryDescInitByStrides(&d[1], 2, bDims, dnnl_bf16, bStrides) == dnnl_success &&
         m.memoryDescInitByStrides(&d[2], 2, cDims, dnnl_f32, cStrides) == dnnl_success;
}

/// The attributes: a user scratchpad, alpha as the output scale, beta as a
/// sum post-op. Null when oneDNN refuses any.
dnnl_primitive_attr_t makeAttr(const OneDnnLibrary &lib, float alpha, float beta) {
  dnnl_primitive_attr_t attr = nullptr;
  if (lib.conv.attrCreate(&attr) != dnnl_success)
    return nullptr;
  bool ok = lib.conv.attrSetScratchpadMode(attr, dnnl_scratchpad_mode_user) == dnnl_success;
  if (ok && alpha != 1.0f)
    ok = lib.matmul.attrSetOutputScales(attr, 1, 0, &alpha) == dnnl_success;
  if (ok && beta != 0.0f) {
    dnnl_post_ops_t po = nullptr;
    ok = lib.matmul.postOpsCreate(&po) == dnnl_success;
    ok = ok && lib.matmul.postOpsAppendSum(po, beta) == dnnl_success &&
         lib.matmul.attrSetPostOps(attr, po) == dnnl_success;
    if (po)
      lib.matmul.postOpsDestroy(po);
  }
  if (!ok) {
    lib.conv.attrDestroy(attr);
    return nullptr;
  }
  return attr;
}

/// Makes the primitive and its memories; \p impl gets oneDNN's name for
/// the implementation. False when oneDNN refuses any of it.
bool makeEntry(const OneDnnLibrary &lib, dnnl_engine_t engine, const CacheKey &k,
               MatmulPrimitive &e, std::string &impl) {
  const OneDnnConvApi &api = lib.conv;
  float alpha, beta;
  uint32_t bits[2] = {uint32_t(k[6]), uint32_t(k[7])};
  std::memcpy(&alpha, &bits[0], 4);
  std::memcpy(&beta, &bits[1], 4);
  dnnl_memory_desc_t d[3];
  dnnl_matmul_desc_t md;
  if (!initDescs(lib.matmul, k[0], k[1], k[2], k[3], k[4], k[5], d) ||
      lib.matmul.matmulDescInit(&md, &d[0], &d[1], nullptr, &d[2]) != dnnl_success)
    return false;
  dnnl_primitive_attr_t attr = makeAttr(lib, alpha, beta);
  dnnl_primitive_desc_t pd = nullptr;
  bool ok = attr && api.primitiveDescCreate(&pd, &md, attr, engine, nullptr) == dnnl_success;
  if (attr)
    api.attrDestroy(attr);
  if (!ok)
    return false;
  const char *name = nullptr;
  impl = api.primitiveDescQuery(pd, dnnl_query_impl_info_str, 0, &name) == dnnl_success && name
             ? name
             : "unknown";
  const dnnl_memory_desc_t *scratch = api.primitiveDescQueryMd(pd, dnnl_query_scratchpad_md, 0);
  ok = scratch && (api.memoryDescGetSize(scratch) == 0 ||
                   api.memoryCreate(&e.scratchpad, scratch, engine, DNNL_MEMORY_ALLOCATE) ==
                       dnnl_success);
  ok = ok && api.primitiveCreate(&e.matmul, pd) == dnnl_success;
  ok = ok && api.streamCreate(&e.stream, engine, dnnl_stream_default_flags) == dnnl_success;
  ok = ok && api.memoryCreate(&e.src, &d[0], engine, DNNL_MEMORY_NONE) == dnnl_success &&
       api.memoryCreate(&e.weights, &d[1], engine, DNNL_MEMORY_NONE) == dnnl_success &&
       api.memoryCreate(&e.dst, &d[2], engine, DNNL_MEMORY_NONE) == dnnl_success;
  api.primitiveDescDestroy(pd);
  return ok;
}

/// The entry for \p k, made on first use (refused when oneDNN refuses).
MatmulPrimitive &entryFor(const OneDnnLibrary &lib, const CacheKey &k) {
  MatmulCache &c = cache();
  std::lock_guard<std::mutex> hold(c.lock);
  std::unique_ptr<MatmulPrimitive> &slot = c.entries[k];
  if (slot)
    return *slot;
  slot = std::make_unique<MatmulPrimitive>();
  if (!c.engine && !c.engineFailed &&
      lib.conv.engineCreate(&c.engine, dnnl_cpu, 0) != dnnl_success) {
    c.engine = nullptr;
    c.engineFailed = true;
  }
  std::string impl;
  if (!c.engine || !makeEntry(lib, c.engine, k, *slot, impl))
    slot->refused = true; // what was made stays unused: a refusal is rare
  else if (std::find(c.impls.begin(), c.impls.end(), impl) == c.impls.end())
    c.impls.push_back(impl);
  return *slot;
}

} // namespace

bool oneDnnGemmBf16(bool tA, bool tB, int64_t M, int64_t N, int64_t K, float alpha,
                    const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
                    float *C, int64_t ldc) {
  const OneDnnLibrary &lib = oneDnnLibrary();
  if (!lib.status.isOk() || !lib.matmulStatus.isOk())
    return false;
  int threads = oneDnnThreadsFor(M, N, K);
  setOneDnnThreads(threads); // before making and before running
  if (threads <= 0)
    threads = lib.ompGetMaxThreads ? lib.ompGetMaxThreads() : 0;
  uint32_t alphaBits, betaBits;
  std::memcpy(&alphaBits, &alpha, 4);
  std::memcpy(&betaBits, &beta, 4);
  CacheKey key = {tA, tB, M, N, K, ldc, int64_t(alphaBits), int64_t(betaBits), threads};
  MatmulPrimitive &e = entryFor(lib, key);
  if (e.refused)
    return false;
  std::lock_guard<std::mutex> hold(e.running);
  const uint16_t *a = roundedToBf16(A, lda, tA ? K : M, tA ? M : K, e.a);
  const uint16_t *b = roundedToBf16(B, ldb, tB ? N : K, tB ? K : N, e.b);
  const OneDnnConvApi &api = lib.conv;
  bool ok = api.memorySetDataHandle(e.src, const_cast<uint16_t *>(a)) == dnnl_success &&
            api.memorySetDataHandle(e.weights, const_cast<uint16_t *>(b)) == dnnl_success &&
            api.memorySetDataHandle(e.dst, C) == dnnl_success;
  dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, e.src},
                             {DNNL_ARG_WEIGHTS, e.weights},
                             {DNNL_ARG_DST, e.dst},
                             {DNNL_ARG_SCRATCHPAD, e.scratchpad}};
  ok = ok && api.primitiveExecute(e.matmul, e.stream, e.scratchpad ? 4 : 3, args) ==
                 dnnl_success;
  if (api.streamWait(e.stream) != dnnl_success || !ok) { // C may be half written
    std::fprintf(stderr, "modelrt: oneDNN failed to run a bf16 %lldx%lldx%lld product\n",
                 (long long)M, (long long)N, (long long)K);
    std::abort();
  }
  return true;
}

std::string oneDnnGemmBf16Impls() {
  MatmulCache &c = cache();
  std::lock_guard<std::mutex> hold(c.lock);
  std::string list;
  for (const std::string &impl : c.impls)
    list += (list.empty() ? "" : ", ") + impl;
  return list;
}

} // namespace modelrt
