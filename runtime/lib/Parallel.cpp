//===- Parallel.cpp - The helper thread of runInTwoParts -------------------===//
#include "modelrt/Parallel.h"

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace modelrt {
namespace {

/// One persistent thread that runs one job at a time.
class HelperThread {
public:
  HelperThread() : thread([this] { loop(); }) {}
  ~HelperThread() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_one();
    thread.join();
  }
  /// Starts \p fn on the helper thread.
  void start(const std::function<void()> *fn) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      job = fn;
      finished = false;
    }
    wake.notify_one();
  }
  /// Waits for the job started last.
  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [this] { return finished; });
  }

private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [this] { return stopping || job; });
      if (stopping)
        return;
      const std::function<void()> *fn = job;
      job = nullptr;
      lock.unlock();
      (*fn)();
      lock.lock();
      finished = true;
      done.notify_one();
    }
  }
  std::mutex mutex;
  std::condition_variable wake, done;
  const std::function<void()> *job = nullptr;
  bool finished = true, stopping = false;
  std::thread thread; // last: started once the members above exist
};

bool decideParallel() {
  const char *env = std::getenv("MODELRT_THREADS");
  if (env && std::strcmp(env, "1") == 0)
    return false;
  return std::thread::hardware_concurrency() >= 2;
}

} // namespace

bool twoPartsInParallel() {
  static const bool parallel = decideParallel();
  return parallel;
}

void runInTwoParts(const std::function<void(int part)> &part) {
  if (!twoPartsInParallel()) {
    part(0);
    part(1);
    return;
  }
  static HelperThread helper;
  static std::mutex oneCaller; // the helper serves one caller at a time
  std::lock_guard<std::mutex> lock(oneCaller);
  std::function<void()> second = [&] { part(1); };
  helper.start(&second);
  part(0);
  helper.wait();
}

} // namespace modelrt
