//===- Cudnn.cpp - cuDNN 9 loaded at run time, the GPU convolutions -------===//
//
// Implements Cudnn.h: dlopen/dlsym of the cuDNN 9 functions (as Nccl.cpp
// loads NCCL), one handle bound to the compute stream (created on first
// use), and per shape and arithmetic the
// tensor, filter and convolution descriptors with the algorithm of each
// direction cudnnGetConvolution*Algorithm_v7 ranks first among those that
// succeed within kCudnnWorkspaceLimit. A call's workspace is a block of the
// device pool for the span of the call (stream order makes the reuse safe).
// Errors are sticky and name the cuDNN function and cudnnGetErrorString.
// `cudnnAvailability` loads the library alone (no handle, no GPU), for
// `info`.
//
//===----------------------------------------------------------------------===//
#include "Cudnn.h"

#include "CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

namespace modelrt {
namespace cuda {
namespace {

/// The most workspace one convolution may use.
constexpr size_t kCudnnWorkspaceLimit = size_t(256) << 20;
/// How many algorithms cudnnGetConvolution*Algorithm_v7 ranks.
constexpr int kCudnnAlgoCount = 16;

/// Resolves \p name into \p out; records the first missing name.
template <typename T> void resolve(void *lib, const char *name, T &out, const char *&missing) {
  out = reinterpret_cast<T>(dlsym(lib, name));
  if (!out && !missing)
    missing = name;
}

/// The descriptors of one shape and arithmetic, and each direction's
/// algorithm (-1 until chosen) and workspace.
struct ConvPlan {
  cudnn::TensorDesc x = nullptr, y = nullptr;
  cudnn::FilterDesc w = nullptr;
  cudnn::ConvDesc conv = nullptr;
  int algo[3] = {-1, -1, -1};
  size_t workspace[3] = {0, 0, 0};
};

using PlanKey = std::tuple<int, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t>;

PlanKey planKey(ConvMath math, const GpuConvShape &s) {
  return {int(math), s.n, s.c, s.h, s.w, s.o, s.kh, s.kw, s.oh, s.ow, s.strideH, s.strideW,
          s.padH, s.padW, s.dilH, s.dilW};
}

struct CudnnSlot {
  std::mutex mutex;
  bool tried = false;
  std::string why;     ///< empty when loaded
  std::string library; ///< what was loaded
  CudnnApi api{};
  cudnn::Handle handle = nullptr;
  std::map<PlanKey, ConvPlan> plans;
};

CudnnSlot &cudnnSlot() {
  static CudnnSlot *slot = new CudnnSlot(); // never destroyed
  return *slot;
}

/// What to do when cuDNN is missing.
constexpr const char *kCudnnRemedy =
    "; set MODELRT_CUDNN to the path of cuDNN 9's libcudnn.so.9, or recompile with "
    "--gpu-conv=im2col";

/// Loads the table into \p slot (its mutex held); the default library is
/// also looked for in /usr/local/cuda/lib64.
void loadSlot(CudnnSlot &slot) {
  slot.tried = true;
  std::string library = cudnnLibraryName();
  if (library.empty()) {
    slot.why = "cuDNN is turned off (MODELRT_CUDNN=none)";
    return;
  }
  Expected<CudnnApi> api = loadCudnn(library);
  const char *local = "/usr/local/cuda/lib64/libcudnn.so.9";
  if (!api && !std::getenv("MODELRT_CUDNN"))
    if (Expected<CudnnApi> found = loadCudnn(local)) {
      api = std::move(found);
      library = local;
    }
  if (!api) {
    slot.why = api.message();
    return;
  }
  slot.api = *api;
  slot.library = library;
}

/// The loaded table (mutex held by the caller), or null with the sticky
/// error recorded.
const CudnnApi *cudnnApiLocked(CudnnSlot &slot, const char *caller) {
  if (!slot.tried)
    loadSlot(slot);
  if (slot.why.empty())
    return &slot.api;
  setStickyError(-1, std::string(caller) + ": cuDNN is not available: " + slot.why +
                         kCudnnRemedy);
  return nullptr;
}

/// Records "caller: FN failed: cudnnGetErrorString" unless \p st succeeded.
bool checkCudnn(const CudnnApi &api, cudnn::Status st, const char *caller, const char *fn) {
  if (st == cudnn::kSuccess)
    return true;
  const char *text = api.getErrorString ? api.getErrorString(st) : nullptr;
  setStickyError(-1, std::string(caller) + ": " + fn + " failed: " +
                         (text ? text : "status " + std::to_string(st)));
  return false;
}

/// The handle bound to the compute stream, or null (error recorded).
cudnn::Handle cudnnHandle(CudnnSlot &slot, const char *caller) {
  const CudnnApi *api = cudnnApiLocked(slot, caller);
  if (!api)
    return nullptr;
  if (slot.handle)
    return slot.handle;
  CudaState *s = requireCuda(caller);
  if (!s)
    return nullptr;
  cudnn::Handle h = nullptr;
  if (!checkCudnn(*api, api->create(&h), caller, "cudnnCreate"))
    return nullptr;
  if (!checkCudnn(*api, api->setStream(h, s->compute), caller, "cudnnSetStream")) {
    api->destroy(h);
    return nullptr;
  }
  slot.handle = h;
  return h;
}

/// The data type and math type of \p math on the tensors.
int dataType(ConvMath math) {
  return math == ConvMath::Bf16 ? cudnn::kDataBfloat16 : cudnn::kDataFloat;
}
int mathType(ConvMath math) {
  return math == ConvMath::F32 ? cudnn::kFmaMath : cudnn::kTensorOpMath;
}

/// Creates \p p's descriptors for \p s in \p math; false (error recorded)
/// when cuDNN refuses them.
bool makeDescriptors(const CudnnApi &api, ConvPlan &p, ConvMath math, const GpuConvShape &s,
                     const char *caller) {
  int type = dataType(math);
  return checkCudnn(api, api.createTensorDescriptor(&p.x), caller,
                    "cudnnCreateTensorDescriptor") &&
         checkCudnn(api, api.createTensorDescriptor(&p.y), caller,
                    "cudnnCreateTensorDescriptor") &&
         checkCudnn(api, api.createFilterDescriptor(&p.w), caller,
                    "cudnnCreateFilterDescriptor") &&
         checkCudnn(api, api.createConvolutionDescriptor(&p.conv), caller,
                    "cudnnCreateConvolutionDescriptor") &&
         checkCudnn(api,
                    api.setTensor4dDescriptor(p.x, cudnn::kTensorNchw, type, int(s.n), int(s.c),
                                              int(s.h), int(s.w)),
                    caller, "cudnnSetTensor4dDescriptor") &&
         checkCudnn(api,
                    api.setTensor4dDescriptor(p.y, cudnn::kTensorNchw, type, int(s.n), int(s.o),
                                              int(s.oh), int(s.ow)),
                    caller, "cudnnSetTensor4dDescriptor") &&
         checkCudnn(api,
                    api.setFilter4dDescriptor(p.w, type, cudnn::kTensorNchw, int(s.o), int(s.c),
                                              int(s.kh), int(s.kw)),
                    caller, "cudnnSetFilter4dDescriptor") &&
         checkCudnn(api,
                    api.setConvolution2dDescriptor(p.conv, int(s.padH), int(s.padW),
                                                   int(s.strideH), int(s.strideW), int(s.dilH),
                                                   int(s.dilW), cudnn::kCrossCorrelation,
                                                   cudnn::kDataFloat),
                    caller, "cudnnSetConvolution2dDescriptor") &&
         checkCudnn(api, api.setConvolutionMathType(p.conv, mathType(math)), caller,
                    "cudnnSetConvolutionMathType");
}

/// The cuDNN function that ranks \p dir's algorithms, and that runs it.
const char *rankName(ConvDirection dir) {
  switch (dir) {
  case ConvDirection::Forward:
    return "cudnnGetConvolutionForwardAlgorithm_v7";
  case ConvDirection::BackwardData:
    return "cudnnGetConvolutionBackwardDataAlgorithm_v7";
  case ConvDirection::BackwardWeights:
    return "cudnnGetConvolutionBackwardFilterAlgorithm_v7";
  }
  return "";
}
const char *runName(ConvDirection dir) {
  switch (dir) {
  case ConvDirection::Forward:
    return "cudnnConvolutionForward";
  case ConvDirection::BackwardData:
    return "cudnnConvolutionBackwardData";
  case ConvDirection::BackwardWeights:
    return "cudnnConvolutionBackwardFilter";
  }
  return "";
}

/// Chooses \p dir's algorithm of \p p (once); false (error recorded) when
/// cuDNN has none within the workspace limit.
bool chooseAlgorithm(const CudnnApi &api, cudnn::Handle h, ConvPlan &p, ConvDirection dir,
                     const char *caller) {
  int d = int(dir);
  if (p.algo[d] >= 0)
    return true;
  cudnn::AlgoPerf perf[kCudnnAlgoCount] = {};
  int count = 0;
  cudnn::Status st =
      dir == ConvDirection::Forward
          ? api.getForwardAlgorithm(h, p.x, p.w, p.conv, p.y, kCudnnAlgoCount, &count, perf)
      : dir == ConvDirection::BackwardData
          ? api.getBackwardDataAlgorithm(h, p.w, p.y, p.conv, p.x, kCudnnAlgoCount, &count, perf)
          : api.getBackwardFilterAlgorithm(h, p.x, p.y, p.conv, p.w, kCudnnAlgoCount, &count,
                                           perf);
  if (!checkCudnn(api, st, caller, rankName(dir)))
    return false;
  for (int i = 0; i < count && i < kCudnnAlgoCount; ++i)
    if (perf[i].status == cudnn::kSuccess && perf[i].memory <= kCudnnWorkspaceLimit) {
      p.algo[d] = perf[i].algo;
      p.workspace[d] = perf[i].memory;
      return true;
    }
  setStickyError(-1, std::string(caller) + ": " + rankName(dir) + " found no algorithm for " +
                         "this convolution within " +
                         std::to_string(kCudnnWorkspaceLimit >> 20) + " MiB of workspace");
  return false;
}

/// The plan of \p s in \p math with \p dir's algorithm, or null (error
/// recorded).
ConvPlan *plan(CudnnSlot &slot, cudnn::Handle h, ConvDirection dir, ConvMath math,
               const GpuConvShape &s, const char *caller) {
  PlanKey key = planKey(math, s);
  auto it = slot.plans.find(key);
  if (it == slot.plans.end()) {
    ConvPlan fresh;
    if (!makeDescriptors(slot.api, fresh, math, s, caller))
      return nullptr; // the descriptors made so far are kept by cuDNN until exit
    it = slot.plans.emplace(key, fresh).first;
  }
  return chooseAlgorithm(slot.api, h, it->second, dir, caller) ? &it->second : nullptr;
}

/// Runs the chosen algorithm with \p workspace.
cudnn::Status runPlan(const CudnnApi &api, cudnn::Handle h, const ConvPlan &p,
                      ConvDirection dir, const void *a, const void *b, void *out,
                      void *workspace) {
  const float one = 1.0f, zero = 0.0f;
  int d = int(dir);
  switch (dir) {
  case ConvDirection::Forward:
    return api.forward(h, &one, p.x, a, p.w, b, p.conv, p.algo[d], workspace, p.workspace[d],
                       &zero, p.y, out);
  case ConvDirection::BackwardData:
    return api.backwardData(h, &one, p.w, b, p.y, a, p.conv, p.algo[d], workspace,
                            p.workspace[d], &zero, p.x, out);
  case ConvDirection::BackwardWeights:
    return api.backwardFilter(h, &one, p.x, a, p.y, b, p.conv, p.algo[d], workspace,
                              p.workspace[d], &zero, p.w, out);
  }
  return cudnn::kBadParam;
}

} // namespace

std::string cudnnLibraryName() {
  const char *env = std::getenv("MODELRT_CUDNN");
  if (!env || !*env)
    return "libcudnn.so.9";
  return std::string(env) == "none" ? "" : env;
}

std::string cudnnVersionString(size_t code) {
  // CUDNN_VERSION: major * 10000 + minor * 100 + patch since cuDNN 9.
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
         std::to_string(code % 100);
}

Expected<CudnnApi> loadCudnn(const std::string &library) {
  void *lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *detail = dlerror();
    return errorf("cannot load %s (%s)", library.c_str(), detail ? detail : "dlopen failed");
  }
  CudnnApi api{};
  const char *missing = nullptr;
  resolve(lib, "cudnnGetVersion", api.getVersion, missing);
  resolve(lib, "cudnnGetErrorString", api.getErrorString, missing);
  resolve(lib, "cudnnCreate", api.create, missing);
  resolve(lib, "cudnnDestroy", api.destroy, missing);
  resolve(lib, "cudnnSetStream", api.setStream, missing);
  resolve(lib, "cudnnCreateTensorDescriptor", api.createTensorDescriptor, missing);
  resolve(lib, "cudnnSetTensor4dDescriptor", api.setTensor4dDescriptor, missing);
  resolve(lib, "cudnnDestroyTensorDescriptor", api.destroyTensorDescriptor, missing);
  resolve(lib, "cudnnCreateFilterDescriptor", api.createFilterDescriptor, missing);
  resolve(lib, "cudnnSetFilter4dDescriptor", api.setFilter4dDescriptor, missing);
  resolve(lib, "cudnnDestroyFilterDescriptor", api.destroyFilterDescriptor, missing);
  resolve(lib, "cudnnCreateConvolutionDescriptor", api.createConvolutionDescriptor, missing);
  resolve(lib, "cudnnSetConvolution2dDescriptor", api.setConvolution2dDescriptor, missing);
  resolve(lib, "cudnnSetConvolutionMathType", api.setConvolutionMathType, missing);
  resolve(lib, "cudnnDestroyConvolutionDescriptor", api.destroyConvolutionDescriptor, missing);
  resolve(lib, "cudnnGetConvolutionForwardAlgorithm_v7", api.getForwardAlgorithm, missing);
  resolve(lib, "cudnnGetConvolutionBackwardDataAlgorithm_v7", api.getBackwardDataAlgorithm,
          missing);
  resolve(lib, "cudnnGetConvolutionBackwardFilterAlgorithm_v7", api.getBackwardFilterAlgorithm,
          missing);
  resolve(lib, "cudnnConvolutionForward", api.forward, missing);
  resolve(lib, "cudnnConvolutionBackwardData", api.backwardData, missing);
  resolve(lib, "cudnnConvolutionBackwardFilter", api.backwardFilter, missing);
  if (missing) {
    dlclose(lib);
    return errorf("%s is not cuDNN 9 (it has no %s)", library.c_str(), missing);
  }
  api.version = api.getVersion();
  if (api.version / 10000 != 9)
    return errorf("%s is cuDNN %s, not cuDNN 9", library.c_str(),
                  cudnnVersionString(api.version).c_str());
  return api; // the library stays open for the life of the process
}

bool runCudnnConvolution(const char *caller, ConvDirection dir, ConvMath math,
                         const GpuConvShape &shape, const void *a, const void *b, void *out) {
  CudnnSlot &slot = cudnnSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  cudnn::Handle h = cudnnHandle(slot, caller);
  ConvPlan *p = h ? plan(slot, h, dir, math, shape, caller) : nullptr;
  if (!p)
    return false;
  CudaState *s = cudaState();
  size_t bytes = p->workspace[int(dir)];
  void *workspace = bytes ? mgpuMemAlloc(bytes, s->compute, false) : nullptr;
  if (bytes && !workspace)
    return false; // the allocation recorded why
  bool ok = checkCudnn(slot.api, runPlan(slot.api, h, *p, dir, a, b, out, workspace), caller,
                       runName(dir));
  if (workspace)
    mgpuMemFree(workspace, s->compute);
  return ok;
}

std::string cudnnInUse() {
  CudnnSlot &slot = cudnnSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (!slot.tried || !slot.why.empty())
    return "";
  return "cuDNN " + cudnnVersionString(slot.api.version) + " (" + slot.library + ")";
}

std::string cudnnAvailability() {
  CudnnSlot &slot = cudnnSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (!slot.tried)
    loadSlot(slot);
  if (!slot.why.empty())
    return "unavailable: " + slot.why + kCudnnRemedy;
  return "cuDNN " + cudnnVersionString(slot.api.version) + " (" + slot.library + ")";
}

void resetCudnnForTesting() {
  CudnnSlot &slot = cudnnSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  slot.tried = false;
  slot.why.clear();
  slot.library.clear();
  slot.api = CudnnApi();
  slot.handle = nullptr;
  slot.plans.clear();
}

} // namespace cuda
} // namespace modelrt
