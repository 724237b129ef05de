//===- Nccl.cpp - NCCL loaded at run time, the gradients' sums on the GPUs -===//
//
// Implements Nccl.h: dlopen/dlsym of the NCCL functions (as CudaDriver.cpp
// loads the driver), the agreement of the ranks on using it, the
// communicator's creation from a unique id that rank 0 broadcasts, and the
// weighted in-place sums with a bounded wait: the compute stream is polled
// (cuStreamQuery) together with ncclCommGetAsyncError until the run's
// distributed timeout.
//
//===----------------------------------------------------------------------===//
#include "Nccl.h"

#include "CudaDriver.h"

#include <dlfcn.h>
#include <sched.h>
#include <time.h>

#include <chrono>
#include <cstdlib>

namespace modelrt {
namespace cuda {
namespace {

/// Resolves \p name into \p out; records the first missing name.
template <typename T> void resolve(void *lib, const char *name, T &out, const char *&missing) {
  out = reinterpret_cast<T>(dlsym(lib, name));
  if (!out && !missing)
    missing = name;
}

} // namespace

std::string ncclLibraryName() {
  const char *env = std::getenv("MODELRT_NCCL");
  if (!env || !*env)
    return "libnccl.so.2";
  return std::string(env) == "none" ? "" : env;
}

std::string ncclVersionString(int code) {
  // NCCL_VERSION(X, Y, Z): X * 10000 + Y * 100 + Z since 2.9, X * 1000 +
  // Y * 100 + Z before.
  bool wide = code >= 10000;
  int major = wide ? code / 10000 : code / 1000;
  int minor = wide ? code / 100 % 100 : code / 100 % 10;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

Expected<NcclApi> loadNccl(const std::string &library) {
  void *lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *detail = dlerror();
    return errorf("cannot load %s (%s)", library.c_str(), detail ? detail : "dlopen failed");
  }
  NcclApi api{};
  const char *missing = nullptr;
  resolve(lib, "ncclGetVersion", api.getVersion, missing);
  resolve(lib, "ncclGetUniqueId", api.getUniqueId, missing);
  resolve(lib, "ncclCommInitRank", api.commInitRank, missing);
  resolve(lib, "ncclCommDestroy", api.commDestroy, missing);
  resolve(lib, "ncclCommAbort", api.commAbort, missing);
  resolve(lib, "ncclCommGetAsyncError", api.commGetAsyncError, missing);
  resolve(lib, "ncclGetErrorString", api.getErrorString, missing);
  resolve(lib, "ncclAllReduce", api.allReduce, missing);
  resolve(lib, "ncclRedOpCreatePreMulSum", api.redOpCreatePreMulSum, missing);
  resolve(lib, "ncclRedOpDestroy", api.redOpDestroy, missing);
  resolve(lib, "ncclGroupStart", api.groupStart, missing);
  resolve(lib, "ncclGroupEnd", api.groupEnd, missing);
  if (missing) {
    dlclose(lib);
    return errorf("%s is not NCCL 2.11 or later (it has no %s)", library.c_str(), missing);
  }
  if (api.getVersion(&api.version) != nccl::kSuccess)
    return errorf("%s: ncclGetVersion failed", library.c_str());
  return api; // the library stays open for the life of the process
}

Expected<std::unique_ptr<NcclSums>> NcclSums::join(Collective &ranks, std::string &why) {
  std::string library = ncclLibraryName();
  Expected<NcclApi> api = library.empty() ? Expected<NcclApi>(errorf("MODELRT_NCCL=none"))
                                          : loadNccl(library);
  // Every rank must take the same path: NCCL only where each one has it.
  std::vector<double> failed(size_t(ranks.size()), 0.0);
  failed[size_t(ranks.rank())] = api ? 0.0 : 1.0;
  MODELRT_TRY(ranks.sum(failed.data(), failed.size(), "the ranks' choice of NCCL"));
  for (int r = 0; r < ranks.size(); ++r) {
    if (failed[size_t(r)] == 0)
      continue;
    why = !api ? api.message()
               : "rank " + std::to_string(r) + " of " + std::to_string(ranks.size()) +
                     " cannot use NCCL";
    return std::unique_ptr<NcclSums>();
  }
  std::unique_ptr<NcclSums> sums(new NcclSums(*api, library, ranks.timeoutSeconds()));
  nccl::UniqueId id{};
  if (ranks.rank() == 0)
    MODELRT_TRY(sums->check(api->getUniqueId(&id), "ncclGetUniqueId"));
  MODELRT_TRY(ranks.broadcast(&id, sizeof id, 0));
  Status made = sums->check(api->commInitRank(&sums->comm, ranks.size(), id, ranks.rank()),
                            "ncclCommInitRank");
  if (!made.isOk())
    return errorf("%s (NCCL needs a GPU of its own for each rank: CUDA_VISIBLE_DEVICES; or "
                  "sum through the host with MODELRT_NCCL=none)", made.message().c_str());
  return sums;
}

NcclSums::~NcclSums() {
  if (comm && !aborted)
    api.commDestroy(comm);
}

void NcclSums::abortComm() {
  if (comm && !aborted)
    api.commAbort(comm);
  aborted = true;
}

std::string NcclSums::describe() const {
  return "NCCL " + ncclVersionString(api.version) + " (" + library + ")";
}

Status NcclSums::check(nccl::Result r, const char *call) {
  if (r == nccl::kSuccess || r == nccl::kInProgress)
    return Status::ok();
  abortComm();
  return errorf("%s failed: %s", call, api.getErrorString(r));
}

Status NcclSums::sum(const std::vector<float *> &buffers, const std::vector<int64_t> &sizes,
                     float weight, const char *what) {
  if (aborted)
    return errorf("%s: the NCCL communicator was aborted after an earlier error", what);
  nccl::RedOp op = 0;
  Status made = check(api.redOpCreatePreMulSum(&op, &weight, nccl::kFloat32,
                                               nccl::kScalarHostImmediate, comm),
                      "ncclRedOpCreatePreMulSum");
  if (!made.isOk())
    return errorf("%s on the GPUs: %s", what, made.message().c_str());
  void *stream = computeStream();
  Status st = check(api.groupStart(), "ncclGroupStart");
  for (size_t i = 0; i < buffers.size() && st.isOk(); ++i)
    if (sizes[i] > 0)
      st = check(api.allReduce(buffers[i], buffers[i], size_t(sizes[i]), nccl::kFloat32, op,
                               comm, stream),
                 "ncclAllReduce");
  Status ended = check(api.groupEnd(), "ncclGroupEnd");
  if (!aborted)
    api.redOpDestroy(op, comm); // allowed once the calls given it returned
  if (!st.isOk() || !ended.isOk())
    return errorf("%s on the GPUs: %s", what, (st.isOk() ? ended : st).message().c_str());
  return wait(what);
}

Status NcclSums::wait(const char *what) {
  const DriverApi *driver = driverApi();
  CudaState *state = cudaState();
  if (!driver || !state)
    return errorf("%s: CUDA is not initialised", what);
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  for (long polls = 0;; ++polls) {
    CUresult q = driver->cuStreamQuery(state->compute);
    if (q == CUDA_SUCCESS)
      return Status::ok();
    if (q != CUDA_ERROR_NOT_READY) {
      abortComm();
      return errorf("%s on the GPUs: CUDA error %s", what, resultName(q).c_str());
    }
    nccl::Result async = nccl::kSuccess;
    api.commGetAsyncError(comm, &async);
    if (async != nccl::kSuccess && async != nccl::kInProgress) {
      Status failed = check(async, "ncclAllReduce");
      return errorf("%s on the GPUs: %s", what, failed.message().c_str());
    }
    if (std::chrono::steady_clock::now() > end) {
      abortComm();
      return errorf("%s on the GPUs (NCCL) did not complete within %g s (MODELC_DIST_TIMEOUT); "
                    "a rank ended, stopped or hung", what, timeout);
    }
    if (polls > 1000) { // waiting long: give the CPU to others
      timespec t{0, 50000};
      nanosleep(&t, nullptr);
    } else if (polls > 100) {
      sched_yield();
    }
  }
}

} // namespace cuda
} // namespace modelrt
