//===- ProgramLayout.cpp - LLVM types mirroring modelrt/core/Program.h ----===//
//
// One LLVM struct per C struct of runtime/include/modelrt/core/Program.h,
// fields in declaration order with the same scalar types (int32_t -> i32,
// int64_t/uint64_t -> i64, double -> double, pointers -> ptr). Keep in sync
// with the header: ProgramLayoutTest compares every offset.
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/ProgramLayout.h"

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
  // kind, lr, momentum, dampening, nesterov, beta1, beta2, eps, alpha,
  // weight_decay, clip_norm, accumulate
  l.optimizerConfig = named(ctx, "ModelrtOptimizerConfig",
                            {i32, f64, f64, f64, i32, f64, f64, f64, f64, f64,
                             f64, i32});
  // kind, step_size, gamma, num_milestones, milestones, warmup_steps,
  // total_steps, min_lr, factor, patience, threshold
  l.scheduleConfig = named(ctx, "ModelrtScheduleConfig",
                           {i32, i64, f64, i32, ptr, i64, i64, f64, f64, i64,
                            f64});
  // format, train_inputs, train_labels, test_inputs, test_labels,
  // num_columns, columns, label_column, scale, num_norm, mean, std, one_hot,
  // val_fraction, flip_prob, crop_padding, drop_last
  l.dataConfig = named(ctx, "ModelrtDataConfig",
                       {i32, ptr, ptr, ptr, ptr, i32, ptr, ptr, f64, i32, ptr,
                        ptr, i32, f64, f64, i64, i32});
  // optimizer, schedule, data, epochs, batch_size, seed,
  // early_stop_patience, early_stop_min_delta
  l.trainConfig = named(ctx, "ModelrtTrainConfig",
                        {l.optimizerConfig, l.scheduleConfig, l.dataConfig,
                         i64, i64, i64, i64, f64});
  l.program = named(ctx, "ModelrtProgram",
                    {i32, ptr, i32, ptr, i32, ptr,  // abi .. state
                     i32, ptr, i32, i64, i32, ptr,  // input .. label_shape
                     i32, ptr, i32, ptr,            // output .. metric_names
                     l.trainConfig, ptr, ptr, ptr, ptr, f64, ptr,
                     ptr, ptr, ptr,   // gpu_train_step .. gpu_predict
                     ptr, ptr});      // gpu_train_enqueue, gpu_train_finish
  return l;
}
