//===- StepGraphs.h - The GPU training step's CUDA graphs (internal) -------===//
//
// Declares StepGraphs, used by the GPU step runner (GpuSteps.cpp) unless
// MODELRT_CUDA_GRAPHS=0: a training step is captured as a CUDA graph the
// second time its key (batch size, batch buffers) comes up, the first run
// having been eager (the driver's and cuBLAS's first-use work then happens
// outside the capture), and replayed from then on. A failed capture turns
// graphs off for the run, and the steps go on without them; summary() says
// so. Off under --profile (its events time each launch).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CUDA_STEPGRAPHS_H
#define MODELRT_LIB_CUDA_STEPGRAPHS_H

#include "modelrt/cuda/Cuda.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace modelrt {

/// What a captured step bakes in besides its buffers of parameters, state and
/// gradients (fixed for the runner's life).
struct GraphKey {
  int64_t batch;
  const void *inputs, *labels; ///< the batch's device buffers
  bool withNorm;               ///< the gradients' norm is part of the step
  bool operator==(const GraphKey &o) const {
    return batch == o.batch && inputs == o.inputs && labels == o.labels &&
           withNorm == o.withNorm;
  }
};

class StepGraphs {
public:
  /// Reads MODELRT_CUDA_GRAPHS (0: off; on otherwise).
  StepGraphs();
  /// The graph to replay for \p key, captured from \p work now when the key
  /// was seen before; null when the step must run eagerly (graphs not asked
  /// for or off, first sight, or the capture failed).
  cuda::StepGraph *find(const GraphKey &key, const std::function<Status()> &work);
  /// "CUDA graphs: N of M training steps replayed ..." or why graphs were
  /// turned off; "" when MODELRT_CUDA_GRAPHS=0 turned them off.
  std::string summary() const;
  /// Zeroes the step counts of the summary (after the memory plan's steps).
  void resetCounts() { replays = eager = 0; }

private:
  /// Whether steps may be replayed as graphs now.
  bool enabled() const;
  static constexpr size_t kMaxGraphs = 8;
  bool requested = false;
  std::string failure; ///< why graphs were turned off
  std::vector<std::pair<GraphKey, cuda::StepGraph>> graphs;
  std::vector<GraphKey> seen;
  int64_t replays = 0, eager = 0, captures = 0;
};

} // namespace modelrt

#endif // MODELRT_LIB_CUDA_STEPGRAPHS_H
