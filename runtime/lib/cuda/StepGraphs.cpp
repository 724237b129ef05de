//===- StepGraphs.cpp - The GPU training step's CUDA graphs ----------------===//
//
// Implements StepGraphs.h: lookup by key, capture on the second sighting,
// eviction of the oldest graph beyond kMaxGraphs, and the summary line.
//
//===----------------------------------------------------------------------===//
#include "StepGraphs.h"

#include "modelrt/core/Profile.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace modelrt {

StepGraphs::StepGraphs() {
  const char *env = std::getenv("MODELRT_CUDA_GRAPHS");
  requested = !(env && std::strcmp(env, "0") == 0);
}

bool StepGraphs::enabled() const { return requested && failure.empty() && !profiling(); }

cuda::StepGraph *StepGraphs::find(const GraphKey &key, const std::function<Status()> &work) {
  if (!requested)
    return nullptr;
  if (!enabled()) {
    ++eager;
    return nullptr;
  }
  for (auto &entry : graphs)
    if (entry.first == key) {
      ++replays;
      return &entry.second;
    }
  if (std::find(seen.begin(), seen.end(), key) == seen.end()) {
    seen.push_back(key);
    ++eager;
    return nullptr;
  }
  auto graph = cuda::StepGraph::capture(work);
  if (!graph) {
    failure = graph.message();
    graphs.clear();
    ++eager;
    return nullptr;
  }
  if (graphs.size() == kMaxGraphs)
    graphs.erase(graphs.begin());
  graphs.emplace_back(key, graph.take());
  ++captures, ++replays;
  return &graphs.back().second;
}

std::string StepGraphs::summary() const {
  if (!requested)
    return "";
  std::string counts = std::to_string(replays) + " of " + std::to_string(replays + eager) +
                       " training steps replayed from " + std::to_string(captures) +
                       " captured graph" + (captures == 1 ? "" : "s");
  if (!failure.empty())
    return "CUDA graphs turned off (" + failure + "); " + counts;
  if (profiling())
    return "CUDA graphs not used under --profile (its events time each launch)";
  std::string nodes;
  for (const auto &entry : graphs)
    nodes += (nodes.empty() ? "" : ", ") + std::to_string(entry.second.nodeCount());
  return "CUDA graphs: " + counts + (nodes.empty() ? "" : " (nodes: " + nodes + ")");
}

} // namespace modelrt
