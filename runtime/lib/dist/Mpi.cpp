//===- Mpi.cpp - The collective over an Open MPI library loaded at run time ===//
//
// Mpi.h's collective. Handles are Open MPI's (pointers to its predefined
// globals); the functions are resolved from the library by name. Waits poll
// MPI_Test, yielding the CPU between polls, until a deadline. MPI is
// initialised for MPI_THREAD_SERIALIZED.
//
//===----------------------------------------------------------------------===//
#include "modelrt/dist/Mpi.h"

#include <dlfcn.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <vector>

namespace modelrt {

namespace {

using Handle = void *; ///< MPI_Comm, MPI_Datatype, MPI_Op, MPI_Request...

/// The MPI functions and handles the collective uses.
struct MpiApi {
  int (*initThread)(int *, char ***, int, int *);
  int (*finalize)();
  int (*commRank)(Handle, int *);
  int (*commSize)(Handle, int *);
  int (*iallreduce)(const void *, void *, int, Handle, Handle, Handle, Handle *);
  int (*ibcast)(void *, int, Handle, int, Handle, Handle *);
  int (*isend)(const void *, int, Handle, int, int, Handle, Handle *);
  int (*irecv)(void *, int, Handle, int, int, Handle, Handle *);
  int (*test)(Handle *, int *, void *);
  int (*abort)(Handle, int);
  int (*setErrhandler)(Handle, Handle);
  Handle commWorld, floatType, doubleType, byteType, intType, opSum, errorsReturn;
};

void *const kInPlace = reinterpret_cast<void *>(1); ///< Open MPI's MPI_IN_PLACE
/// MPI_THREAD_SERIALIZED (the standard's order: SINGLE, FUNNELED,
/// SERIALIZED, MULTIPLE are 0 to 3 in Open MPI).
constexpr int kThreadSerialized = 2;

/// Resolves \p name into \p out; false (with \p missing set) when absent.
template <typename T> bool resolve(void *lib, const char *name, T &out, std::string &missing) {
  out = reinterpret_cast<T>(dlsym(lib, name));
  if (!out && missing.empty())
    missing = name;
  return out != nullptr;
}

Status loadApi(void *lib, MpiApi &api) {
  std::string missing;
  resolve(lib, "MPI_Init_thread", api.initThread, missing);
  resolve(lib, "MPI_Finalize", api.finalize, missing);
  resolve(lib, "MPI_Comm_rank", api.commRank, missing);
  resolve(lib, "MPI_Comm_size", api.commSize, missing);
  resolve(lib, "MPI_Iallreduce", api.iallreduce, missing);
  resolve(lib, "MPI_Ibcast", api.ibcast, missing);
  resolve(lib, "MPI_Isend", api.isend, missing);
  resolve(lib, "MPI_Irecv", api.irecv, missing);
  resolve(lib, "MPI_Test", api.test, missing);
  resolve(lib, "MPI_Abort", api.abort, missing);
  resolve(lib, "MPI_Comm_set_errhandler", api.setErrhandler, missing);
  if (!missing.empty())
    return errorf("it has no function %s", missing.c_str());
  // Open MPI's predefined handles are the addresses of these globals.
  resolve(lib, "ompi_mpi_comm_world", api.commWorld, missing);
  resolve(lib, "ompi_mpi_float", api.floatType, missing);
  resolve(lib, "ompi_mpi_double", api.doubleType, missing);
  resolve(lib, "ompi_mpi_byte", api.byteType, missing);
  resolve(lib, "ompi_mpi_int", api.intType, missing);
  resolve(lib, "ompi_mpi_op_sum", api.opSum, missing);
  resolve(lib, "ompi_mpi_errors_return", api.errorsReturn, missing);
  if (!missing.empty())
    return errorf("it is not Open MPI (no symbol %s)", missing.c_str());
  return Status::ok();
}

/// The largest count one MPI call takes.
constexpr size_t kMaxCount = size_t(1) << 30;

class MpiCollective final : public Collective {
public:
  MpiCollective(MpiApi api, double timeout) : api(api), timeout(timeout) {}
  ~MpiCollective() override {
    if (!aborted)
      api.finalize();
  }
  /// MPI_Init_thread asking for MPI_THREAD_SERIALIZED (a CommThread calls
  /// MPI during the steps, the main thread between them); a library that
  /// grants less leaves serializedThreads() false.
  Status start() {
    int provided = 0;
    if (api.initThread(nullptr, nullptr, kThreadSerialized, &provided) != 0)
      return errorf("MPI_Init_thread failed");
    serialized = provided >= kThreadSerialized;
    api.setErrhandler(api.commWorld, api.errorsReturn);
    api.commRank(api.commWorld, &myRank);
    api.commSize(api.commWorld, &worldSize);
    return Status::ok();
  }
  int rank() const override { return myRank; }
  int size() const override { return worldSize; }
  Status startSum(float *buf, size_t n) override { return startSums(buf, n, api.floatType); }
  Status startSum(double *buf, size_t n) override { return startSums(buf, n, api.doubleType); }
  Status broadcast(void *buf, size_t bytes, int root) override {
    for (size_t off = 0; off < bytes; off += kMaxCount) {
      Handle req = nullptr;
      int n = int(std::min(kMaxCount, bytes - off));
      if (api.ibcast(static_cast<char *>(buf) + off, n, api.byteType, root, api.commWorld,
                     &req) != 0)
        return errorf("MPI_Ibcast failed");
      pending.push_back(req);
    }
    return waitAll("a broadcast");
  }
  Status waitAll(const char *what) override;
  double timeoutSeconds() const override { return timeout; }
  Status progress(bool &done) override {
    Status failed;
    done = testAll(pending, failed);
    return failed;
  }
  bool serializedThreads() const override { return serialized; }
  void abort(int code) override {
    aborted = true;
    api.abort(api.commWorld, code);
  }

private:
  Status startSums(void *buf, size_t n, Handle type) {
    size_t bytes = type == api.floatType ? sizeof(float) : sizeof(double);
    for (size_t off = 0; off < n; off += kMaxCount) {
      Handle req = nullptr;
      int count = int(std::min(kMaxCount, n - off));
      if (api.iallreduce(kInPlace, static_cast<char *>(buf) + off * bytes, count, type,
                         api.opSum, api.commWorld, &req) != 0)
        return errorf("MPI_Iallreduce failed");
      pending.push_back(req);
    }
    return Status::ok();
  }
  bool testAll(std::vector<Handle> &reqs, Status &failed);
  std::string silentRanks();

  MpiApi api;
  double timeout;
  int myRank = 0, worldSize = 1;
  bool aborted = false, serialized = false;
  std::vector<Handle> pending;
};

/// Tests every request of \p reqs, dropping the finished ones; true when
/// none is left.
bool MpiCollective::testAll(std::vector<Handle> &reqs, Status &failed) {
  for (size_t i = 0; i < reqs.size();) {
    int done = 0;
    if (api.test(&reqs[i], &done, nullptr) != 0) {
      failed = errorf("MPI_Test failed (a rank may have ended)");
      done = 1;
    }
    if (done)
      reqs.erase(reqs.begin() + long(i));
    else
      ++i;
  }
  return reqs.empty();
}

/// Polls until \p done or \p seconds have passed; true when done.
template <typename F> bool pollFor(double seconds, F done) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (long polls = 0;; ++polls) {
    if (done())
      return true;
    if (std::chrono::steady_clock::now() > end)
      return false;
    if (polls > 10000) { // waiting long: give the CPU to the ranks that compute
      timespec t{0, 50000};
      nanosleep(&t, nullptr);
    } else if (polls > 100) {
      sched_yield();
    }
  }
}

Status MpiCollective::waitAll(const char *what) {
  Status failed;
  bool done = pollFor(timeout, [&] { return testAll(pending, failed); });
  if (done)
    return failed;
  std::string silent = silentRanks();
  return errorf("%s did not complete within %g s (MODELC_DIST_TIMEOUT); %s", what, timeout,
                silent.c_str());
}

/// After a timeout: every rank that also timed out sends its rank to every
/// other; the ranks not heard from within a grace period are named.
std::string MpiCollective::silentRanks() {
  const int tag = 7177;
  std::vector<int> heard(size_t(worldSize), -1);
  std::vector<Handle> sends, recvs(size_t(worldSize), nullptr);
  for (int r = 0; r < worldSize; ++r) {
    if (r == myRank)
      continue;
    Handle s = nullptr;
    api.irecv(&heard[size_t(r)], 1, api.intType, r, tag, api.commWorld, &recvs[size_t(r)]);
    if (api.isend(&myRank, 1, api.intType, r, tag, api.commWorld, &s) == 0)
      sends.push_back(s);
  }
  Status ignored;
  pollFor(std::min(timeout, 10.0), [&] {
    bool all = true;
    for (int r = 0; r < worldSize; ++r) {
      int done = 0;
      if (recvs[size_t(r)] && api.test(&recvs[size_t(r)], &done, nullptr) == 0 && done)
        recvs[size_t(r)] = nullptr;
      all = all && (r == myRank || heard[size_t(r)] == r);
    }
    return all;
  });
  std::string names;
  for (int r = 0; r < worldSize; ++r)
    if (r != myRank && heard[size_t(r)] != r)
      names += (names.empty() ? "" : ", ") + std::to_string(r);
  if (names.empty())
    return "every rank still answers (a rank is slower than the timeout)";
  return "no answer from rank " + names + " (ended, stopped or hung)";
}

} // namespace

Expected<std::unique_ptr<Collective>> openMpi(const std::string &library, double timeoutSeconds) {
  // RTLD_GLOBAL: Open MPI's own plugins resolve libmpi's symbols.
  void *lib = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib)
    return errorf("cannot load %s (%s)", library.c_str(), dlerror());
  MpiApi api{};
  if (Status st = loadApi(lib, api); !st.isOk())
    return errorf("%s: %s", library.c_str(), st.message().c_str());
  auto mpi = std::make_unique<MpiCollective>(api, timeoutSeconds);
  if (Status st = mpi->start(); !st.isOk())
    return errorf("%s: %s", library.c_str(), st.message().c_str());
  return std::unique_ptr<Collective>(std::move(mpi));
}

} // namespace modelrt
