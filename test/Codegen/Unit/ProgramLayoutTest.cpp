//===- ProgramLayoutTest.cpp - The emitted ABI structs match Program.h ----===//
//
// Compiles runtime/include/modelrt/core/Program.h with the C++ compiler and
// compares sizeof/alignof and offsetof of every field of every ABI struct
// with the offsets the LLVM types of ProgramLayout.h get from the host
// target's DataLayout (the one the object file is emitted with), and that
// the fields lie in the order listed here, the ABI's.
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/ProgramLayout.h"
#include "modelc/Target/ObjectEmitter.h"

#include "modelrt/core/Program.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

using namespace modelc;

namespace {

class ProgramLayoutTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto tm = createTargetMachine(TargetOptions{});
    ASSERT_TRUE(bool(tm)) << llvm::toString(tm.takeError());
    dl = std::make_unique<llvm::DataLayout>((*tm)->createDataLayout());
  }

  /// Expects `type` to have size `size` and the field offsets `offsets`.
  void check(llvm::StructType *type, size_t size, size_t align,
             const std::vector<size_t> &offsets) {
    const llvm::StructLayout *l = dl->getStructLayout(type);
    ASSERT_EQ(type->getNumElements(), offsets.size()) << type->getName().str();
    EXPECT_EQ(l->getSizeInBytes(), size) << type->getName().str();
    EXPECT_EQ(dl->getABITypeAlign(type).value(), align) << type->getName().str();
    for (unsigned i = 0; i < offsets.size(); ++i) {
      EXPECT_EQ(l->getElementOffset(i), offsets[i])
          << type->getName().str() << " field " << i;
      // The fields are listed in the ABI's order (the schema generates the
      // option structs: reordering it must fail here).
      if (i > 0)
        EXPECT_LT(offsets[i - 1], offsets[i])
            << type->getName().str() << " field " << i;
    }
  }

  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::DataLayout> dl;
};

#define OFF(T, f) offsetof(T, f)

TEST_F(ProgramLayoutTest, TensorDesc) {
  using T = ModelrtTensorDesc;
  check(ProgramLayout::get(ctx).tensorDesc, sizeof(T), alignof(T),
        {OFF(T, name), OFF(T, dtype), OFF(T, rank), OFF(T, shape),
         OFF(T, init_kind), OFF(T, init_args), OFF(T, fan_in), OFF(T, fan_out)});
}

TEST_F(ProgramLayoutTest, LayerInfo) {
  using T = ModelrtLayerInfo;
  check(ProgramLayout::get(ctx).layerInfo, sizeof(T), alignof(T),
        {OFF(T, name), OFF(T, rank), OFF(T, shape), OFF(T, num_params),
         OFF(T, flops), OFF(T, activation_bytes)});
}

TEST_F(ProgramLayoutTest, ProductOperands) {
  using T = ModelrtProductOperands;
  check(ProgramLayout::get(ctx).productOperands, sizeof(T), alignof(T),
        {OFF(T, kind), OFF(T, fixed_elements), OFF(T, per_sample_elements)});
}

TEST_F(ProgramLayoutTest, OptimizerConfig) {
  using T = ModelrtOptimizerConfig;
  check(ProgramLayout::get(ctx).optimizerConfig, sizeof(T), alignof(T),
        {OFF(T, kind), OFF(T, lr), OFF(T, momentum), OFF(T, dampening),
         OFF(T, nesterov), OFF(T, beta1), OFF(T, beta2), OFF(T, eps),
         OFF(T, alpha), OFF(T, weight_decay), OFF(T, clip_norm),
         OFF(T, accumulate)});
}

TEST_F(ProgramLayoutTest, ScheduleConfig) {
  using T = ModelrtScheduleConfig;
  check(ProgramLayout::get(ctx).scheduleConfig, sizeof(T), alignof(T),
        {OFF(T, kind), OFF(T, step_size), OFF(T, gamma), OFF(T, num_milestones),
         OFF(T, milestones), OFF(T, warmup_steps), OFF(T, total_steps),
         OFF(T, min_lr), OFF(T, factor), OFF(T, patience), OFF(T, threshold),
         OFF(T, total_epochs), OFF(T, pct_start), OFF(T, div_factor),
         OFF(T, final_div_factor)});
}

TEST_F(ProgramLayoutTest, DataConfig) {
  using T = ModelrtDataConfig;
  check(ProgramLayout::get(ctx).dataConfig, sizeof(T), alignof(T),
        {OFF(T, format), OFF(T, train_inputs), OFF(T, train_labels),
         OFF(T, test_inputs), OFF(T, test_labels), OFF(T, num_columns),
         OFF(T, columns), OFF(T, num_label_columns), OFF(T, label_columns),
         OFF(T, scale), OFF(T, num_norm),
         OFF(T, mean), OFF(T, std), OFF(T, one_hot), OFF(T, val_fraction),
         OFF(T, num_augment), OFF(T, augment), OFF(T, drop_last),
         OFF(T, resize_height), OFF(T, resize_width), OFF(T, center_crop),
         OFF(T, seq_len), OFF(T, tokens)});
}

TEST_F(ProgramLayoutTest, Augment) {
  using T = ModelrtAugment;
  check(ProgramLayout::get(ctx).augment, sizeof(T), alignof(T),
        {OFF(T, kind), OFF(T, args)});
}

TEST_F(ProgramLayoutTest, TrainConfig) {
  using T = ModelrtTrainConfig;
  check(ProgramLayout::get(ctx).trainConfig, sizeof(T), alignof(T),
        {OFF(T, optimizer), OFF(T, schedule), OFF(T, data), OFF(T, epochs),
         OFF(T, batch_size), OFF(T, seed), OFF(T, early_stop_patience),
         OFF(T, early_stop_min_delta), OFF(T, batch_norm_sync)});
}

TEST_F(ProgramLayoutTest, Program) {
  using T = ModelrtProgram;
  std::vector<size_t> offsets = {
      OFF(T, abi_version), OFF(T, name), OFF(T, num_params), OFF(T, params),
      OFF(T, num_state), OFF(T, state), OFF(T, input_rank),
      OFF(T, input_shape), OFF(T, input_dtype), OFF(T, label_dtype), OFF(T, num_classes),
      OFF(T, label_rank), OFF(T, label_shape), OFF(T, output_rank),
      OFF(T, output_shape), OFF(T, num_metrics), OFF(T, metric_names),
      OFF(T, config), OFF(T, context), OFF(T, train_step), OFF(T, eval_step),
      OFF(T, predict), OFF(T, train_flops_per_sample), OFF(T, set_threads),
      OFF(T, gpu_train_step), OFF(T, gpu_eval_step), OFF(T, gpu_predict),
      OFF(T, gpu_train_enqueue), OFF(T, gpu_train_finish),
      OFF(T, num_class_names), OFF(T, class_names), OFF(T, num_layers),
      OFF(T, layers), OFF(T, input_id_limit), OFF(T, has_ignore_index),
      OFF(T, ignore_index), OFF(T, num_vocab), OFF(T, vocab),
      OFF(T, decode_step), OFF(T, num_caches), OFF(T, caches),
      OFF(T, decode_length), OFF(T, precision), OFF(T, num_bf16_products),
      OFF(T, bf16_products), OFF(T, rounded_values), OFF(T, gpu_convolutions)};
  ASSERT_EQ(offsets.size(), size_t(PF_Count));
  check(ProgramLayout::get(ctx).program, sizeof(T), alignof(T), offsets);
  EXPECT_EQ(offsets[PF_Config], offsetof(T, config));
  EXPECT_EQ(offsets[PF_TrainStep], offsetof(T, train_step));
  EXPECT_EQ(offsets[PF_Layers], offsetof(T, layers));
  EXPECT_EQ(offsets[PF_InputDType], offsetof(T, input_dtype));
  EXPECT_EQ(offsets[PF_Vocab], offsetof(T, vocab));
  EXPECT_EQ(offsets[PF_DecodeLength], offsetof(T, decode_length));
  EXPECT_EQ(offsets[PF_Bf16Products], offsetof(T, bf16_products));
}

} // namespace
