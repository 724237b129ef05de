//===- CommThread.cpp - A collective whose operations run on one thread ----===//
//
// CommThread.h's thread: a queue of operations under one mutex, done in
// order; while sums are in flight and nothing is queued the thread polls
// them (Collective::progress) every kPollInterval, else it sleeps on a
// condition variable.
//
//===----------------------------------------------------------------------===//
#include "modelrt/dist/CommThread.h"

#include <chrono>

namespace modelrt {

namespace {
/// How often the thread advances the sums in flight while it has nothing
/// queued: often enough that a step's sums complete soon after their last
/// message arrives, rarely enough to take little from the computing threads.
constexpr std::chrono::microseconds kPollInterval(50);
} // namespace

CommThread::CommThread(Collective &innerIn)
    : inner(innerIn), ranks(innerIn.rank()), worldSize(innerIn.size()),
      thread([this] { loop(); }) {}

CommThread::~CommThread() {
  {
    std::lock_guard<std::mutex> lock(mu);
    stopping = true;
  }
  work.notify_one();
  thread.join();
}

uint64_t CommThread::push(const Op &op) {
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(mu);
    queue.push_back(op);
    ticket = ++pushed;
  }
  work.notify_one();
  return ticket;
}

Status CommThread::await(uint64_t ticket) {
  std::unique_lock<std::mutex> lock(mu);
  done.wait(lock, [&] { return finished >= ticket; });
  return lastBlocking;
}

Status CommThread::startSum(float *buf, size_t n) {
  push({Kind::SumFloat, buf, n, 0, nullptr});
  return Status::ok();
}

Status CommThread::startSum(double *buf, size_t n) {
  push({Kind::SumDouble, buf, n, 0, nullptr});
  return Status::ok();
}

Status CommThread::waitAll(const char *what) {
  return await(push({Kind::Wait, nullptr, 0, 0, what}));
}

Status CommThread::broadcast(void *buf, size_t bytes, int root) {
  return await(push({Kind::Broadcast, buf, bytes, root, nullptr}));
}

Status CommThread::progress(bool &isDone) {
  std::lock_guard<std::mutex> lock(mu);
  isDone = queue.empty() && !inFlight;
  return Status::ok();
}

Status CommThread::run(const Op &op) {
  switch (op.kind) {
  case Kind::SumFloat:
    return inner.startSum(static_cast<float *>(op.buf), op.n);
  case Kind::SumDouble:
    return inner.startSum(static_cast<double *>(op.buf), op.n);
  case Kind::Wait:
    return inner.waitAll(op.what);
  case Kind::Broadcast:
    return inner.broadcast(op.buf, op.n, op.root);
  }
  return Status::ok();
}

void CommThread::loop() {
  std::unique_lock<std::mutex> lock(mu);
  for (;;) {
    if (queue.empty() && !stopping) {
      if (inFlight)
        work.wait_for(lock, kPollInterval);
      else
        work.wait(lock, [&] { return !queue.empty() || stopping; });
    }
    if (stopping)
      return;
    if (queue.empty()) { // polled: advance the sums in flight
      lock.unlock();
      bool complete = false;
      Status st = inner.progress(complete);
      lock.lock();
      inFlight = !complete && st.isOk();
      if (!st.isOk() && firstError.isOk())
        firstError = st;
      continue;
    }
    Op op = queue.front();
    queue.pop_front();
    lock.unlock();
    Status st = run(op);
    lock.lock();
    bool blocking = op.kind == Kind::Wait || op.kind == Kind::Broadcast;
    if (!blocking) {
      inFlight = true;
      if (!st.isOk() && firstError.isOk())
        firstError = st;
    } else {
      inFlight = false;
      lastBlocking = op.kind == Kind::Wait && !firstError.isOk() ? firstError : st;
      if (op.kind == Kind::Wait)
        firstError = Status::ok();
    }
    ++finished;
    done.notify_all();
  }
}

} // namespace modelrt
