//===- BlasOneDnn.cpp - Matrix products by oneDNN's sgemm ------------------===//
//
// Implements the oneDNN half of Blas.h: opens libdnnl.so.2 (Debian's
// libdnnl2) with dlopen, caps the instruction set it may use at the level
// chosen from the CPU's features (CpuFeatures.h; oneDNN's own dispatch is by
// features too, never by CPU model), and runs row-major products through
// `dnnl_sgemm`, its JIT-compiled f32 GEMM. Threads are OpenMP's (oneDNN is
// built on libgomp): a product runs on every core when it has at least
// kMacsForAllCores multiply-adds, on one otherwise; a user's OMP_NUM_THREADS
// is left alone. The same thread count gives the same bits.
//
//===----------------------------------------------------------------------===//
#include "BlasBackends.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace modelrt {
namespace {

using DnnlSgemmFn = int (*)(char, char, int64_t, int64_t, int64_t, float, const float *,
                            int64_t, const float *, int64_t, float, float *, int64_t);
using SetMaxIsaFn = int (*)(int);
using EffectiveIsaFn = int (*)();
/// dnnl_version_t (dnnl_types.h).
struct DnnlVersion {
  int major, minor, patch;
  const char *hash;
  unsigned cpuRuntime, gpuRuntime;
};
using VersionFn = const DnnlVersion *(*)();

/// oneDNN's dnnl_cpu_isa_t values (dnnl_types.h, 2.x).
enum : int {
  IsaAll = 0x0,
  IsaSse41 = 0x1,
  IsaAvx = 0x3,
  IsaAvx2 = 0x7,
  IsaAvx512Core = 0x27,
  IsaAvx512CoreVnni = 0x67,
  IsaAvx512CoreBf16 = 0xe7,
  IsaAvx512CoreAmx = 0x3e7,
  IsaAvx2Vnni = 0x407,
};

/// The opened library and its thread settings.
struct OneDnn {
  DnnlSgemmFn sgemm = nullptr;
  void (*setThreads)(int) = nullptr; ///< omp_set_num_threads; null when the user chose
  int cores = 1;
  std::string kernels;
  Status status = Status::ok();
};

/// oneDNN's name for an instruction set (as ONEDNN_VERBOSE spells it).
const char *isaName(int isa) {
  switch (isa) {
  case IsaSse41:
    return "sse41";
  case IsaAvx:
    return "avx";
  case IsaAvx2:
    return "avx2";
  case IsaAvx2Vnni:
    return "avx2_vnni";
  case IsaAvx512Core:
    return "avx512_core";
  case IsaAvx512CoreVnni:
    return "avx512_core_vnni";
  case IsaAvx512CoreBf16:
    return "avx512_core_bf16";
  case IsaAvx512CoreAmx:
    return "avx512_core_amx";
  default:
    return "unknown";
  }
}

/// The widest oneDNN instruction set allowed at \p level.
int maxIsaFor(CpuLevel level) {
  switch (level) {
  case CpuLevel::Avx512:
    return IsaAll;
  case CpuLevel::Avx2:
    return IsaAvx2;
  case CpuLevel::Baseline:
    break;
  }
  return IsaSse41;
}

/// Opens oneDNN (MODELRT_ONEDNN or libdnnl.so.2) and configures it.
OneDnn open() {
  OneDnn d;
  const char *path = std::getenv("MODELRT_ONEDNN");
  if (!path || !*path)
    path = "libdnnl.so.2";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    d.status = errorf("cannot open oneDNN (%s): %s; install Debian's libdnnl2 (or set "
                      "MODELRT_ONEDNN to the library's path)", path, why ? why : "unknown error");
    return d;
  }
  d.sgemm = reinterpret_cast<DnnlSgemmFn>(dlsym(handle, "dnnl_sgemm"));
  auto setMaxIsa = reinterpret_cast<SetMaxIsaFn>(dlsym(handle, "dnnl_set_max_cpu_isa"));
  auto effective = reinterpret_cast<EffectiveIsaFn>(dlsym(handle, "dnnl_get_effective_cpu_isa"));
  auto version = reinterpret_cast<VersionFn>(dlsym(handle, "dnnl_version"));
  if (!d.sgemm || !setMaxIsa || !effective || !version) {
    d.sgemm = nullptr;
    d.status = errorf("%s has no dnnl_sgemm, dnnl_set_max_cpu_isa, dnnl_get_effective_cpu_isa "
                      "or dnnl_version: it is not oneDNN 2.x", path);
    return d;
  }
  // Before any product (oneDNN fixes its instruction set at the first one),
  // and only when MODELRT_CPU_ISA narrows what the CPU has: otherwise
  // oneDNN's own choice (and a user's ONEDNN_MAX_CPU_ISA) stands.
  CpuLevel level = hostKernels().level;
  if (level < supportedLevel(hostCpuFeatures()) && setMaxIsa(maxIsaFor(level)) != 0) {
    d.sgemm = nullptr;
    d.status = errorf("%s refused to limit its kernels to %s (MODELRT_CPU_ISA=%s)", path,
                      isaName(maxIsaFor(level)), cpuLevelName(level));
    return d;
  }
  const DnnlVersion *v = version();
  d.kernels = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
              std::to_string(v->patch) + " sgemm, " + isaName(effective()) + " kernels";
  auto setThreads = reinterpret_cast<void (*)(int)>(dlsym(handle, "omp_set_num_threads"));
  if (setThreads && !std::getenv("OMP_NUM_THREADS")) {
    d.setThreads = setThreads;
    d.cores = usableCores();
  }
  return d;
}

/// The library, opened on first use (thread-safe).
OneDnn &library() {
  static std::once_flag once;
  static OneDnn d;
  std::call_once(once, [] { d = open(); });
  return d;
}

} // namespace

Status loadOneDnn() { return library().status; }

std::string oneDnnKernels() { return library().kernels; }

int oneDnnThreadsFor(int64_t M, int64_t N, int64_t K) {
  const OneDnn &d = library();
  if (!d.setThreads)
    return 0;
  return double(M) * double(N) * double(K) >= kMacsForAllCores ? d.cores : 1;
}

void oneDnnSgemm(bool tA, bool tB, int64_t M, int64_t N, int64_t K, float alpha,
                 const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C,
                 int64_t ldc) {
  OneDnn &d = library();
  if (!d.sgemm) {
    std::fprintf(stderr, "modelrt: %s\n", d.status.message().c_str());
    std::abort();
  }
  thread_local int lastThreads = 0; // omp_set_num_threads is per calling thread
  if (int n = oneDnnThreadsFor(M, N, K); n && n != lastThreads) {
    d.setThreads(n);
    lastThreads = n;
  }
  int rc = d.sgemm(tA ? 'T' : 'N', tB ? 'T' : 'N', M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  if (rc != 0) { // only for arguments the compiler never emits
    std::fprintf(stderr, "modelrt: dnnl_sgemm failed (status %d) on a %lldx%lldx%lld product "
                 "(lda %lld, ldb %lld, ldc %lld)\n", rc, (long long)M, (long long)N,
                 (long long)K, (long long)lda, (long long)ldb, (long long)ldc);
    std::abort();
  }
}

} // namespace modelrt
