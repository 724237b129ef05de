//===- Evaluate.h - Evaluation and prediction over a data set --------------===//
//
// Implements what `eval`, `predict` and the validation after each epoch
// run: eval_step over a data set in batches (the loss and metric means over
// its counted labels, summed over the ranks of a data-parallel run) and
// predict over a tensor of inputs, on the CPU or a StepRunner's device, the
// parameters frozen for the pass (bf16 products round each weight once).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_EVALUATE_H
#define MODELRT_TRAIN_EVALUATE_H

#include "modelrt/core/Device.h"
#include "modelrt/core/Model.h"
#include "modelrt/dist/Collective.h"
#include "modelrt/train/LossSums.h"

namespace modelrt {

/// Whether labels of type \p labels are counted one by one (countedLabels):
/// class labels per position, or with cross_entropy's ignore_index.
bool countsEachLabel(const ModelrtProgram &program, DType labels);

/// The labels of \p batch that the loss and the metrics average over: its
/// samples, or, for class labels per position or with cross_entropy's
/// ignore_index, its labels other than the ignore index.
int64_t countedLabels(const ModelrtProgram &program, const Batch &batch);

/// Runs eval_step over \p data in batches of \p batchSize.
/// Runs the steps on \p runner's device (null: the CPU). With \p ranks,
/// each rank evaluates its slice of every batch and the sums are summed.
Expected<EvalResult> evaluateDataset(const ModelrtProgram &program, ModelState &model,
                                     const Dataset &data, int64_t batchSize, bool oneHot,
                                     StepRunner *runner = nullptr, Collective *ranks = nullptr);
/// Runs predict on every sample of \p inputs ([N, input...] f32, transformed).
Expected<Tensor> predictTensor(const ModelrtProgram &program, ModelState &model,
                               const Tensor &inputs, int64_t batchSize,
                               StepRunner *runner = nullptr);

} // namespace modelrt

#endif // MODELRT_TRAIN_EVALUATE_H
