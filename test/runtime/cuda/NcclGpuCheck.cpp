//===- NcclGpuCheck.cpp - The device check of the NCCL sums ----------------===//
//
// Checks runtime/lib/cuda/Nccl.h on whatever GPU and NCCL the process finds
// (MODELRT_CUDA_DRIVER, MODELRT_NCCL), one rank or several under mpirun:
// the NCCL 2 ABI as declared there (the unique id passed by value, the
// enums, ncclRedOpCreatePreMulSum), the communicator's creation from rank
// 0's broadcast id, and weighted sums of device buffers on the compute
// stream, waited for by polling, against hand-worked values: rank r holds
// (r + 1) * (i mod 7) and weighs it by (r + 1) / (1 + 2 + ... + N), so every
// element must become (i mod 7) * (1^2 + ... + N^2) / (1 + ... + N). Also a
// sum with weight 0 (a rank without samples). Prints the time per sum of
// the large buffer unless --no-timing. Exit 0: passed; 1: a failure; 2: no
// GPU or no NCCL (the reason printed).
// bench/distributed/gpu-check.sh runs it on a GPU machine,
// test/e2e/distributed-nccl.test on the fake driver and fake libnccl.
//
//===----------------------------------------------------------------------===//
#include "cuda/Nccl.h"

#include "modelrt/cuda/Cuda.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace modelrt;

namespace {

/// Sums \p n floats laid out as described above with \p weighted weights
/// (else 0 on every rank but rank 0, which weighs 1); returns the largest
/// relative error against the expected values, or -1 on an error.
double checkSum(cuda::NcclSums &sums, Collective &world, int64_t n, bool weighted,
                double *seconds) {
  int r = world.rank(), ranks = world.size();
  std::vector<float> host(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    host[size_t(i)] = float((r + 1) * (i % 7));
  auto dev = cuda::DeviceBuffer::allocate(uint64_t(n) * sizeof(float));
  if (!dev || !cuda::uploadFloats(*dev, host.data(), uint64_t(n)).isOk())
    return -1;
  double total = ranks * (ranks + 1) / 2.0, squares = 0;
  for (int k = 1; k <= ranks; ++k)
    squares += double(k) * k;
  float weight = weighted ? float((r + 1) / total) : (r == 0 ? 1.0f : 0.0f);
  double factor = weighted ? squares / total : 1.0;
  auto start = std::chrono::steady_clock::now();
  Status st = sums.sum({dev->floats()}, {n}, weight, "the check's sum");
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!st.isOk()) {
    std::printf("error: %s\n", st.message().c_str());
    return -1;
  }
  if (!cuda::downloadFloats(host.data(), *dev, uint64_t(n)).isOk())
    return -1;
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) {
    double want = double(i % 7) * factor;
    double err = std::fabs(host[size_t(i)] - want) / std::max(want, 1.0);
    worst = std::isfinite(err) ? std::max(worst, err) : 1e30;
  }
  return worst;
}

/// One case: PASS or FAIL with its error; true when passed.
bool report(const char *what, double worst, double tolerance) {
  bool ok = worst >= 0 && worst <= tolerance;
  std::printf("%s %s: max relative error %.2g\n", ok ? "PASS" : "FAIL", what, worst);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  bool timing = !(argc > 1 && std::strcmp(argv[1], "--no-timing") == 0);
  auto ranks = collectiveFromEnvironment(60);
  if (!ranks) {
    std::printf("SKIP: %s\n", ranks.message().c_str());
    return 2;
  }
  Collective &world = **ranks;
  if (Status st = cuda::initCuda(); !st.isOk()) {
    std::printf("SKIP: no GPU: %s\n", st.message().c_str());
    return 2;
  }
  std::string why;
  auto sums = cuda::NcclSums::join(world, why);
  if (!sums) {
    std::printf("FAIL NCCL communicator: %s\n", sums.message().c_str());
    return 1;
  }
  if (!*sums) {
    std::printf("SKIP: no NCCL: %s\n", why.c_str());
    return 2;
  }
  if (world.rank() == 0)
    std::printf("%s, %d rank(s)\n", (*sums)->describe().c_str(), world.size());
  double seconds = 0;
  int64_t big = (int64_t(25) << 20) / 4 + 3; // 25 MiB and an odd tail
  bool ok = report("weighted sum of 5 floats", checkSum(**sums, world, 5, true, &seconds), 1e-6);
  ok &= report("weighted sum of 25 MiB", checkSum(**sums, world, big, true, &seconds), 1e-6);
  if (timing && world.rank() == 0)
    std::printf("time: %.3f ms per sum of 25 MiB\n", seconds * 1e3);
  ok &= report("weights 0 but on rank 0", checkSum(**sums, world, 1000, false, &seconds), 0);
  std::printf("%s (rank %d)\n", ok ? "ALL PASSED" : "FAILED", world.rank());
  return ok ? 0 : 1;
}
