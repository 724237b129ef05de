//===- Collective.cpp - The world of one process and the launcher's choice -===//
//
// Collective.h's single-process world and collectiveFromEnvironment: the
// launcher variables that say a process is one rank of several, and the
// error when they do but MPI cannot be loaded; the generated code's sum
// over the ranks.
//
//===----------------------------------------------------------------------===//
#include "modelrt/dist/Collective.h"

#include "modelrt/dist/Mpi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace modelrt {

Collective::~Collective() = default;

Status Collective::sum(double *buf, size_t n, const char *what) {
  MODELRT_TRY(startSum(buf, n));
  return waitAll(what);
}

namespace {

/// One rank: every sum is the buffer itself.
class SingleProcess final : public Collective {
public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  Status startSum(float *, size_t) override { return Status::ok(); }
  Status startSum(double *, size_t) override { return Status::ok(); }
  Status waitAll(const char *) override { return Status::ok(); }
  Status progress(bool &done) override {
    done = true;
    return Status::ok();
  }
  bool serializedThreads() const override { return true; }
  Status broadcast(void *, size_t, int) override { return Status::ok(); }
  void abort(int) override {}
};

/// The launcher variables that carry the number of processes (or, for
/// PMIx, say that there is a launcher at all), with that number.
struct LauncherVar {
  const char *name;
  int size;
};

LauncherVar launcherVar() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char *v = std::getenv(name); v && *v)
      return {name, std::atoi(v)};
  if (const char *v = std::getenv("PMIX_RANK"); v && *v)
    return {"PMIX_RANK", 2}; // a PMIx launcher: the size comes from MPI
  return {nullptr, 1};
}

/// The ranks of modelrt_dist_sum_f64 (setStepCollective).
Collective *stepCollective = nullptr;

} // namespace

void setStepCollective(Collective *collective) { stepCollective = collective; }

std::unique_ptr<Collective> singleProcess() { return std::make_unique<SingleProcess>(); }

int launcherWorldSize() { return launcherVar().size; }

Expected<std::unique_ptr<Collective>> collectiveFromEnvironment(double timeoutSeconds) {
  LauncherVar var = launcherVar();
  if (!var.name || var.size <= 1)
    return singleProcess();
  const char *lib = std::getenv("MODELC_LIBMPI");
  std::string library = lib && *lib ? lib : "libmpi.so.40";
  auto mpi = openMpi(library, timeoutSeconds);
  if (mpi)
    return mpi;
  return errorf("this process is one of several (%s=%s) but MPI cannot be used: %s; install "
                "Open MPI 4 (Debian: openmpi-bin, which brings libopenmpi3) or name its "
                "libmpi in MODELC_LIBMPI, or run without mpirun",
                var.name, std::getenv(var.name), mpi.message().c_str());
}

} // namespace modelrt

extern "C" void modelrt_dist_sum_f64(const double *input, double *sum, int64_t n) {
  if (sum != input)
    std::memcpy(sum, input, size_t(n) * sizeof(double));
  modelrt::Collective *ranks = modelrt::stepCollective;
  if (!ranks || ranks->size() <= 1)
    return;
  modelrt::Status s = ranks->sum(sum, size_t(n), "the sum of batch norm's statistics");
  if (s)
    return;
  std::fprintf(stderr, "modelrt: error: rank %d of %d: %s\n", ranks->rank(), ranks->size(),
               s.message().c_str());
  ranks->abort(1);
}
