//===- CommThread.h - A collective whose operations run on one thread ------===//
//
// Implements `CommThread`: a Collective that runs every operation of
// another one (MPI's) on a communication thread of its own, in the order the
// operations are called. startSum returns at once (the sum is started and
// then advanced by the thread, which polls the transport while it has
// nothing else to do); waitAll and broadcast block the caller until the
// thread has done them. The calling threads therefore never enter MPI
// themselves, so sums progress while the caller computes.
//
// What it does not do: run operations concurrently (one at a time, in
// order), or hand back errors of startSum before the next waitAll.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DIST_COMMTHREAD_H
#define MODELRT_DIST_COMMTHREAD_H

#include "modelrt/dist/Collective.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

namespace modelrt {

/// Runs the operations of \p inner on one thread, in call order. \p inner
/// must allow it (Collective::serializedThreads()), and must not be used
/// directly while this thread has work queued or sums in flight: waitAll()
/// returning is the hand-over back to the caller's thread.
class CommThread final : public Collective {
public:
  explicit CommThread(Collective &inner);
  /// Stops the thread (operations still queued are dropped).
  ~CommThread() override;
  CommThread(const CommThread &) = delete;
  CommThread &operator=(const CommThread &) = delete;

  int rank() const override { return ranks; }
  int size() const override { return worldSize; }
  /// Queues the sum; an error starting it is returned by the next waitAll.
  Status startSum(float *buf, size_t n) override;
  /// startSum for doubles.
  Status startSum(double *buf, size_t n) override;
  /// Waits for every sum queued before it; the inner waitAll's error, or
  /// the first error of the sums since the last waitAll.
  Status waitAll(const char *what) override;
  /// Done when nothing is queued or in flight (it advances nothing itself:
  /// the thread does).
  Status progress(bool &done) override;
  bool serializedThreads() const override { return true; }
  /// Queued, done on the thread in order; blocks until then.
  Status broadcast(void *buf, size_t bytes, int root) override;
  /// The inner collective's bound on a wait.
  double timeoutSeconds() const override { return inner.timeoutSeconds(); }
  /// Calls the inner abort at once, from the caller's thread.
  void abort(int code) override { inner.abort(code); }

private:
  enum class Kind { SumFloat, SumDouble, Wait, Broadcast };
  struct Op {
    Kind kind;
    void *buf;
    size_t n;
    int root;
    const char *what;
  };
  /// Queues \p op; returns its ticket.
  uint64_t push(const Op &op);
  /// Blocks until the operation of \p ticket is done; returns its status.
  Status await(uint64_t ticket);
  /// The thread: runs queued operations, polls the sums in flight between
  /// them, sleeps when there is neither.
  void loop();
  /// Runs \p op on the inner collective.
  Status run(const Op &op);

  Collective &inner;
  int ranks, worldSize;
  std::mutex mu;
  std::condition_variable work, done;
  std::deque<Op> queue;
  uint64_t pushed = 0, finished = 0; ///< tickets queued, operations done
  bool inFlight = false;             ///< started sums not yet complete
  bool stopping = false;
  Status firstError;  ///< of the sums since the last waitAll
  Status lastBlocking; ///< of the last waitAll or broadcast
  std::thread thread;
};

} // namespace modelrt

#endif // MODELRT_DIST_COMMTHREAD_H
