//===- CudaGraph.cpp - A training step captured once, replayed as a graph --===//
//
// Implements StepGraph of modelrt/cuda/Cuda.h: cuStreamBeginCapture (relaxed
// mode) on the compute stream, the caller's host code (which enqueues the
// step's launches, sgemm calls, memsets and copies), cuStreamEndCapture and
// cuGraphInstantiate; then one cuGraphLaunch per step. While capturing,
// CUDA errors go to the capture, not to the sticky error (so a step that
// cannot be captured still runs without a graph), and the device pool
// remembers the blocks the step allocates and frees: they stay reserved for
// the graph, whose replays use them at the same addresses.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"
#include "DevicePool.h"

namespace modelrt {
namespace cuda {
namespace {

/// "capturing the training step: WHAT failed with NAME".
Status captureFailure(const char *what, CUresult r) {
  return Status::error(std::string("capturing the step as a CUDA graph: ") + what +
                       " failed with " + resultName(r));
}

/// Ends the capture scope begun by capture(): the stream, the pool and the
/// error scope go back to normal. Returns the graph (null when none) and the
/// first error of the capture.
Status endCapture(CudaState &s, CUgraph &graph, std::vector<void *> &blocks) {
  CUresult r = driverApi()->cuStreamEndCapture(s.compute, &graph);
  s.capturing = false;
  blocks = devicePool().endCapture();
  Status errors = endCaptureErrors();
  if (!errors)
    return Status::error("capturing the step as a CUDA graph: " + errors.message());
  if (r != CUDA_SUCCESS)
    return captureFailure("cuStreamEndCapture", r);
  return Status::ok();
}

} // namespace

bool capturing() {
  CudaState *s = cudaState();
  return s && s->capturing.load();
}

Expected<StepGraph> StepGraph::capture(const std::function<Status()> &enqueue) {
  MODELRT_TRY(stickyStatus());
  MODELRT_TRY(initCuda());
  CudaState &s = *cudaState();
  const DriverApi &api = *driverApi();
  StepGraph g;
  beginCaptureErrors();
  devicePool().beginCapture();
  s.capturing = true;
  CUresult r = api.cuStreamBeginCapture(s.compute, CU_STREAM_CAPTURE_MODE_RELAXED);
  if (r != CUDA_SUCCESS) {
    s.capturing = false;
    g.blocks = devicePool().endCapture();
    (void)endCaptureErrors();
    return captureFailure("cuStreamBeginCapture", r);
  }
  Status work = enqueue();
  CUgraph graph = nullptr;
  Status ended = endCapture(s, graph, g.blocks);
  g.graph = graph;
  MODELRT_TRY(ended);
  if (!work)
    return Status::error("capturing the step as a CUDA graph: " + work.message());
  size_t nodes = 0;
  if ((r = api.cuGraphGetNodes(graph, nullptr, &nodes)) != CUDA_SUCCESS)
    return captureFailure("cuGraphGetNodes", r);
  g.nodes = nodes;
  CUgraphExec exec = nullptr;
  if ((r = api.cuGraphInstantiate(&exec, graph, 0)) != CUDA_SUCCESS)
    return captureFailure("cuGraphInstantiate", r);
  g.exec = exec;
  return g;
}

Status StepGraph::launch() {
  MODELRT_TRY(stickyStatus());
  MODELRT_TRY(initCuda());
  if (!checkCu(driverApi()->cuGraphLaunch(static_cast<CUgraphExec>(exec),
                                          cudaState()->compute),
               "cuGraphLaunch (the training step's graph)"))
    return stickyStatus();
  return Status::ok();
}

StepGraph::StepGraph(StepGraph &&other) noexcept
    : graph(other.graph), exec(other.exec), nodes(other.nodes),
      blocks(std::move(other.blocks)) {
  other.graph = other.exec = nullptr;
  other.blocks.clear();
}

StepGraph &StepGraph::operator=(StepGraph &&other) noexcept {
  if (this != &other) {
    reset();
    graph = other.graph, exec = other.exec, nodes = other.nodes;
    blocks = std::move(other.blocks);
    other.graph = other.exec = nullptr;
    other.blocks.clear();
  }
  return *this;
}

StepGraph::~StepGraph() { reset(); }

void StepGraph::reset() {
  const DriverApi *api = cudaState() ? driverApi() : nullptr;
  if (api && (exec || !blocks.empty()))
    api->cuStreamSynchronize(cudaState()->compute); // no replay in flight
  if (api && exec)
    api->cuGraphExecDestroy(static_cast<CUgraphExec>(exec));
  if (api && graph)
    api->cuGraphDestroy(static_cast<CUgraph>(graph));
  for (void *block : blocks)
    (void)devicePool().free(block);
  graph = exec = nullptr;
  blocks.clear();
}

} // namespace cuda
} // namespace modelrt
