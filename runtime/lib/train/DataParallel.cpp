//===- DataParallel.cpp - Data-parallel training over the ranks of a run ---===//
#include "modelrt/train/DataParallel.h"

#include <cstdio>
#include <cstring>
#include <memory>

namespace modelrt {

/// A communication thread for \p c when it has several ranks and allows one.
static std::unique_ptr<CommThread> commThreadFor(Collective &c) {
  if (c.size() <= 1 || !c.serializedThreads())
    return nullptr;
  return std::make_unique<CommThread>(c);
}

DataParallel::DataParallel(Collective &collective, std::vector<int64_t> paramSizes)
    : coll(collective), thread(commThreadFor(collective)),
      grads(stepCollective(), std::move(paramSizes)) {
  // The generated step's sums (sync batch norm) queue behind the gradient
  // buckets on the same collective, in the same order on every rank.
  setStepCollective(&stepCollective());
}

DataParallel::~DataParallel() { setStepCollective(nullptr); }

void DataParallel::packFigures(const StepFigures &f) {
  // counted, loss * counted, samples, stops, then the metric sums.
  scratch.assign(4 + f.metrics.size(), 0.0);
  scratch[0] = double(f.counted), scratch[1] = double(f.loss) * double(f.counted);
  scratch[2] = double(f.samples), scratch[3] = double(f.stops);
  std::copy(f.metrics.begin(), f.metrics.end(), scratch.begin() + 4);
}

void DataParallel::unpackFigures(StepFigures &f) const {
  double total = scratch[0];
  f.counted = int64_t(total);
  f.loss = total > 0 ? float(scratch[1] / total) : 0.0f;
  f.samples = int64_t(scratch[2]), f.stops = int64_t(scratch[3]);
  std::copy(scratch.begin() + 4, scratch.end(), f.metrics.begin());
}

void DataParallel::beginStep(float *const *g, int64_t counted) {
  grads.beginStep(g, float(counted));
  begun = true;
}

Status DataParallel::reduceStep(StepFigures &f, float *const *g) {
  if (!begun)
    beginStep(g, f.counted);
  begun = false;
  // The figures are summed after every gradient bucket, and waited for
  // with them.
  packFigures(f);
  grads.announceRest();
  MODELRT_TRY(stepCollective().startSum(scratch.data(), scratch.size()));
  MODELRT_TRY(grads.finishStep());
  double total = scratch[0];
  grads.copyBack(total > 0 ? float(1.0 / total) : 0.0f);
  unpackFigures(f);
  return Status::ok();
}

Expected<float> DataParallel::reduceFigures(StepFigures &f) {
  packFigures(f);
  MODELRT_TRY(stepCollective().sum(scratch.data(), scratch.size(),
                                   "the sum of the step's loss"));
  double total = scratch[0];
  float weight = total > 0 ? float(double(f.counted) / total) : 0.0f;
  unpackFigures(f);
  return weight;
}

Status DataParallel::averageState(ModelState &model) {
  for (std::vector<float> &s : model.state)
    MODELRT_TRY(coll.startSum(s.data(), s.size()));
  MODELRT_TRY(coll.waitAll("the mean of the model's state"));
  float scale = 1.0f / float(coll.size());
  for (std::vector<float> &s : model.state)
    for (float &v : s)
      v *= scale;
  return Status::ok();
}

uint64_t hashBytes(const void *bytes, size_t n, uint64_t seed) {
  const uint64_t prime = 0x100000001b3ull;
  uint64_t lanes[4] = {seed ^ 0xcbf29ce484222325ull, seed + 1, seed + 2, seed + 3};
  const unsigned char *p = static_cast<const unsigned char *>(bytes);
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * l, 8);
      lanes[l] = (lanes[l] ^ w) * prime;
    }
  uint64_t h = lanes[0] ^ (lanes[1] * 3) ^ (lanes[2] * 5) ^ (lanes[3] * 7);
  for (; i < n; ++i)
    h = (h ^ p[i]) * prime;
  return (h ^ n) * prime;
}

Expected<uint64_t> hashFile(const std::string &path) {
  std::unique_ptr<FILE, int (*)(FILE *)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f)
    return errorf("%s: cannot read it to compare it between the ranks", path.c_str());
  std::vector<unsigned char> buf(size_t(1) << 20);
  uint64_t h = 0;
  for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0;)
    h = hashBytes(buf.data(), n, h);
  if (std::ferror(f.get()))
    return errorf("%s: read error while comparing it between the ranks", path.c_str());
  return h;
}

Expected<uint64_t> hashDataset(const Dataset &d) {
  if (!d.mapped)
    return hashBytes(d.labels.data(), d.labels.numBytes(),
                     hashBytes(d.inputs.data(), d.inputs.numBytes()));
  auto inputs = hashFile(d.name);
  if (!inputs || d.labelsName.empty())
    return inputs;
  auto labels = hashFile(d.labelsName);
  if (!labels)
    return labels;
  return *inputs * 31 + *labels;
}

Status checkSameRun(Collective &c, const RunIdentity &mine) {
  size_t n = mine.size(), ranks = size_t(c.size());
  std::vector<uint64_t> root(n);
  for (size_t i = 0; i < n; ++i)
    root[i] = mine[i].second;
  MODELRT_TRY(c.broadcast(root.data(), n * sizeof(uint64_t), 0));
  std::vector<double> differs(ranks * n, 0.0); // [rank][item]
  for (size_t i = 0; i < n; ++i)
    differs[size_t(c.rank()) * n + i] = root[i] != mine[i].second ? 1.0 : 0.0;
  MODELRT_TRY(c.sum(differs.data(), differs.size(), "the comparison of the ranks"));
  for (size_t r = 0; r < ranks; ++r)
    for (size_t i = 0; i < n; ++i)
      if (differs[r * n + i] != 0)
        return errorf("rank %zu of %zu runs with another %s than rank 0 (compared by hash "
                      "before the first step); every rank must run the same executable, "
                      "model, command line and data", r, ranks, mine[i].first.c_str());
  return Status::ok();
}

} // namespace modelrt
