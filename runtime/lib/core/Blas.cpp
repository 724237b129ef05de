//===- Blas.cpp - cblas_sgemm by oneDNN or OpenBLAS, chosen by features ---===//
//
// Implements Blas.h: the choice of library (MODELRT_BLAS, else oneDNN when
// it opens, else OpenBLAS), the cblas_sgemm that forwards to it, and the
// OpenBLAS backend (the oneDNN one is BlasOneDnn.cpp). OpenBLAS is opened
// with OPENBLAS_CORETYPE set, for the duration of the dlopen, to
// MODELRT_OPENBLAS_CORETYPE or else to the core that the CPU's features
// call for (CpuFeatures.h), and OPENBLAS_THREAD_TIMEOUT defaulted (OpenBLAS
// reads both in its constructor); the environment is then restored. Its
// products run as sgemv when C has one column (or one row times a transposed
// B), and as two row halves on two threads when they are large and tall. A
// product with one row and an untransposed B goes, whichever the library,
// to the runtime's own one-row product (Gemv.h).
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Blas.h"
#include "modelrt/core/Bf16.h"
#include "BlasBackends.h"
#include "Gemv.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Profile.h"
#include "modelrt/core/Parallel.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <optional>
#include <thread>
#include <algorithm>

namespace modelrt {
namespace {

using SgemmFn = void (*)(int, int, int, int, int, int, float, const float *, int,
                         const float *, int, float, float *, int);
using SgemvFn = void (*)(int, int, int, int, float, const float *, int, const float *, int,
                         float, float *, int);
using SetThreadsFn = void (*)(int);
using CoreNameFn = char *(*)();

/// Set once library() has run (blasCoreName() does not open the library).
std::atomic<bool> opened{false};

/// The opened library (or why it is not).
struct OpenBlas {
  SgemmFn sgemm = nullptr;
  SgemvFn sgemv = nullptr;
  SetThreadsFn setThreads = nullptr; ///< null when the user chose the count
  int (*getThreads)() = nullptr;     ///< openblas_get_num_threads
  int maxThreads = 1;                ///< the cores OpenBLAS may use
  int threads = 1;                   ///< the count last set
  CoreNameFn coreName = nullptr;
  int (*threadTimeout)() = nullptr; ///< openblas_thread_timeout
  Status status = Status::ok();
};

/// Sets \p name to \p value (unsets it when null) until destroyed, then
/// restores what the environment had.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved)
      setenv(name, saved->c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};

/// OpenBLAS's idle threads spin (sched_yield) for 2^28 cycles after each
/// threaded call unless OPENBLAS_THREAD_TIMEOUT says otherwise (read when
/// the library loads). Spinning bought nothing measurable (CNN training: the
/// same step time) and burnt the second core: 1.95 CPUs busy during CNN
/// training against 1.2 with 2^4. The user's own setting wins.
constexpr const char *kThreadTimeout = "4";

/// Opens \p path with OPENBLAS_CORETYPE set to \p coreType (unset when
/// null) and OPENBLAS_THREAD_TIMEOUT defaulted, then restores both.
void *openWithEnvironment(const char *path, const char *coreType) {
  ScopedEnv core("OPENBLAS_CORETYPE", coreType);
  const char *timeout = std::getenv("OPENBLAS_THREAD_TIMEOUT");
  ScopedEnv spin("OPENBLAS_THREAD_TIMEOUT", timeout ? timeout : kThreadTimeout);
  return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

OpenBlas open() {
  OpenBlas lib;
  const char *path = std::getenv("MODELRT_OPENBLAS");
  if (!path || !*path)
    path = "libopenblas.so.0";
  Expected<CpuLevel> cap = cpuLevelCap();
  if (!cap) {
    lib.status = cap.status();
    return lib;
  }
  const char *core = std::getenv("MODELRT_OPENBLAS_CORETYPE");
  if (!core || !*core)
    core = hostKernels().openblasCore;
  void *handle = openWithEnvironment(path, core);
  if (!handle) {
    const char *why = dlerror();
    lib.status = errorf("cannot open OpenBLAS (%s): %s; install Debian's libopenblas0 "
                        "(or set MODELRT_OPENBLAS to the library's path)",
                        path, why ? why : "unknown error");
    return lib;
  }
  lib.sgemm = reinterpret_cast<SgemmFn>(dlsym(handle, "cblas_sgemm"));
  lib.sgemv = reinterpret_cast<SgemvFn>(dlsym(handle, "cblas_sgemv"));
  lib.getThreads = reinterpret_cast<int (*)()>(dlsym(handle, "openblas_get_num_threads"));
  lib.coreName = reinterpret_cast<CoreNameFn>(dlsym(handle, "openblas_get_corename"));
  lib.threadTimeout = reinterpret_cast<int (*)()>(dlsym(handle, "openblas_thread_timeout"));
  auto setThreads = reinterpret_cast<SetThreadsFn>(dlsym(handle, "openblas_set_num_threads"));
  if (!lib.sgemm) {
    lib.status = errorf("%s has no cblas_sgemm: it is not OpenBLAS", path);
    return lib;
  }
  if (setThreads && !std::getenv("OPENBLAS_NUM_THREADS") && !std::getenv("OMP_NUM_THREADS")) {
    setThreads(1);
    lib.setThreads = setThreads;
    lib.maxThreads = usableCores();
  }
  return lib;
}

OpenBlas &library() {
  static std::once_flag once;
  static OpenBlas lib;
  std::call_once(once, [] {
    lib = open();
    opened = true;
  });
  return lib;
}

enum { RowMajor = 101, NoTrans = 111, Trans = 112 };

/// Multiply-adds per OpenBLAS thread: products below it run on one thread.
constexpr double kMacsPerThread = 16.0 * 1024 * 1024;

/// Sets OpenBLAS's thread count to \p n when it differs from the last one.
void setThreads(OpenBlas &lib, int n) {
  if (n != lib.threads) {
    lib.setThreads(n);
    lib.threads = n;
  }
}

/// Sets OpenBLAS's thread count for an M x N x K product (unless the user
/// chose it): one thread per 16M multiply-adds, at most one per core. Small
/// products stay on one thread (a second one costs more to wake than it
/// saves, and spins afterwards against the data loader); large ones, such
/// as the CNN's convolutions (up to 231M), gain from a second.
void chooseThreads(OpenBlas &lib, int M, int N, int K) {
  if (!lib.setThreads)
    return;
  double macs = double(M) * double(N) * double(K);
  setThreads(lib, int(std::min<double>(lib.maxThreads, std::max(1.0, macs / kMacsPerThread))));
}

/// A row-major product with one column of C, or one row times a transposed
/// B, as sgemv (one row times an untransposed B runs the runtime's own
/// gemv() before this is reached). OpenBLAS 0.3.21's sgemm packs the whole
/// other matrix even then; sgemv reads it once. Returns false (nothing done)
/// for every other product.
bool productAsGemv(const OpenBlas &lib, int order, int tA, int tB, int M, int N, int K,
                   float alpha, const float *A, int lda, const float *B, int ldb, float beta,
                   float *C, int ldc) {
  if (!lib.sgemv || order != RowMajor || K <= 0)
    return false;
  if (M == 1 && tB == Trans) { // B is N x K: C = B x (an untransposed B goes to gemv())
    int incx = tA == NoTrans ? 1 : lda;
    lib.sgemv(RowMajor, NoTrans, N, K, alpha, B, ldb, A, incx, beta, C, 1);
    return true;
  }
  if (N == 1) { // C[m * ldc] = sum_k op(A)[m,k] op(B)[k,0]
    int incx = tB == NoTrans ? ldb : 1;
    if (tA == NoTrans) // A is M x K
      lib.sgemv(RowMajor, NoTrans, M, K, alpha, A, lda, B, incx, beta, C, ldc);
    else // A is K x M
      lib.sgemv(RowMajor, Trans, K, M, alpha, A, lda, B, incx, beta, C, ldc);
    return true;
  }
  return false;
}

/// Rows and multiply-adds from which a product runs as two row halves.
constexpr int kSplitRows = 512;
constexpr double kSplitMacs = 32.0 * 1000 * 1000;

/// C = alpha op(A) op(B) + beta C (row-major) as two single-threaded sgemm
/// calls on row halves of C (multiples of 16 rows), one per thread.
void sgemmInRowHalves(OpenBlas &lib, int tA, int tB, int M, int N, int K, float alpha,
                      const float *A, int lda, const float *B, int ldb, float beta, float *C,
                      int ldc) {
  setThreads(lib, 1);
  int half = (M / 2 + 15) / 16 * 16;
  runInTwoParts([&](int part) {
    int m0 = part ? half : 0, rows = part ? M - half : half;
    const float *a = tA == NoTrans ? A + size_t(m0) * lda : A + m0;
    lib.sgemm(RowMajor, tA, tB, rows, N, K, alpha, a, lda, B, ldb, beta, C + size_t(m0) * ldc,
              ldc);
  });
}

/// The BlasLibrary cblas_sgemm forwards to (-1 until one is opened).
std::atomic<int> active{-1};

/// MODELRT_BLAS's choice: onednn, openblas, or either (auto, the default).
Expected<int> requestedLibrary() {
  const char *want = std::getenv("MODELRT_BLAS");
  if (!want || !*want || !std::strcmp(want, "auto"))
    return -1;
  if (!std::strcmp(want, "onednn"))
    return int(BlasLibrary::OneDnn);
  if (!std::strcmp(want, "openblas"))
    return int(BlasLibrary::OpenBlas);
  return errorf("MODELRT_BLAS is '%s'; it takes onednn, openblas or auto", want);
}

/// Chooses and opens the library (called once; a library chosen before by
/// useBlasLibrary stays).
Status chooseLibrary() {
  MODELRT_TRY(cpuLevelCap().status());
  MODELRT_TRY(bf16PathCap().status());
  if (active.load() >= 0)
    return Status::ok();
  Expected<int> want = requestedLibrary();
  if (!want)
    return want.status();
  if (*want >= 0)
    return useBlasLibrary(BlasLibrary(*want));
  Status dnnl = useBlasLibrary(BlasLibrary::OneDnn);
  if (dnnl.isOk())
    return dnnl;
  Status openblas = useBlasLibrary(BlasLibrary::OpenBlas);
  if (openblas.isOk())
    return openblas;
  return errorf("no library for matrix products: %s; and %s", dnnl.message().c_str(),
                openblas.message().c_str());
}


/// The threads gemv() gets for a K x N product: two from
/// kMacsForAllCores on, unless MODELRT_THREADS=1 or one core.
int gemvThreads(int K, int N) {
  return double(K) * double(N) >= kMacsForAllCores && twoPartsInParallel() ? 2 : 1;
}

} // namespace

Status useBlasLibrary(BlasLibrary which) {
  MODELRT_TRY(cpuLevelCap().status());
  Status s = which == BlasLibrary::OneDnn ? loadOneDnn() : library().status;
  if (s.isOk())
    active = int(which);
  return s;
}

Status loadBlas() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = chooseLibrary(); });
  return status;
}

std::string blasKernels() {
  int which = active.load();
  if (which == int(BlasLibrary::OneDnn))
    return oneDnnKernels();
  if (which == int(BlasLibrary::OpenBlas))
    return "OpenBLAS, " + blasCoreName() + " kernels";
  return "";
}

std::optional<BlasLibrary> activeBlasLibrary() {
  int which = active.load();
  if (which < 0)
    return std::nullopt;
  return BlasLibrary(which);
}

bool blasSplitsRows(int M, int N, int K) {
  if (active.load() != int(BlasLibrary::OpenBlas))
    return false;
  const OpenBlas &lib = library();
  return lib.setThreads && M >= kSplitRows &&
         double(M) * N * K >= kSplitMacs && twoPartsInParallel();
}

int blasThreadTimeout() {
  const OpenBlas &lib = library();
  return lib.threadTimeout ? lib.threadTimeout() : -1;
}

int blasThreadCount() {
  const OpenBlas &lib = library();
  return lib.getThreads ? lib.getThreads() : 0;
}

int blasThreadsFor(int M, int N, int K) { return oneDnnThreadsFor(M, N, K); }

std::string blasCoreName() {
  if (!opened.load())
    return "";
  const OpenBlas &lib = library();
  const char *name = lib.coreName ? lib.coreName() : nullptr;
  return name ? name : "";
}

void requireBlas() {
  if (active.load() >= 0)
    return;
  if (Status s = loadBlas(); !s.isOk()) {
    std::fprintf(stderr, "modelrt: %s\n", s.message().c_str());
    std::abort();
  }
}

} // namespace modelrt

extern "C" void cblas_sgemm(int order, int transA, int transB, int M, int N, int K,
                            float alpha, const float *A, int lda, const float *B, int ldb,
                            float beta, float *C, int ldc) {
  using namespace modelrt;
  requireBlas();
  noteProductRun(false);
  if (order == RowMajor && M == 1 && transB == NoTrans) { // one row: the runtime's own
    GemvShape g{K, N, transA == Trans ? lda : 1, ldb};
    if (gemvApplies(g)) {
      gemv(hostKernels().level, gemvThreads(K, N), g, alpha, A, B, beta, C);
      return;
    }
  }
  if (active.load() == int(BlasLibrary::OneDnn)) {
    if (order == RowMajor) // column-major C is row-major C^T = op(B)^T op(A)^T
      oneDnnSgemm(transA == Trans, transB == Trans, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    else
      oneDnnSgemm(transB == Trans, transA == Trans, N, M, K, alpha, B, ldb, A, lda, beta, C, ldc);
    return;
  }
  OpenBlas &lib = library();
  if (productAsGemv(lib, order, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc))
    return;
  if (order == RowMajor && blasSplitsRows(M, N, K)) {
    sgemmInRowHalves(lib, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  chooseThreads(lib, M, N, K);
  lib.sgemm(order, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
