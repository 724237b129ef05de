//===- FakeCudaQueue.h - The fake driver's streams, for its other parts ----===//
//
// Declares what FakeCudaDriver.cpp shares with the other sources of the
// fake library (FakeCudnn.cpp): its stream order (work runs at once, or is
// recorded while the stream is being captured into a graph), the host
// address of a fake device pointer, and its counters. Internal to the fake.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_FAKECUDAQUEUE_H
#define MODELRT_TEST_FAKECUDAQUEUE_H

#include "FakeCudaDriver.h"

#include <cuda.h>

#include <functional>

/// Runs \p op now, or records it when \p stream is being captured.
CUresult fakeCudaEnqueue(CUstream stream, std::function<void()> op);
/// The host address of the fake device pointer \p device.
void *fakeCudaHostPointer(const void *device);
/// The counters fakeCudaCounters() returns.
FakeCudaCounters &fakeCudaMutableCounters();

#endif // MODELRT_TEST_FAKECUDAQUEUE_H
