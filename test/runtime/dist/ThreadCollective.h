//===- ThreadCollective.h - Ranks as threads of one test process -----------===//
//
// Implements `ThreadGroup` and its `ThreadCollective`s: N ranks run as N
// threads that share memory, for unit tests of what runs on several ranks
// (gradient sums, the ranks' comparison) without MPI. A sum is gathered in
// rank order under a mutex in double precision and handed back when every
// rank has called waitAll(); broadcasts copy the root's bytes the same way.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_DIST_THREADCOLLECTIVE_H
#define MODELRT_TEST_DIST_THREADCOLLECTIVE_H

#include "modelrt/dist/Collective.h"

#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace modelrt {

/// The state the ranks of one group share.
class ThreadGroup {
public:
  explicit ThreadGroup(int ranks) : ranks(ranks) {}
  /// Runs \p body(collective) on every rank, each on its own thread.
  void run(const std::function<void(Collective &)> &body);
  /// Waits until every rank has arrived, then runs \p last once (on the
  /// last rank to arrive) before releasing them.
  void barrier(const std::function<void()> &last) {
    std::unique_lock<std::mutex> lock(mu);
    long gen = generation;
    if (++arrived == ranks) {
      last();
      arrived = 0, ++generation;
      cv.notify_all();
      return;
    }
    cv.wait(lock, [&] { return generation != gen; });
  }
  const int ranks;

private:
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
  long generation = 0;
};

/// One rank of a ThreadGroup.
class ThreadCollective final : public Collective {
public:
  ThreadCollective(ThreadGroup &group, int rank) : group(group), myRank(rank) {}
  int rank() const override { return myRank; }
  int size() const override { return group.ranks; }
  Status startSum(float *buf, size_t n) override {
    pending.push_back({buf, nullptr, n});
    return Status::ok();
  }
  Status startSum(double *buf, size_t n) override {
    pending.push_back({nullptr, buf, n});
    return Status::ok();
  }
  Status waitAll(const char *) override;
  /// A sum completes only when every rank waits for it.
  Status progress(bool &done) override {
    done = pending.empty();
    return Status::ok();
  }
  bool serializedThreads() const override { return true; }
  Status broadcast(void *buf, size_t bytes, int root) override;
  void abort(int) override {}

  /// Every rank's collective, indexed by rank (set by ThreadGroup::run).
  std::vector<ThreadCollective *> *peers = nullptr;

private:
  struct Op {
    float *f;
    double *d;
    size_t n;
  };
  ThreadGroup &group;
  int myRank;
  std::vector<Op> pending;
  void *bcastBuf = nullptr;
};

inline void ThreadGroup::run(const std::function<void(Collective &)> &body) {
  std::vector<std::unique_ptr<ThreadCollective>> colls;
  std::vector<ThreadCollective *> peers;
  for (int r = 0; r < ranks; ++r) {
    colls.push_back(std::make_unique<ThreadCollective>(*this, r));
    peers.push_back(colls.back().get());
  }
  for (auto &c : colls)
    c->peers = &peers;
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] { body(*colls[size_t(r)]); });
  for (std::thread &t : threads)
    t.join();
}

inline Status ThreadCollective::waitAll(const char *) {
  group.barrier([&] { // every rank's pending ops, in the same order
    for (size_t k = 0; k < pending.size(); ++k) {
      size_t n = pending[k].n;
      std::vector<double> total(n, 0.0);
      for (ThreadCollective *p : *peers)
        for (size_t i = 0; i < n; ++i)
          total[i] += p->pending[k].f ? double(p->pending[k].f[i]) : p->pending[k].d[i];
      for (ThreadCollective *p : *peers)
        for (size_t i = 0; i < n; ++i)
          p->pending[k].f ? void(p->pending[k].f[i] = float(total[i]))
                          : void(p->pending[k].d[i] = total[i]);
    }
    for (ThreadCollective *p : *peers)
      p->pending.clear();
  });
  return Status::ok();
}

inline Status ThreadCollective::broadcast(void *buf, size_t bytes, int root) {
  bcastBuf = buf;
  group.barrier([&] {
    for (ThreadCollective *p : *peers)
      if (p->myRank != root)
        std::memcpy(p->bcastBuf, (*peers)[size_t(root)]->bcastBuf, bytes);
  });
  return Status::ok();
}

} // namespace modelrt

#endif // MODELRT_TEST_DIST_THREADCOLLECTIVE_H
