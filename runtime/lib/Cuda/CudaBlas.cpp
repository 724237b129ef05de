//===- CudaBlas.cpp - cuBLAS, loaded at run time, and modelrt_cuda_sgemm ---===//
//
// Implements cublasVersion() of CudaDriver.h (dlopen of libcublas.so.13, or
// MODELRT_CUBLAS) and modelrt_cuda_sgemm of modelrt/Cuda.h: cblas_sgemm's
// semantics through mapSgemm() and cublasSgemm on the compute stream, with
// the handle created on first use and errors recorded as sticky.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "GemmMapping.h"

#include <cublas_v2.h>
#include <dlfcn.h>

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
  X(cublasGetProperty) X(cublasSetWorkspace)

/// cuBLAS's workspace: what NVIDIA recommends for Hopper. Owned by the handle,
/// so that an sgemm captured into a CUDA graph allocates nothing.
constexpr size_t kBlasWorkspaceBytes = size_t(32) << 20;

#define MODELRT_CUBLAS_POINTER(name) decltype(&::name) name = nullptr;
struct BlasApi {
  MODELRT_CUBLAS_FUNCTIONS(MODELRT_CUBLAS_POINTER)
};
#undef MODELRT_CUBLAS_POINTER

struct BlasSlot {
  std::mutex mutex;
  bool tried = false;
  bool ok = false;
  std::string why;
  BlasApi api;
  cublasHandle_t handle = nullptr;
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
  MODELRT_CUBLAS_FUNCTIONS(MODELRT_CUBLAS_LOAD)
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

/// The handle bound to the compute stream, or null after a sticky error.
cublasHandle_t blasHandle(BlasSlot &slot, CudaState &s) {
  std::string why;
  BlasApi *api = blasApiLocked(slot, &why);
  if (!api) {
    setStickyError(-1, "modelrt_cuda_sgemm: " + why);
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
  }
  return slot.handle;
}

bool fitsInt(const ColumnMajorGemm &g) {
  const int64_t values[] = {g.m, g.n, g.k, g.lda, g.ldb, g.ldc};
  for (int64_t v : values)
    if (v > INT_MAX)
      return false;
  return true;
}

} // namespace

bool createBlasHandle() {
  CudaState *s = requireCuda("cuBLAS");
  if (!s)
    return false;
  BlasSlot &slot = blasSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  return blasHandle(slot, *s) != nullptr;
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
}

} // namespace cuda
} // namespace modelrt

using namespace modelrt;
using namespace modelrt::cuda;

extern "C" void modelrt_cuda_sgemm(int32_t order, int32_t transA,
                                   int32_t transB, int32_t M, int32_t N,
                                   int32_t K, float alpha, const float *A,
                                   int32_t lda, const float *B, int32_t ldb,
                                   float beta, float *C, int32_t ldc) {
  if (hasStickyError())
    return;
  Expected<ColumnMajorGemm> g =
      mapSgemm(order, transA, transB, M, N, K, A, lda, B, ldb, C, ldc);
  if (!g) {
    setStickyError(-1, g.message());
    return;
  }
  if (!fitsInt(*g)) {
    setStickyError(-1, "modelrt_cuda_sgemm: a size or leading dimension "
                       "exceeds 2^31-1");
    return;
  }
  if (g->m == 0 || g->n == 0)
    return;
  CudaState *s = requireCuda("modelrt_cuda_sgemm");
  if (!s)
    return;
  BlasSlot &slot = blasSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  cublasHandle_t handle = blasHandle(slot, *s);
  if (!handle)
    return;
  bool timed = profileStart(s->compute);
  cublasStatus_t st = slot.api.cublasSgemm(
      handle, g->transA ? CUBLAS_OP_T : CUBLAS_OP_N,
      g->transB ? CUBLAS_OP_T : CUBLAS_OP_N, int(g->m), int(g->n), int(g->k),
      &alpha, g->A, int(g->lda), g->B, int(g->ldb), &beta, g->C, int(g->ldc));
  if (timed)
    profileEnd(s->compute, sgemmLabel(g->m, g->n, g->k), 2.0 * double(g->m) * double(g->n) * double(g->k));
  if (st != CUBLAS_STATUS_SUCCESS)
    setStickyError(-1, "cublasSgemm failed with status " +
                           std::to_string(static_cast<int>(st)));
}
