//===- GradCheckCommand.cpp - The gradcheck subcommand --------------------===//
//
// Implements `NAME gradcheck` (docs/cli.md): the parameters from
// --checkpoint (read only) or from the initialisation with the seed, the
// training set's first batch (--batch, --data-dir as `train` reads them,
// in file order, without augmentation), the first training step's seed,
// then checkGradients (train/GradCheck.h) on the CPU and its table. Returns
// an error (exit status 1) when a parameter tensor fails. Writes no file.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"

#include "modelrt/train/GradCheck.h"
#include "modelrt/train/Trainer.h"

#include <cstdio>

namespace modelrt {
namespace {

/// The parameters to check at: --checkpoint, else the initialisation.
/// Without --seed, a checkpoint's recorded run seed replaces \p seed, so
/// that the training set (and its first batch) is that run's.
Expected<ModelState> startingPoint(const ModelrtProgram &p, const CliArgs &a, uint64_t &seed,
                                   std::string &from) {
  auto it = a.flags.find("--checkpoint");
  if (it == a.flags.end()) {
    from = "the initialisation with seed " + std::to_string(seed);
    return initModelState(p, seed);
  }
  from = it->second;
  std::optional<uint64_t> runSeed;
  auto m = loadModel(p, a, it->second, &runSeed);
  if (m && runSeed && !a.flags.count("--seed"))
    seed = *runSeed;
  return m;
}

/// The first \p batchSize samples of the training set, as train's loader
/// would assemble them (one-hot when configured), unshuffled and unaugmented.
Expected<Batch> firstBatch(const ModelrtProgram &p, const ModelrtTrainConfig &cfg,
                           const Dataset &train) {
  LoaderConfig lc;
  lc.batchSize = cfg.batch_size, lc.shuffle = false, lc.prefetch = 0;
  lc.oneHotClasses = cfg.data.one_hot ? p.num_classes : 0;
  DataLoader loader(train, lc);
  MODELRT_TRY(loader.validate());
  Batch b;
  if (!loader.next(b))
    return errorf("gradcheck: %s: the training set is empty", train.name.c_str());
  return b;
}

/// Prints what is checked and how: the batch, the starting point, the f32
/// criterion and what a kink is.
void printHeader(const ModelrtProgram &p, const GradCheckOptions &o, const Batch &b,
                 const std::string &data, const std::string &from) {
  std::printf("gradcheck %s: batch of the first %lld samples of %s; parameters from %s\n",
              p.name ? p.name : "", (long long)b.size, data.c_str(), from.c_str());
  std::printf("every evaluation runs in f32: central differences (L(p + h) - L(p - h)) / 2h "
              "with h = 1e-2 * max(1, |p|) on at most %lld elements per tensor\n",
              (long long)o.samples);
  std::printf("an element passes when |a - n| <= %g * max(|a|, |n|, floor), the floor being "
              "the f32 loss's rounding noise over the step / %g (f32 differences agree to "
              "about 1e-3, not to float64's 1e-7)\n", o.tolerance, o.tolerance);
  std::printf("an element that fails, whose one-sided differences disagree and whose analytic "
              "gradient matches one of them, lies within h of a kink (relu, max-pool): it is "
              "listed as a kink and left out of the verdict\n");
  std::printf("in a tensor with kinks, an element that misses by at most %g * %g is "
              "inconclusive (many relu kinks within h bend f32 and even float64 differences "
              "by a few percent): listed and left out; larger misses fail\n",
              kInconclusiveFactor, o.tolerance);
}

} // namespace

Status runGradCheck(const ModelrtProgram &p, const CliArgs &a) {
  ModelrtTrainConfig cfg;
  std::vector<std::string> dataPaths;
  MODELRT_TRY(runConfig(p, a, cfg, dataPaths));
  GradCheckOptions o;
  MODELRT_TRY(integerFlag(a, "--samples", o.samples, true));
  MODELRT_TRY(numberFlag(a, "--tolerance", o.tolerance, true));
  MODELRT_TRY(validateProgram(p));
  if (p.rounded_values)
    return errorf("gradcheck: model '%s' computes in bf16 or f16 (its own element types): its "
                  "loss moves in steps of those types' rounding, which finite differences cannot "
                  "follow; check the gradients of a copy written with f32 types",
                  p.name ? p.name : "?");
  if (p.precision == MODELRT_PRECISION_BF16)
    return errorf("gradcheck: this program trains at precision bf16: its products round their "
                  "operands to bf16, so its loss moves in steps that finite differences cannot "
                  "follow; check a build of the same model with `modelc --precision=f32`, whose "
                  "gradients are computed by the same rules");
  std::string from;
  auto model = startingPoint(p, a, cfg.seed, from);
  if (!model)
    return model.status();
  auto data = loadTrainingData(p, cfg);
  if (!data)
    return data.status();
  auto batch = firstBatch(p, cfg, data->train);
  if (!batch)
    return batch.status();
  auto runner = StepRunner::create(p, Device::Cpu);
  if (!runner)
    return runner.status();
  o.seed = stepSeed(cfg.seed, 0, 0), o.step = 0; // the first training step's
  printHeader(p, o, *batch, data->train.name, from);
  auto report = checkGradients(p, **runner, *model, *batch, o);
  if (!report)
    return report.status();
  std::printf("loss %.6f (f32)\n", double(report->loss));
  printGradCheckReport(stdout, *report);
  if (!report->passed())
    return errorf("gradcheck: gradients differ from their finite differences (the table "
                  "above names them)");
  if (!report->verified())
    return errorf("gradcheck: some parameter tensors could not be verified (the line above "
                  "names them)");
  return Status::ok();
}

} // namespace modelrt
