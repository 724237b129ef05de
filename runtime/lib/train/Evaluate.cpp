//===- Evaluate.cpp - Evaluation and prediction over a data set ------------===//
#include "modelrt/train/Evaluate.h"
#include "modelrt/core/FrozenParameters.h"
#include "modelrt/core/Profile.h"

#include <algorithm>

namespace modelrt {

bool countsEachLabel(const ModelrtProgram &p, DType labels) {
  return labels == DType::I64 && (p.label_rank > 0 || p.has_ignore_index);
}

int64_t countedLabels(const ModelrtProgram &p, const Batch &b) {
  if (!countsEachLabel(p, b.labels.dtype()))
    return b.size;
  const int64_t *l = b.labels.as<int64_t>();
  int64_t n = b.labels.numElements(), ignored = 0;
  for (int64_t i = 0; p.has_ignore_index && i < n; ++i)
    ignored += l[i] == p.ignore_index;
  return n - ignored;
}

/// \p runner, or a new CPU runner kept in \p owned.
static Expected<StepRunner *> runnerOrCpu(const ModelrtProgram &prog, StepRunner *runner,
                                          std::unique_ptr<StepRunner> &owned) {
  if (runner)
    return runner;
  auto cpu = StepRunner::create(prog, Device::Cpu);
  if (!cpu)
    return cpu.status();
  owned = cpu.take();
  return owned.get();
}

/// Sums the evaluation sums of every rank.
static Status sumEvaluation(Collective &ranks, LossSums &sums) {
  std::vector<double> v = {sums.loss, double(sums.samples), double(sums.counted)};
  v.insert(v.end(), sums.metrics.begin(), sums.metrics.end());
  MODELRT_TRY(ranks.sum(v.data(), v.size(), "the sum of the evaluation"));
  sums.loss = v[0], sums.samples = int64_t(v[1]), sums.counted = int64_t(v[2]);
  std::copy(v.begin() + 3, v.end(), sums.metrics.begin());
  return Status::ok();
}

Expected<EvalResult> evaluateDataset(const ModelrtProgram &prog, ModelState &model,
                                     const Dataset &data, int64_t batchSize, bool oneHot,
                                     StepRunner *runner, Collective *ranks) {
  std::unique_ptr<StepRunner> owned;
  auto steps = runnerOrCpu(prog, runner, owned);
  if (!steps)
    return steps.status();
  LoaderConfig lc;
  lc.batchSize = batchSize, lc.shuffle = false, lc.prefetch = 0;
  lc.oneHotClasses = oneHot ? prog.num_classes : 0;
  if (ranks)
    lc.shardRank = ranks->rank(), lc.shardCount = ranks->size();
  DataLoader loader(data, lc);
  MODELRT_TRY(loader.validate());
  FrozenParameters frozen(model.params); // bf16 products round the weights once
  if (Status st = (*steps)->warmUp(model, StepRunner::StepKind::Eval,
                                   std::min<int64_t>(batchSize, data.size()));
      !st.isOk())
    return errorf("%s: %s", data.name.c_str(), st.message().c_str());
  LossSums sums;
  sums.metrics.assign(prog.num_metrics, 0.0);
  std::vector<double> ms(prog.num_metrics);
  Batch b;
  while (loader.next(b)) {
    if (b.size == 0) // this rank's slice of a small last batch
      continue;
    float loss = 0;
    std::fill(ms.begin(), ms.end(), 0.0);
    PhaseTimer timer(Phase::Eval);
    if (Status st = (*steps)->eval(model, b, &loss, ms.data()); !st.isOk())
      return errorf("%s: %s", data.name.c_str(), st.message().c_str());
    // eval's loss is the sum over the counted labels divided by the samples
    sums.add(double(loss) * b.size, b.size, countedLabels(prog, b), ms);
  }
  if (ranks)
    MODELRT_TRY(sumEvaluation(*ranks, sums));
  return sums.means();
}

Expected<Tensor> predictTensor(const ModelrtProgram &prog, ModelState &model, const Tensor &x,
                               int64_t batchSize, StepRunner *runner) {
  std::unique_ptr<StepRunner> owned;
  auto steps = runnerOrCpu(prog, runner, owned);
  if (!steps)
    return steps.status();
  int64_t n = x.dim(0), per = x.numElements() / std::max<int64_t>(n, 1);
  int64_t outPer = shapeNumElements(
      std::vector<int64_t>(prog.output_shape, prog.output_shape + prog.output_rank));
  std::vector<int64_t> shape = {n};
  shape.insert(shape.end(), prog.output_shape, prog.output_shape + prog.output_rank);
  Tensor out(DType::F32, shape);
  FrozenParameters frozen(model.params); // bf16 products round the weights once
  MODELRT_TRY((*steps)->warmUp(model, StepRunner::StepKind::Predict, std::min(batchSize, n)));
  for (int64_t s = 0; s < n; s += batchSize) {
    int64_t b = std::min(batchSize, n - s);
    const char *in = static_cast<const char *>(x.data()) + size_t(s * per) * dtypeSize(x.dtype());
    if (Status st = (*steps)->predict(model, in, b, out.as<float>() + s * outPer); !st.isOk())
      return errorf("%s on samples %lld..%lld", st.message().c_str(), (long long)s,
                    (long long)(s + b - 1));
  }
  return out;
}

} // namespace modelrt
