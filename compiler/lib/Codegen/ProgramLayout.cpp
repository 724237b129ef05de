//===- ProgramLayout.cpp - LLVM types mirroring modelrt/core/Program.h ----===//
//
// One LLVM struct per C struct of runtime/include/modelrt/core/Program.h,
// fields in declaration order with the same scalar types (int32_t -> i32,
// int64_t/uint64_t -> i64, double -> double, pointers -> ptr). The option
// structs follow the schema (modelsupport/TrainConfig.def) as the header
// does; the others are kept in sync with the header by hand.
// ProgramLayoutTest compares every offset.
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/ProgramLayout.h"

#include "modelrt/core/Program.h"

using namespace modelc;

static llvm::StructType *named(llvm::LLVMContext &ctx, llvm::StringRef name,
                               llvm::ArrayRef<llvm::Type *> fields) {
  if (auto *t = llvm::StructType::getTypeByName(ctx, name))
    return t;
  return llvm::StructType::create(ctx, fields, name);
}

ProgramLayout ProgramLayout::get(llvm::LLVMContext &ctx) {
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *f64 = llvm::Type::getDoubleTy(ctx);
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  ProgramLayout l;
  l.tensorDesc = named(ctx, "ModelrtTensorDesc",
                       {ptr, i32, i32, ptr, i32, llvm::ArrayType::get(f64, 2),
                        i64, i64});
  // name, rank, shape, num_params, flops, activation_bytes
  l.layerInfo = named(ctx, "ModelrtLayerInfo", {ptr, i32, ptr, i64, f64, i64});
  // kind, fixed_elements, per_sample_elements
  llvm::Type *i64Pair = llvm::ArrayType::get(i64, 2);
  l.productOperands =
      named(ctx, "ModelrtProductOperands", {i32, i64Pair, i64Pair});
  // The options' structs, field for field from the schema.
  auto add = [&](std::vector<llvm::Type *> &fields, AbiFieldType type) {
    switch (type) {
    case AbiFieldType::I32:
      return fields.push_back(i32);
    case AbiFieldType::I64:
    case AbiFieldType::U64:
      return fields.push_back(i64);
    case AbiFieldType::F64:
      return fields.push_back(f64);
    case AbiFieldType::I64_LIST:
      fields.push_back(i32);
      return fields.push_back(ptr);
    }
  };
  std::vector<llvm::Type *> opt, sched, train;
#define MODELRT_ABI_OPTIMIZER(TYPE, NAME, READ, CXX) add(opt, AbiFieldType::TYPE);
#define MODELRT_ABI_SCHEDULE(TYPE, NAME, READ, CXX) add(sched, AbiFieldType::TYPE);
#include "modelsupport/TrainConfig.def"
  l.optimizerConfig = named(ctx, "ModelrtOptimizerConfig", opt);
  l.scheduleConfig = named(ctx, "ModelrtScheduleConfig", sched);
  // format, train_inputs, train_labels, test_inputs, test_labels,
  // num_columns, columns, num_label_columns, label_columns, scale,
  // num_norm, mean, std, one_hot, val_fraction, num_augment, augment,
  // drop_last, resize_height, resize_width, center_crop, seq_len, tokens
  l.dataConfig = named(ctx, "ModelrtDataConfig",
                       {i32, ptr, ptr, ptr, ptr, i32, ptr, i32, ptr, f64, i32,
                        ptr, ptr, i32, f64, i32, ptr, i32, i64, i64, i32, i64,
                        i32});
  l.augment = named(ctx, "ModelrtAugment",
                    {i32, llvm::ArrayType::get(f64, MODELRT_AUGMENT_ARGS)});
  // optimizer, schedule, data, then the schema's scalar fields
  train = {l.optimizerConfig, l.scheduleConfig, l.dataConfig};
#define MODELRT_ABI_TRAIN(TYPE, NAME) add(train, AbiFieldType::TYPE);
#include "modelsupport/TrainConfig.def"
  l.trainConfig = named(ctx, "ModelrtTrainConfig", train);
  l.program = named(ctx, "ModelrtProgram",
                    {i32, ptr, i32, ptr, i32, ptr,  // abi .. state
                     i32, ptr, i32, i32, i64, i32, ptr, // input .. label_shape
                     i32, ptr, i32, ptr,            // output .. metric_names
                     l.trainConfig, ptr, ptr, ptr, ptr, f64, ptr,
                     ptr, ptr, ptr,   // gpu_train_step .. gpu_predict
                     ptr, ptr,        // gpu_train_enqueue, gpu_train_finish
                     i32, ptr,        // num_class_names, class_names
                     i32, ptr,        // num_layers, layers
                     i64, i32, i64,   // input_id_limit, ignore_index
                     i32, ptr,        // num_vocab, vocab
                     ptr, i32, ptr, i64, // decode_step .. decode_length
                     i32, i32, ptr,      // precision .. bf16_products
                     i32, i32});         // rounded_values, gpu_convolutions
  return l;
}
