//===- FakeNccl.cpp - A fake libnccl for the fake GPU, over shared memory --===//
//
// Implements the NCCL functions modelrt loads (runtime/lib/cuda/Nccl.h),
// for ranks that are processes on one machine running on the fake CUDA
// driver (FakeCudaDriver.cpp, whose device pointers are host pointers and
// whose streams run at once). ncclGetUniqueId names a POSIX shared memory
// object; ncclCommInitRank maps it: a barrier and one slot per rank. An
// all-reduce of floats, chunk by chunk: each rank writes its chunk (times
// its pre-multiplier, for ncclRedOpCreatePreMulSum's operators) into its
// slot, waits for every rank, adds the slots in rank order into its result
// (so every rank gets the same bits), and waits again before the slots are
// reused. Everything happens in the call (the stream is ignored), so no
// error is ever asynchronous. ncclGetVersion says 2.23.4. For the tests of
// faults, FAKE_NCCL_FAIL=RANK:CALL makes that rank's CALL-th ncclAllReduce
// (1-based) fail at once with ncclRemoteError.
//
//===----------------------------------------------------------------------===//
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 4, kSystemError = 2, kRemoteError = 6;
constexpr int kFloat32 = 7, kSum = 0, kFirstCustomOp = 5;
constexpr size_t kSlotFloats = size_t(1) << 16;

struct UniqueId {
  char internal[128];
};

/// The shared header: a sense-reversing barrier.
struct Shared {
  std::atomic<int> arrived, generation;
};

struct Comm {
  int rank = 0, ranks = 1;
  Shared *shared = nullptr;
  float *slots = nullptr; ///< ranks x kSlotFloats
  size_t bytes = 0;
  std::map<int, float> preMul; ///< custom operator -> its scalar
  int nextOp = kFirstCustomOp;
  int allReduces = 0; ///< ncclAllReduce calls so far
};

/// True when FAKE_NCCL_FAIL=RANK:CALL names this rank and call.
bool injectedFailure(const Comm &c) {
  const char *v = std::getenv("FAKE_NCCL_FAIL");
  int rank = -1, call = -1;
  return v && std::sscanf(v, "%d:%d", &rank, &call) == 2 && rank == c.rank &&
         call == c.allReduces;
}

void barrier(Comm &c) {
  int gen = c.shared->generation.load();
  if (c.shared->arrived.fetch_add(1) + 1 == c.ranks) {
    c.shared->arrived.store(0);
    c.shared->generation.fetch_add(1);
    return;
  }
  while (c.shared->generation.load() == gen)
    sched_yield();
}

} // namespace

extern "C" {

int ncclGetVersion(int *version) {
  *version = 22304;
  return kSuccess;
}

const char *ncclGetErrorString(int result) {
  if (result == kRemoteError)
    return "remote process exited or there was a network error (fake)";
  return result == kInvalidArgument ? "invalid argument (fake)" : "unhandled error (fake)";
}

int ncclGetUniqueId(UniqueId *id) {
  static int counter = 0;
  std::memset(id, 0, sizeof *id);
  std::snprintf(id->internal, sizeof id->internal, "/fake-nccl-%d-%d", int(getpid()), counter++);
  return kSuccess;
}

int ncclCommInitRank(void **comm, int ranks, UniqueId id, int rank) {
  auto *c = new Comm;
  c->rank = rank, c->ranks = ranks;
  c->bytes = 64 + size_t(ranks) * kSlotFloats * sizeof(float);
  int fd = shm_open(id.internal, O_CREAT | O_RDWR, 0600);
  if (fd < 0 || ftruncate(fd, off_t(c->bytes)) != 0)
    return kSystemError;
  void *p = mmap(nullptr, c->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED)
    return kSystemError;
  c->shared = static_cast<Shared *>(p); // a new object is zeroed
  c->slots = reinterpret_cast<float *>(static_cast<char *>(p) + 64);
  barrier(*c); // every rank has mapped it: the name can go
  if (rank == 0)
    shm_unlink(id.internal);
  *comm = c;
  return kSuccess;
}

int ncclCommDestroy(void *comm) {
  auto *c = static_cast<Comm *>(comm);
  munmap(c->shared, c->bytes);
  delete c;
  return kSuccess;
}

int ncclCommAbort(void *comm) { return ncclCommDestroy(comm); }

int ncclCommGetAsyncError(void *, int *result) {
  *result = kSuccess;
  return kSuccess;
}

int ncclRedOpCreatePreMulSum(int *op, void *scalar, int type, int residence, void *comm) {
  auto *c = static_cast<Comm *>(comm);
  if (type != kFloat32 || residence != 1) // host-immediate floats only
    return kInvalidArgument;
  *op = c->nextOp++;
  c->preMul[*op] = *static_cast<float *>(scalar);
  return kSuccess;
}

int ncclRedOpDestroy(int op, void *comm) {
  return static_cast<Comm *>(comm)->preMul.erase(op) ? kSuccess : kInvalidArgument;
}

int ncclGroupStart() { return kSuccess; }
int ncclGroupEnd() { return kSuccess; }

int ncclAllReduce(const void *send, void *recv, size_t count, int type, int op, void *comm,
                  void *) {
  auto *c = static_cast<Comm *>(comm);
  auto it = c->preMul.find(op);
  if (type != kFloat32 || (op != kSum && it == c->preMul.end()))
    return kInvalidArgument;
  if (++c->allReduces, injectedFailure(*c))
    return kRemoteError;
  float scale = op == kSum ? 1.0f : it->second;
  const float *in = static_cast<const float *>(send);
  float *out = static_cast<float *>(recv);
  for (size_t from = 0; from < count; from += kSlotFloats) {
    size_t n = count - from < kSlotFloats ? count - from : kSlotFloats;
    float *mine = c->slots + size_t(c->rank) * kSlotFloats;
    for (size_t i = 0; i < n; ++i)
      mine[i] = in[from + i] * scale;
    barrier(*c);
    for (size_t i = 0; i < n; ++i) {
      float s = 0;
      for (int r = 0; r < c->ranks; ++r)
        s += c->slots[size_t(r) * kSlotFloats + i];
      out[from + i] = s;
    }
    barrier(*c);
  }
  return kSuccess;
}

} // extern "C"
