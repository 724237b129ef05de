//===- Collective.h - Sums and broadcasts across the ranks of a run --------===//
//
// Implements `Collective`, what data-parallel training needs from the
// processes of one run (its ranks): this rank and their number, in-place
// sums of float and double buffers over every rank (started, advanced,
// then waited for under a deadline), a broadcast from a root and an abort of the whole
// run. `singleProcess()` is the world of one rank (every operation a no-op);
// `collectiveFromEnvironment()` picks MPI (dist/Mpi.h) when a launcher's
// environment says the process is one rank of several, else that world.
// `modelrt_dist_sum_f64` is the generated training step's sum over the
// ranks (synchronised batch norm), through the collective that
// `setStepCollective` names.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DIST_COLLECTIVE_H
#define MODELRT_DIST_COLLECTIVE_H

#include "modelrt/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace modelrt {

/// The processes (ranks) of one run and the collective operations between
/// them. Every rank must call the same operations in the same order.
class Collective {
public:
  virtual ~Collective();
  /// This process's rank, in [0, size()).
  virtual int rank() const = 0;
  /// The number of ranks.
  virtual int size() const = 0;
  /// Starts replacing \p buf[0..n) on every rank by its sum over the ranks;
  /// the buffer must stay untouched until waitAll().
  virtual Status startSum(float *buf, size_t n) = 0;
  /// startSum for doubles.
  virtual Status startSum(double *buf, size_t n) = 0;
  /// Waits for every started sum. After the collective's timeout without
  /// completion: an error that names \p what and the ranks that did not
  /// answer (the run cannot continue).
  virtual Status waitAll(const char *what) = 0;
  /// Advances the started sums without waiting for them (the transport is
  /// polled once); sets \p done when none is left. An error when a sum
  /// failed (the run cannot continue).
  virtual Status progress(bool &done) = 0;
  /// True when the operations may be called from any thread, one thread at
  /// a time with a hand-over between them (MPI_THREAD_SERIALIZED): what a
  /// CommThread (dist/CommThread.h) needs of the collective it drives.
  virtual bool serializedThreads() const = 0;
  /// Copies \p bytes of \p buf on rank \p root to \p buf on every rank.
  virtual Status broadcast(void *buf, size_t bytes, int root) = 0;
  /// The seconds a wait for the other ranks may last (MODELC_DIST_TIMEOUT);
  /// 0 in a world of one rank, which never waits.
  virtual double timeoutSeconds() const { return 0; }
  /// Ends every rank of the run with exit status \p code (returns only in a
  /// world of one rank).
  virtual void abort(int code) = 0;

  /// Sums \p buf over the ranks and waits (startSum then waitAll).
  Status sum(double *buf, size_t n, const char *what);
};

/// The world of this process alone.
std::unique_ptr<Collective> singleProcess();

/// The ranks of the run this process belongs to: MPI when the environment
/// of a launcher (Open MPI's OMPI_COMM_WORLD_SIZE, PMIx's PMIX_RANK, a
/// PMI's PMI_SIZE) says it runs as one of several processes, else
/// singleProcess(). An error, saying why, when the environment looks
/// distributed but the MPI library (MODELC_LIBMPI, default libmpi.so.40)
/// cannot be loaded or started. \p timeoutSeconds bounds every wait.
Expected<std::unique_ptr<Collective>> collectiveFromEnvironment(double timeoutSeconds);

/// The number of processes the launcher's environment announces (1 when
/// none does).
int launcherWorldSize();

/// Names the ranks that the generated code's sums (modelrt_dist_sum_f64)
/// run over; null (the default): this process alone.
void setStepCollective(Collective *collective);

} // namespace modelrt

/// The generated training step's sum over the ranks (mdl.lib_sum_ranks):
/// \p sum[0..n) receives the elementwise sum over every rank of \p input
/// (a copy with one process). A sum that fails (a rank that does not answer
/// within the collective's timeout) prints its error and ends every rank:
/// the generated code cannot return an error from within a step.
extern "C" void modelrt_dist_sum_f64(const double *input, double *sum, int64_t n);

#endif // MODELRT_DIST_COLLECTIVE_H
