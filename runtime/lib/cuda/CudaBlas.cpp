//===- CudaBlas.cpp - cuBLAS, loaded at run time, and the GPU products ----===//
//
// Implements cublasVersion() of CudaDriver.h (dlopen of libcublas.so.13, or
// MODELRT_CUBLAS) and the products of modelrt/cuda/GpuAbi.h:
// modelrt_cuda_sgemm (f32), modelrt_cuda_gemm_bf16 and modelrt_cuda_gemm_tf32
// (f32 matrices in and out, the tensor cores rounding the operands to bf16 or
// TF32 and accumulating in f32: cublasGemmEx with the compute type
// CUBLAS_COMPUTE_32F_FAST_16BF or _FAST_TF32). All three take cblas_sgemm's
// arguments through mapSgemm() and run on the compute stream, with the handle
// created on first use and errors recorded as sticky. A product with few
// outputs and a long inner dimension is split (planSplitK): its slices by
// one strided batched call (and one call for the last, shorter slice) into
// the runtime's split-K workspace (allocated with the handle), then added by
// modelrt_splitk_sum (BlasKernels.cu), all on the compute stream.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "GemmMapping.h"
#include "modelrt/cuda/BlasKernels.h"

#include <cublas_v2.h>
#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <mutex>

namespace modelrt {
namespace cuda {
namespace {

#define MODELRT_STR2(x) #x
#define MODELRT_STR(x) MODELRT_STR2(x)
#define MODELRT_CUBLAS_FUNCTIONS(X)                                            \
  X(cublasCreate) X(cublasDestroy) X(cublasSetStream) X(cublasSgemm)           \
  X(cublasGetProperty) X(cublasSetWorkspace) X(cublasSgemmStridedBatched)

/// cublasGemmEx and cublasGemmStridedBatchedEx as cublas_api.h (cuBLAS 13)
/// declares them extern "C" (C++ also sees inline overloads taking a
/// cudaDataType compute type, so decltype cannot name them).
using GemmExFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                    int, int, const void *, const void *, cudaDataType, int,
                                    const void *, cudaDataType, int, const void *, void *,
                                    cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
using GemmStridedBatchedExFn = cublasStatus_t (*)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
    const void *, cudaDataType, int, long long, const void *, cudaDataType, int, long long,
    const void *, void *, cudaDataType, int, long long, int, cublasComputeType_t,
    cublasGemmAlgo_t);
#define MODELRT_CUBLAS_EX_FUNCTIONS(X)                                         \
  X(cublasGemmEx, GemmExFn) X(cublasGemmStridedBatchedEx, GemmStridedBatchedExFn)

// The compute types' values in cuBLAS 13's ABI (cublas_api.h, 13.1, in
// /usr/local/cuda/include): the runtime passes them to whatever cuBLAS 13 it
// opens.
static_assert(CUBLAS_COMPUTE_32F_FAST_16BF == 75 && CUBLAS_COMPUTE_32F_FAST_TF32 == 77 &&
                  CUDA_R_32F == 0 && CUBLAS_GEMM_DEFAULT == -1,
              "cuBLAS 13's ABI values");

/// cuBLAS's workspace: what NVIDIA recommends for Hopper. Owned by the handle,
/// so that an sgemm captured into a CUDA graph allocates nothing.
constexpr size_t kBlasWorkspaceBytes = size_t(32) << 20;

#define MODELRT_CUBLAS_POINTER(name) decltype(&::name) name = nullptr;
#define MODELRT_CUBLAS_EX_POINTER(name, type) type name = nullptr;
struct BlasApi {
  MODELRT_CUBLAS_FUNCTIONS(MODELRT_CUBLAS_POINTER)
  MODELRT_CUBLAS_EX_FUNCTIONS(MODELRT_CUBLAS_EX_POINTER)
};
#undef MODELRT_CUBLAS_POINTER
#undef MODELRT_CUBLAS_EX_POINTER

/// What the three product entry points differ in.
struct GemmPrecision {
  const char *entry;  ///< the C entry point (errors name it)
  const char *label;  ///< in profiles: "cuBLAS <label> MxNxK"
  bool tensorCoreEx;  ///< cublasGemmEx with `compute`; else cublasSgemm
  cublasComputeType_t compute;
};
constexpr GemmPrecision kGemmF32 = {"modelrt_cuda_sgemm", "sgemm", false, CUBLAS_COMPUTE_32F};
constexpr GemmPrecision kGemmBf16 = {"modelrt_cuda_gemm_bf16", "gemm bf16", true,
                                     CUBLAS_COMPUTE_32F_FAST_16BF};
constexpr GemmPrecision kGemmTf32 = {"modelrt_cuda_gemm_tf32", "gemm tf32", true,
                                     CUBLAS_COMPUTE_32F_FAST_TF32};

struct BlasSlot {
  std::mutex mutex;
  bool tried = false;
  bool ok = false;
  std::string why;
  BlasApi api;
  cublasHandle_t handle = nullptr;
  float *splitWorkspace = nullptr; ///< null: products are not split
  int64_t splitSlices = 0;         ///< the most slices of a split product
  CUfunction splitSum = nullptr;   ///< modelrt_splitk_sum
};

BlasSlot &blasSlot() {
  static BlasSlot *slot = new BlasSlot(); // never destroyed
  return *slot;
}

void *openCublas(std::string &name) {
  const char *env = std::getenv("MODELRT_CUBLAS");
  name = env && *env ? std::string("MODELRT_CUBLAS=") + env : "libcublas.so.13";
  if (env && *env)
    return dlopen(env, RTLD_NOW | RTLD_LOCAL);
  void *lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    lib = dlopen("/usr/local/cuda/lib64/libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
  return lib;
}

/// Loads the table into \p slot (its mutex held).
void loadBlas(BlasSlot &slot) {
  slot.tried = true;
  std::string name;
  void *lib = openCublas(name);
  if (!lib) {
    slot.why = "cuBLAS not found: " + name + " cannot be loaded";
    return;
  }
  const char *missing = nullptr;
#define MODELRT_CUBLAS_LOAD(fn)                                                \
  slot.api.fn = reinterpret_cast<decltype(slot.api.fn)>(                       \
      dlsym(lib, MODELRT_STR(fn)));                                            \
  if (!slot.api.fn && !missing)                                                \
    missing = MODELRT_STR(fn);
#define MODELRT_CUBLAS_EX_LOAD(fn, type) MODELRT_CUBLAS_LOAD(fn)
  MODELRT_CUBLAS_FUNCTIONS(MODELRT_CUBLAS_LOAD)
  MODELRT_CUBLAS_EX_FUNCTIONS(MODELRT_CUBLAS_EX_LOAD)
#undef MODELRT_CUBLAS_EX_LOAD
#undef MODELRT_CUBLAS_LOAD
  if (missing)
    slot.why = "cuBLAS " + name + " lacks " + missing;
  slot.ok = !missing;
}

/// The loaded table (mutex held by the caller), or null.
BlasApi *blasApiLocked(BlasSlot &slot, std::string *why) {
  if (!slot.tried)
    loadBlas(slot);
  if (!slot.ok && why)
    *why = slot.why;
  return slot.ok ? &slot.api : nullptr;
}

/// The split-K kernels' module, loaded (lazily, by the mgpu shim) once.
void *blasKernelModule() {
  static void *module = embeddedModule(modelrt_blas_ptx);
  return module;
}

/// The most slices of a split product: MODELRT_SPLITK_SLICES (0: no
/// split-K; at most kSplitKMaxSlices), else kSplitKDefaultSlices.
int64_t splitKSlicesSetting() {
  const char *env = std::getenv("MODELRT_SPLITK_SLICES");
  if (!env || !*env)
    return kSplitKDefaultSlices;
  char *end = nullptr;
  long long v = std::strtoll(env, &end, 10);
  if (*end || v < 0)
    return kSplitKDefaultSlices;
  return std::min<int64_t>(v, kSplitKMaxSlices);
}

/// Sets up split-K (its workspace, the partial results of the most slices
/// of the most outputs, and its sum kernel) with the handle, so that no
/// product allocates or loads a module. Without the workspace's memory,
/// products are not split (slower, as correct); the sum kernel failing to
/// load (embedded PTX, checked by ptxas at build time) is a CUDA error like
/// any other: sticky, and reported by cuda::warmUp().
void prepareSplitK(BlasSlot &slot) {
  int64_t slices = splitKSlicesSetting();
  CUdeviceptr ws = 0;
  if (slices < kSplitKMinSlices ||
      driverApi()->cuMemAlloc(&ws, size_t(slices * kSplitKMaxOutputs) * sizeof(float)) !=
          CUDA_SUCCESS)
    return;
  slot.splitSum = static_cast<CUfunction>(mgpuModuleGetFunction(blasKernelModule(),
                                                                kSplitKSumKernel));
  if (!slot.splitSum) {
    driverApi()->cuMemFree(ws);
    return;
  }
  slot.splitWorkspace = reinterpret_cast<float *>(ws);
  slot.splitSlices = slices;
}

/// The handle bound to the compute stream, or null after a sticky error.
cublasHandle_t blasHandle(BlasSlot &slot, CudaState &s, const char *caller) {
  std::string why;
  BlasApi *api = blasApiLocked(slot, &why);
  if (!api) {
    setStickyError(-1, std::string(caller) + ": " + why);
    return nullptr;
  }
  if (slot.handle)
    return slot.handle;
  cublasStatus_t st = api->cublasCreate(&slot.handle);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = api->cublasSetStream(slot.handle, s.compute); // resets the workspace
  // Without the memory for it, cuBLAS keeps its own pool (stream-ordered
  // allocations, which graphs capture too).
  CUdeviceptr workspace = 0;
  if (st == CUBLAS_STATUS_SUCCESS &&
      driverApi()->cuMemAlloc(&workspace, kBlasWorkspaceBytes) == CUDA_SUCCESS)
    st = api->cublasSetWorkspace(slot.handle, reinterpret_cast<void *>(workspace),
                                 kBlasWorkspaceBytes);
  if (st != CUBLAS_STATUS_SUCCESS) {
    setStickyError(-1, "cuBLAS handle creation failed with status " +
                           std::to_string(static_cast<int>(st)));
    slot.handle = nullptr;
    return nullptr;
  }
  prepareSplitK(slot);
  return slot.handle;
}

bool fitsInt(const ColumnMajorGemm &g) {
  const int64_t values[] = {g.m, g.n, g.k, g.lda, g.ldb, g.ldc};
  for (int64_t v : values)
    if (v > INT_MAX)
      return false;
  return true;
}

/// One column-major product of \p g's operands, op(A) (m x k) at \p A and
/// op(B) (k x n) at \p B, into \p C (leading dimension \p ldc), in \p p's
/// precision; with \p batch > 1, that many with the operands advanced by
/// \p strideA and \p strideB and C by ldc * n each.
struct GemmCall {
  const BlasSlot &slot;
  const GemmPrecision &p;
  const ColumnMajorGemm &g;

  cublasStatus_t run(int k, const float *A, const float *B, float alpha, float beta, float *C,
                     int ldc, long long strideA = 0, long long strideB = 0,
                     int batch = 1) const {
    cublasOperation_t opA = g.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t opB = g.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
    int m = int(g.m), n = int(g.n), lda = int(g.lda), ldb = int(g.ldb);
    long long strideC = (long long)ldc * n;
    const BlasApi &api = slot.api;
    if (!p.tensorCoreEx && batch == 1)
      return api.cublasSgemm(slot.handle, opA, opB, m, n, k, &alpha, A, lda, B, ldb, &beta, C,
                             ldc);
    if (!p.tensorCoreEx)
      return api.cublasSgemmStridedBatched(slot.handle, opA, opB, m, n, k, &alpha, A, lda,
                                           strideA, B, ldb, strideB, &beta, C, ldc, strideC,
                                           batch);
    if (batch == 1)
      return api.cublasGemmEx(slot.handle, opA, opB, m, n, k, &alpha, A, CUDA_R_32F, lda, B,
                              CUDA_R_32F, ldb, &beta, C, CUDA_R_32F, ldc, p.compute,
                              CUBLAS_GEMM_DEFAULT);
    return api.cublasGemmStridedBatchedEx(slot.handle, opA, opB, m, n, k, &alpha, A,
                                          CUDA_R_32F, lda, strideA, B, CUDA_R_32F, ldb,
                                          strideB, &beta, C, CUDA_R_32F, ldc, strideC, batch,
                                          p.compute, CUBLAS_GEMM_DEFAULT);
  }
};

/// \p call's product split as \p split: the slices' products into the
/// workspace, then their sum (times alpha already) plus beta C into C.
cublasStatus_t splitGemm(BlasSlot &slot, CudaState &s, const GemmCall &call, SplitK split,
                         float alpha, float beta) {
  const ColumnMajorGemm &g = call.g;
  int m = int(g.m), n = int(g.n), full = int(split.slices - 1);
  int64_t lastK0 = int64_t(full) * split.sliceK;
  float *last = slot.splitWorkspace + int64_t(full) * m * n;
  cublasStatus_t st = call.run(int(split.sliceK), g.A, g.B, alpha, 0.0f, slot.splitWorkspace, m,
                               sliceStrideA(g, split.sliceK), sliceStrideB(g, split.sliceK),
                               full);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = call.run(int(g.k - lastK0), sliceA(g, lastK0), sliceB(g, lastK0), alpha, 0.0f, last, m);
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  const float *partials = slot.splitWorkspace;
  int32_t slices = int32_t(split.slices), ldc = int32_t(g.ldc);
  float *C = g.C;
  void *params[] = {&partials, &slices, &m, &n, &beta, &C, &ldc};
  int64_t blocks = (int64_t(m) * n + kSplitKSumOutputs - 1) / kSplitKSumOutputs;
  checkCu(driverApi()->cuLaunchKernel(slot.splitSum, unsigned(blocks), 1, 1, kSplitKSumOutputs,
                                      kSplitKSumGroups, 1, 0, s.compute, params, nullptr),
          "cuLaunchKernel (modelrt_splitk_sum)");
  return CUBLAS_STATUS_SUCCESS;
}

/// cblas_sgemm's semantics on the GPU in \p p's precision (the three entry
/// points of GpuAbi.h).
void gpuGemm(const GemmPrecision &p, int32_t order, int32_t transA, int32_t transB, int32_t M,
             int32_t N, int32_t K, float alpha, const float *A, int32_t lda, const float *B,
             int32_t ldb, float beta, float *C, int32_t ldc) {
  if (hasStickyError())
    return;
  Expected<ColumnMajorGemm> g =
      mapSgemm(order, transA, transB, M, N, K, A, lda, B, ldb, C, ldc, p.entry);
  if (!g) {
    setStickyError(-1, g.message());
    return;
  }
  if (!fitsInt(*g)) {
    setStickyError(-1, std::string(p.entry) + ": a size or leading dimension exceeds 2^31-1");
    return;
  }
  if (g->m == 0 || g->n == 0)
    return;
  CudaState *s = requireCuda(p.entry);
  if (!s)
    return;
  BlasSlot &slot = blasSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (!blasHandle(slot, *s, p.entry))
    return;
  bool timed = profileStart(s->compute);
  SplitK split = slot.splitWorkspace ? planSplitK(g->m, g->n, g->k, slot.splitSlices)
                                     : SplitK{1, g->k};
  GemmCall call{slot, p, *g};
  cublasStatus_t st = split.slices > 1
                          ? splitGemm(slot, *s, call, split, alpha, beta)
                          : call.run(int(g->k), g->A, g->B, alpha, beta, g->C, int(g->ldc));
  if (timed)
    profileEnd(s->compute, gemmLabel(p.label, g->m, g->n, g->k),
               2.0 * double(g->m) * double(g->n) * double(g->k));
  if (st != CUBLAS_STATUS_SUCCESS)
    setStickyError(-1, std::string(p.tensorCoreEx ? "cublasGemmEx" : "cublasSgemm") +
                           " failed with status " + std::to_string(static_cast<int>(st)));
}

} // namespace

bool createBlasHandle() {
  CudaState *s = requireCuda("cuBLAS");
  if (!s)
    return false;
  BlasSlot &slot = blasSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  return blasHandle(slot, *s, "cuBLAS") != nullptr && !hasStickyError(); // split-K's set-up too
}

Expected<std::pair<int, int>> cublasVersion() {
  BlasSlot &slot = blasSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  std::string why;
  BlasApi *api = blasApiLocked(slot, &why);
  if (!api)
    return Status::error(why);
  int major = 0, minor = 0;
  api->cublasGetProperty(MAJOR_VERSION, &major);
  api->cublasGetProperty(MINOR_VERSION, &minor);
  return std::make_pair(major, minor);
}

void resetBlasForTesting() {
  BlasSlot &slot = blasSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  slot.tried = slot.ok = false;
  slot.why.clear();
  slot.api = BlasApi();
  slot.handle = nullptr;
  slot.splitWorkspace = nullptr; // the fake's memory goes with its reset
  slot.splitSlices = 0;
  slot.splitSum = nullptr;
}

} // namespace cuda
} // namespace modelrt

using namespace modelrt;
using namespace modelrt::cuda;

extern "C" void modelrt_cuda_sgemm(int32_t order, int32_t transA, int32_t transB, int32_t M,
                                   int32_t N, int32_t K, float alpha, const float *A,
                                   int32_t lda, const float *B, int32_t ldb, float beta,
                                   float *C, int32_t ldc) {
  gpuGemm(kGemmF32, order, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

extern "C" void modelrt_cuda_gemm_bf16(int32_t order, int32_t transA, int32_t transB,
                                       int32_t M, int32_t N, int32_t K, float alpha,
                                       const float *A, int32_t lda, const float *B, int32_t ldb,
                                       float beta, float *C, int32_t ldc) {
  gpuGemm(kGemmBf16, order, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

extern "C" void modelrt_cuda_gemm_tf32(int32_t order, int32_t transA, int32_t transB,
                                       int32_t M, int32_t N, int32_t K, float alpha,
                                       const float *A, int32_t lda, const float *B, int32_t ldb,
                                       float beta, float *C, int32_t ldc) {
  gpuGemm(kGemmTf32, order, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
