//===- ProgramEmitterTest.cpp - The generated program, run in process -----===//
//
// Compiles the hand-written lowered module Inputs/toy-lowered.mlir with the
// CPU pipeline, adds the adapters and `modelc_program` (ProgramEmitter.h),
// JIT-compiles the result and then, through the ModelrtProgram struct as
// the C header declares it, checks every table, shape and configuration
// field and calls train_step / eval_step / predict on data whose expected
// results are computed here independently (see the module's header).
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/ProgramEmitter.h"
#include "modelc/Codegen/ProgramSpec.h"
#include "modelc/Pipelines/CpuPipeline.h"
#include "modelc/Target/ObjectEmitter.h"

#include "mdl/MDLDialect.h"
#include "mdl/MDLOps.h"
#include "modelrt/core/Program.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "modelrt/core/BufferPool.h"
#include "modelrt/core/Parallel.h"
#include "modelrt/core/Profile.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace modelc;

namespace {

/// Builds and JITs the toy program once for all tests.
class ToyProgram {
public:
  static ToyProgram &get() {
    static ToyProgram toy;
    return toy;
  }
  const ModelrtProgram *program = nullptr;
  ProgramSpec spec;
  std::string error;

private:
  std::unique_ptr<llvm::orc::LLJIT> jit;
  ToyProgram() { error = build(); }
  std::string build();
};

/// Gives the JIT the runtime entry points generated code calls (the buffer
/// pool's allocation functions, the profiling hooks and the parallel loop
/// runner), taken from the
/// modelrt library linked into this test.
static llvm::Error defineRuntimeSymbols(llvm::orc::LLJIT &jit) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](const char *name, void *address) {
    symbols[jit.mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  };
  add("_mlir_memref_to_llvm_alloc", (void *)&_mlir_memref_to_llvm_alloc);
  add("_mlir_memref_to_llvm_aligned_alloc",
      (void *)&_mlir_memref_to_llvm_aligned_alloc);
  add("_mlir_memref_to_llvm_free", (void *)&_mlir_memref_to_llvm_free);
  add("modelrt_kernel_enter", (void *)&modelrt_kernel_enter);
  add("modelrt_kernel_exit", (void *)&modelrt_kernel_exit);
  add("modelrt_parallel_for", (void *)&modelrt_parallel_for);
  return jit.getMainJITDylib().define(llvm::orc::absoluteSymbols(symbols));
}

std::string ToyProgram::build() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  mlir::DialectRegistry registry;
  registerCpuPipelineDependencies(registry);
  registry.insert<mlir::mdl::MDLDialect>();
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(
      MODELC_CODEGEN_INPUTS "/toy-lowered.mlir", &ctx);
  if (!module)
    return "cannot parse toy-lowered.mlir";
  llvm::Expected<ProgramSpec> s = extractProgramSpec(*module);
  if (!s)
    return llvm::toString(s.takeError());
  spec = std::move(*s);
  if (llvm::Error e = bindEntryAbis(*module, spec))
    return llvm::toString(std::move(e));
  for (auto &op : llvm::make_early_inc_range(module->getBody()->getOperations()))
    if (llvm::isa<mlir::mdl::ParameterOp, mlir::mdl::StateOp>(op))
      op.erase();
  mlir::PassManager pm(&ctx);
  CpuPipelineOptions cpu;
  cpu.useBlas = false; // no BLAS in the test process: plain loops
  buildCpuLoweringPipeline(pm, cpu);
  if (mlir::failed(pm.run(*module)))
    return "CPU pipeline failed";
  TargetOptions target;
  auto tm = createTargetMachine(target);
  if (!tm)
    return llvm::toString(tm.takeError());
  auto llctx = std::make_unique<llvm::LLVMContext>();
  auto llmod = translateAndOptimize(*module, *llctx, **tm, target);
  if (!llmod)
    return llvm::toString(llmod.takeError());
  if (llvm::Error e = emitProgram(**llmod, spec, {/*emitMain=*/false}))
    return llvm::toString(std::move(e));
  std::string verify;
  llvm::raw_string_ostream os(verify);
  if (llvm::verifyModule(**llmod, &os))
    return "invalid LLVM IR: " + verify;
  auto j = llvm::orc::LLJITBuilder().create();
  if (!j)
    return llvm::toString(j.takeError());
  jit = std::move(*j);
  auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit->getDataLayout().getGlobalPrefix());
  if (!gen)
    return llvm::toString(gen.takeError());
  jit->getMainJITDylib().addGenerator(std::move(*gen));
  if (llvm::Error e = defineRuntimeSymbols(*jit))
    return llvm::toString(std::move(e));
  if (llvm::Error e = jit->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(*llmod), std::move(llctx))))
    return llvm::toString(std::move(e));
  auto sym = jit->lookup(kProgramSymbol);
  if (!sym)
    return llvm::toString(sym.takeError());
  program = sym->toPtr<const ModelrtProgram *>();
  return "";
}

class ProgramEmitterTest : public ::testing::Test {
protected:
  void SetUp() override {
    ToyProgram &toy = ToyProgram::get();
    ASSERT_EQ(toy.error, "");
    p = toy.program;
  }
  const ModelrtProgram *p = nullptr;
  // Five samples of 4 features; labels sum to 4.
  float x[20] = {1, 2, 3, 4, -1, 0.5f, 2, 0, 3, 3, -2, 1, 0, 0, 0, 7, 1, 1, 1, 1};
  int64_t labels[5] = {0, 1, 2, 1, 0};
  float w[12] = {1, 2, 3, 4, 5, 6, -1, -2, -3, 0.5f, 0.25f, 0};
  float b[3] = {0.5f, -1, 2};
  float s[2] = {10, 20};
  float *params[2] = {w, b};
  float *state[1] = {s};
  float sumX() const {
    float t = 0;
    for (float v : x)
      t += v;
    return t;
  }
};

TEST_F(ProgramEmitterTest, Tables) {
  EXPECT_EQ(p->abi_version, unsigned(MODELRT_ABI_VERSION));
  EXPECT_STREQ(p->name, "Toy");
  ASSERT_EQ(p->num_params, 2);
  EXPECT_STREQ(p->params[0].name, "w");
  EXPECT_EQ(p->params[0].dtype, MODELRT_F32);
  ASSERT_EQ(p->params[0].rank, 2);
  EXPECT_EQ(p->params[0].shape[0], 4);
  EXPECT_EQ(p->params[0].shape[1], 3);
  // kaiming_uniform(4): U(+-sqrt(6/4)) = U(+-gain*sqrt(3/4)), gain sqrt(2).
  EXPECT_EQ(p->params[0].init_kind, MODELRT_INIT_KAIMING_UNIFORM);
  EXPECT_DOUBLE_EQ(p->params[0].init_args[0], std::sqrt(2.0));
  EXPECT_EQ(p->params[0].fan_in, 4);
  EXPECT_EQ(p->params[0].fan_out, 3);
  EXPECT_STREQ(p->params[1].name, "b");
  EXPECT_EQ(p->params[1].init_kind, MODELRT_INIT_UNIFORM);
  EXPECT_EQ(p->params[1].init_args[0], -1);
  EXPECT_EQ(p->params[1].init_args[1], 2);
  ASSERT_EQ(p->num_state, 1);
  EXPECT_STREQ(p->state[0].name, "s");
  EXPECT_EQ(p->state[0].init_kind, MODELRT_INIT_CONSTANT);
  EXPECT_EQ(p->state[0].init_args[0], 1);
}

// The layer table comes from the module's mdl.layers, entry for entry.
TEST_F(ProgramEmitterTest, Layers) {
  ASSERT_EQ(p->num_layers, 2);
  const ModelrtLayerInfo &l = p->layers[0];
  EXPECT_STREQ(l.name, "linear_0");
  ASSERT_EQ(l.rank, 1);
  EXPECT_EQ(l.shape[0], 3);
  EXPECT_EQ(l.num_params, 15);
  EXPECT_EQ(l.flops, 27.0);
  EXPECT_EQ(l.activation_bytes, 12);
  EXPECT_STREQ(p->layers[1].name, "relu");
  EXPECT_EQ(p->layers[1].num_params, 0);
  EXPECT_EQ(p->layers[1].flops, 3.0);
}

TEST_F(ProgramEmitterTest, Shapes) {
  ASSERT_EQ(p->input_rank, 1);
  EXPECT_EQ(p->input_shape[0], 4);
  EXPECT_EQ(p->label_dtype, MODELRT_I64);
  EXPECT_EQ(p->num_classes, 3);
  EXPECT_EQ(p->label_rank, 0);
  ASSERT_EQ(p->output_rank, 1);
  EXPECT_EQ(p->output_shape[0], 3);
  ASSERT_EQ(p->num_metrics, 1);
  EXPECT_STREQ(p->metric_names[0], "accuracy");
  EXPECT_EQ(p->set_threads, nullptr);
  EXPECT_EQ(p->context, nullptr);
}

TEST_F(ProgramEmitterTest, Config) {
  const ModelrtTrainConfig &c = p->config;
  EXPECT_EQ(c.optimizer.kind, MODELRT_OPT_ADAM);
  EXPECT_DOUBLE_EQ(c.optimizer.lr, 2e-3);
  EXPECT_DOUBLE_EQ(c.optimizer.beta1, 0.8);
  EXPECT_DOUBLE_EQ(c.optimizer.beta2, 0.99);
  EXPECT_DOUBLE_EQ(c.optimizer.eps, 1e-7);
  EXPECT_DOUBLE_EQ(c.optimizer.weight_decay, 0.5);
  EXPECT_EQ(c.optimizer.accumulate, 1);
  EXPECT_EQ(c.schedule.kind, MODELRT_SCHED_STEP);
  EXPECT_EQ(c.schedule.step_size, 2);
  EXPECT_DOUBLE_EQ(c.schedule.gamma, 0.5);
  EXPECT_EQ(c.data.format, MODELRT_DATA_IDX);
  EXPECT_STREQ(c.data.train_inputs, "/data/train-x.gz");
  EXPECT_STREQ(c.data.train_labels, "/data/train-y.gz");
  EXPECT_STREQ(c.data.test_inputs, "/data/test-x.gz");
  EXPECT_STREQ(c.data.test_labels, "/data/test-y.gz");
  // x*0.5 - 0.25 == (x*0.5 - mean)/std with mean 0.25, std 1.
  EXPECT_DOUBLE_EQ(c.data.scale, 0.5);
  ASSERT_EQ(c.data.num_norm, 1);
  EXPECT_DOUBLE_EQ(c.data.mean[0], 0.25);
  EXPECT_DOUBLE_EQ(c.data.std[0], 1.0);
  // The augmentations in the source's order, arguments in ABI order.
  ASSERT_EQ(c.data.num_augment, 3);
  EXPECT_EQ(c.data.augment[0].kind, MODELRT_AUG_HFLIP);
  EXPECT_DOUBLE_EQ(c.data.augment[0].args[0], 0.25);
  EXPECT_EQ(c.data.augment[1].kind, MODELRT_AUG_CROP);
  EXPECT_DOUBLE_EQ(c.data.augment[1].args[0], 2);
  EXPECT_EQ(c.data.augment[2].kind, MODELRT_AUG_ERASING);
  const double erasing[] = {0.5, 0.02, 0.33, 0.3, 3.3, -1};
  for (int i = 0; i < MODELRT_AUGMENT_ARGS; ++i)
    EXPECT_DOUBLE_EQ(c.data.augment[2].args[i], erasing[i]) << i;
  EXPECT_EQ(c.epochs, 3);
  EXPECT_EQ(c.batch_size, 4);
  EXPECT_EQ(c.seed, 7u);
}

TEST_F(ProgramEmitterTest, TrainStep) {
  float loss = -1, gw[12], gb[3];
  float *grads[2] = {gw, gb};
  double metrics[1] = {0.5};
  ASSERT_EQ(p->train_step(nullptr, params, state, x, labels, 5, 11, 0, &loss,
                          grads, metrics),
            0);
  EXPECT_FLOAT_EQ(loss, sumX());
  for (int i = 0; i < 12; ++i)
    EXPECT_FLOAT_EQ(gw[i], 2 * w[i] + 11) << i;
  for (int i = 0; i < 3; ++i)
    EXPECT_FLOAT_EQ(gb[i], b[i] + 1) << i;
  EXPECT_DOUBLE_EQ(metrics[0], 4.5); // added to what was there
  EXPECT_FLOAT_EQ(s[0], 11);         // state copied back
  EXPECT_FLOAT_EQ(s[1], 21);
}

TEST_F(ProgramEmitterTest, TrainStepUsesBatchArgument) {
  float loss = 0, gw[12], gb[3];
  float *grads[2] = {gw, gb};
  double metrics[1] = {0};
  ASSERT_EQ(p->train_step(nullptr, params, state, x, labels, 2, 0, 0, &loss,
                          grads, metrics),
            0);
  EXPECT_FLOAT_EQ(loss, 1 + 2 + 3 + 4 - 1 + 0.5f + 2 + 0);
  EXPECT_DOUBLE_EQ(metrics[0], 1.0);
}

TEST_F(ProgramEmitterTest, EvalStepMeanLoss) {
  float loss = 0;
  double metrics[1] = {0};
  ASSERT_EQ(p->eval_step(nullptr, params, state, x, labels, 5, &loss, metrics),
            0);
  EXPECT_FLOAT_EQ(loss, sumX() / 5);
  EXPECT_DOUBLE_EQ(metrics[0], 4.0);
  EXPECT_FLOAT_EQ(s[0], 10); // eval never writes state
}

TEST_F(ProgramEmitterTest, Predict) {
  float out[15];
  ASSERT_EQ(p->predict(nullptr, params, state, x, 5, out), 0);
  for (int n = 0; n < 5; ++n)
    for (int j = 0; j < 3; ++j) {
      double ref = b[j];
      for (int k = 0; k < 4; ++k)
        ref += double(x[n * 4 + k]) * w[k * 3 + j];
      EXPECT_NEAR(out[n * 3 + j], ref, 1e-5) << n << "," << j;
    }
}

} // namespace
