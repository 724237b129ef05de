//===- SplitLongCodeTest.cpp - splitLongCode keeps what a module computes -===//
//
// Builds a long straight-line function whose values live across the pieces
// it is cut into (plus a loop, a stack slot and a dynamic alloca that must
// stay put), splits it with small limits, and checks the limits and that the
// JIT-compiled function returns what the unsplit original returns; then
// that compileGlueFast marks the loop-free pieces that call into the module,
// and nothing else, and that the result stays the same. A loop-free function
// with a stack slot in the middle of its entry block and a stretch without
// calls checks that the slot stays a fixed one and that every piece cut from
// glue is glue.
//
//===----------------------------------------------------------------------===//
#include "modelc/Target/SplitLongCode.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

using namespace llvm;

namespace {

constexpr unsigned kSteps = 600;

/// Adds `i64 @mix(i64, i64)`, a noinline call the long function makes.
Function *addMix(Module &module) {
  LLVMContext &ctx = module.getContext();
  Type *i64 = Type::getInt64Ty(ctx);
  auto *mix = Function::Create(FunctionType::get(i64, {i64, i64}, false),
                               Function::ExternalLinkage, "mix", module);
  mix->addFnAttr(Attribute::NoInline);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", mix));
  Value *x = b.CreateMul(mix->getArg(0), b.getInt64(6364136223846793005ULL));
  b.CreateRet(b.CreateXor(x, b.CreateLShr(mix->getArg(1), 3)));
  return mix;
}

/// Adds `i64 @long(i64 %seed)`: kSteps steps, each reading a value from
/// half-way back, a stack slot of the entry block and a call; a loop
/// half-way; a dynamic alloca near the end.
void addLong(Module &module, Function *mix) {
  LLVMContext &ctx = module.getContext();
  Type *i64 = Type::getInt64Ty(ctx);
  auto *fn = Function::Create(FunctionType::get(i64, {i64}, false),
                              Function::ExternalLinkage, "long", module);
  fn->addFnAttr("target-cpu", "x86-64-v2");
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", fn));
  Value *slot = b.CreateAlloca(i64);
  b.CreateStore(fn->getArg(0), slot);
  std::vector<Value *> values{fn->getArg(0)};
  for (unsigned i = 1; i <= kSteps; ++i) {
    if (i == kSteps / 2) {
      BasicBlock *pre = b.GetInsertBlock();
      BasicBlock *loop = BasicBlock::Create(ctx, "loop", fn);
      BasicBlock *after = BasicBlock::Create(ctx, "after", fn);
      b.CreateBr(loop);
      b.SetInsertPoint(loop);
      PHINode *k = b.CreatePHI(i64, 2);
      PHINode *acc = b.CreatePHI(i64, 2);
      k->addIncoming(b.getInt64(0), pre);
      acc->addIncoming(values.back(), pre);
      Value *next = b.CreateCall(mix, {acc, k});
      Value *k1 = b.CreateAdd(k, b.getInt64(1));
      k->addIncoming(k1, loop);
      acc->addIncoming(next, loop);
      b.CreateCondBr(b.CreateICmpULT(k1, b.getInt64(5)), loop, after);
      b.SetInsertPoint(after);
      values.push_back(next);
    }
    if (i == kSteps - 20) {
      Value *dynamic = b.CreateAlloca(i64, b.getInt64(2));
      b.CreateStore(values.back(), dynamic);
      values.push_back(b.CreateLoad(i64, dynamic));
    }
    Value *far = values[values.size() / 2];
    Value *stored = b.CreateLoad(i64, slot);
    Value *v = b.CreateAdd(b.CreateCall(mix, {values.back(), far}),
                           b.CreateMul(stored, b.getInt64(i)));
    b.CreateStore(b.CreateXor(stored, v), slot);
    values.push_back(v);
  }
  Value *sum = b.getInt64(0);
  for (size_t i = 0; i < values.size(); i += 37)
    sum = b.CreateAdd(sum, values[i]);
  b.CreateRet(b.CreateAdd(sum, b.CreateLoad(i64, slot)));
}

constexpr unsigned kGlueSteps = 300;

/// Adds `i64 @glue(i64 %seed)`, loop-free: kGlueSteps steps in one block,
/// those of the first half calling @mix and those of the second only
/// computing; a stack slot made half-way through the first half holds a
/// value for one step between lifetime markers, as a GPU launch's argument
/// array does; a dynamic alloca sized by a value of the step before it.
void addGlue(Module &module, Function *mix) {
  LLVMContext &ctx = module.getContext();
  Type *i64 = Type::getInt64Ty(ctx);
  auto *fn = Function::Create(FunctionType::get(i64, {i64}, false),
                              Function::ExternalLinkage, "glue", module);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", fn));
  std::vector<Value *> values{fn->getArg(0)};
  for (unsigned i = 1; i <= kGlueSteps; ++i) {
    Value *far = values[values.size() / 2];
    Value *v = i <= kGlueSteps / 2
                   ? b.CreateCall(mix, {values.back(), far})
                   : b.CreateXor(b.CreateMul(values.back(), b.getInt64(i)),
                                 b.CreateLShr(far, 7));
    if (i == kGlueSteps / 4) {
      Value *slot = b.CreateAlloca(i64, nullptr, "slot");
      b.CreateLifetimeStart(slot);
      b.CreateStore(v, slot);
      v = b.CreateCall(mix, {b.CreateLoad(i64, slot), b.getInt64(i)});
      b.CreateLifetimeEnd(slot);
    }
    if (i == kGlueSteps / 8) {
      Value *count = b.CreateAdd(b.CreateAnd(v, b.getInt64(3)), b.getInt64(1));
      Value *dynamic = b.CreateAlloca(i64, count, "dynamic");
      b.CreateStore(v, dynamic);
      v = b.CreateLoad(i64, dynamic);
    }
    values.push_back(v);
  }
  b.CreateRet(values.back());
}

std::unique_ptr<Module> buildModule(LLVMContext &ctx) {
  auto module = std::make_unique<Module>("long", ctx);
  Function *mix = addMix(*module);
  addLong(*module, mix);
  addGlue(*module, mix);
  return module;
}

constexpr modelc::CodeSplitLimits kSmall{/*block=*/8, /*function=*/64};

/// JIT-compiles the module, split by \p limits or not at all (and its glue
/// marked when \p glueFast is set), and returns `name(seed)`.
uint64_t runLong(const modelc::CodeSplitLimits *limits, uint64_t seed,
                 bool glueFast = false, StringRef name = "long") {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  auto ctx = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> module = buildModule(*ctx);
  if (limits)
    modelc::splitLongCode(*module, *limits);
  if (glueFast)
    modelc::compileGlueFast(*module);
  auto jit = cantFail(orc::LLJITBuilder().create());
  cantFail(jit->addIRModule(
      orc::ThreadSafeModule(std::move(module), std::move(ctx))));
  auto address = cantFail(jit->lookup(name));
  return address.toPtr<uint64_t (*)(uint64_t)>()(seed);
}

size_t countInstructions(const Function &fn) {
  size_t count = 0;
  for (const BasicBlock &bb : fn)
    count += bb.size();
  return count;
}

TEST(SplitLongCode, ExtractsPiecesAndKeepsTheResult) {
  LLVMContext ctx;
  std::unique_ptr<Module> module = buildModule(ctx);
  ASSERT_FALSE(verifyModule(*module, &errs()));
  size_t before = countInstructions(*module->getFunction("long"));
  modelc::splitLongCode(*module, kSmall);
  ASSERT_FALSE(verifyModule(*module, &errs()));

  unsigned parts = 0;
  for (const Function &fn : *module) {
    if (!fn.getName().starts_with("long."))
      continue;
    ++parts;
    EXPECT_TRUE(fn.hasInternalLinkage());
    EXPECT_TRUE(fn.hasFnAttribute(Attribute::NoInline));
    EXPECT_EQ(fn.getFnAttribute("target-cpu").getValueAsString(), "x86-64-v2");
    // The piece, the frame's loads and stores, entry and exit stubs.
    EXPECT_LE(countInstructions(fn), 3 * 64u) << fn.getName().str();
    // The frame, the entry block's stack slot and the seed; no values
    // in or out.
    EXPECT_LE(fn.arg_size(), 3u) << fn.getName().str();
    EXPECT_TRUE(fn.getReturnType()->isVoidTy()) << fn.getName().str();
  }
  EXPECT_GE(parts, before / 64 / 2);
  Function &rest = *module->getFunction("long");
  // What stays is the loop, the blocks around it and a call per piece.
  EXPECT_LT(countInstructions(rest), before / 4);
  // The loop's PHIs and the dynamic alloca stay in @long.
  unsigned phis = 0, dynamicAllocas = 0;
  for (const Instruction &inst : instructions(rest)) {
    phis += isa<PHINode>(inst);
    dynamicAllocas +=
        isa<AllocaInst>(inst) && inst.getParent() != &rest.getEntryBlock();
  }
  EXPECT_EQ(phis, 2u);
  EXPECT_EQ(dynamicAllocas, 1u);

  for (uint64_t seed : {0ULL, 1ULL, 0x9e3779b97f4a7c15ULL})
    EXPECT_EQ(runLong(&kSmall, seed), runLong(nullptr, seed)) << seed;
}

TEST(SplitLongCode, SplitsBlocksOfShortFunctionsOnly) {
  LLVMContext ctx;
  std::unique_ptr<Module> module = buildModule(ctx);
  size_t functions = module->size();
  modelc::splitLongCode(*module, {/*block=*/8, /*function=*/1u << 20});
  ASSERT_FALSE(verifyModule(*module, &errs()));
  EXPECT_EQ(module->size(), functions);
  // The limit counts what follows the entry block's stack slots.
  for (const Function &fn : *module)
    for (const BasicBlock &bb : fn)
      EXPECT_LE(std::distance(bb.getFirstNonPHIOrDbgOrAlloca(), bb.end()), 8)
          << fn.getName().str();
  const modelc::CodeSplitLimits blocksOnly{8, 1u << 20};
  EXPECT_EQ(runLong(&blocksOnly, 42), runLong(nullptr, 42));
}

TEST(SplitLongCode, GlueIsLoopFreeCodeCallingTheModule) {
  LLVMContext ctx;
  std::unique_ptr<Module> module = buildModule(ctx);
  modelc::splitLongCode(*module, kSmall);
  unsigned pieces = 0;
  for (const Function &fn : *module)
    pieces += fn.getName().starts_with("long.");
  unsigned gluePieces = 0;
  for (const Function &fn : *module)
    gluePieces += fn.getName().starts_with("glue.");
  // The pieces call @mix and hold no loop; @long holds the loop; @mix
  // calls nothing; @glue and its pieces are glue.
  EXPECT_EQ(modelc::compileGlueFast(*module), pieces + 1 + gluePieces);
  ASSERT_FALSE(verifyModule(*module, &errs()));
  for (const Function &fn : *module) {
    if (fn.getName().starts_with("glue"))
      continue;
    bool piece = fn.getName().starts_with("long.");
    EXPECT_EQ(modelc::isGlue(fn), piece) << fn.getName().str();
    EXPECT_EQ(fn.hasOptNone(), piece) << fn.getName().str();
    if (piece)
      EXPECT_TRUE(fn.hasFnAttribute(Attribute::NoInline));
  }
  EXPECT_FALSE(module->getFunction("long")->hasOptNone());
  EXPECT_FALSE(module->getFunction("mix")->hasOptNone());
  EXPECT_EQ(modelc::compileGlueFast(*module), 0u) << "marked twice";

  for (uint64_t seed : {0ULL, 7ULL})
    EXPECT_EQ(runLong(&kSmall, seed, /*glueFast=*/true), runLong(nullptr, seed))
        << seed;
}

} // namespace

namespace {

/// Whether \p fn calls a function.
bool calls(const Function &fn) {
  for (const Instruction &inst : instructions(fn))
    if (isa<CallBase>(inst))
      return true;
  return false;
}

TEST(SplitLongCode, EveryPieceOfGlueIsGlueAndSlotsStayFixed) {
  LLVMContext ctx;
  std::unique_ptr<Module> module = buildModule(ctx);
  modelc::splitLongCode(*module, kSmall);
  ASSERT_FALSE(verifyModule(*module, &errs()));
  Function &glue = *module->getFunction("glue");
  // The slot made half-way through the first half stays a static one in
  // the entry block (a split would have left it in a later block, a stack
  // adjustment that no piece may take), and the block that used it moved
  // into a piece: in @glue its address is only stored into the frame, its
  // lifetime markers gone. The dynamic alloca stays after its size.
  const AllocaInst *slot = nullptr;
  for (const Instruction &inst : instructions(glue))
    if (const auto *alloca = dyn_cast<AllocaInst>(&inst);
        alloca && alloca->getName() == "slot")
      slot = alloca;
  ASSERT_TRUE(slot);
  EXPECT_TRUE(slot->isStaticAlloca());
  for (const User *user : slot->users()) {
    const auto *store = dyn_cast<StoreInst>(user);
    EXPECT_TRUE(store && store->getValueOperand() == slot &&
                store->getParent() == &glue.getEntryBlock())
        << "a use of the slot left in @glue";
  }
  EXPECT_LE(countInstructions(glue), kGlueSteps / 4);
  unsigned pieces = 0, withoutCalls = 0;
  for (const Function &fn : *module) {
    if (!fn.getName().starts_with("glue."))
      continue;
    ++pieces;
    withoutCalls += !calls(fn);
    EXPECT_TRUE(modelc::isGlue(fn)) << fn.getName().str();
  }
  EXPECT_GE(pieces, 2 * kGlueSteps / 64);
  EXPECT_GE(withoutCalls, 1u) << "no piece of the stretch without calls";
  EXPECT_TRUE(modelc::isGlue(glue));

  for (uint64_t seed : {0ULL, 5ULL, 0x9e3779b97f4a7c15ULL}) {
    EXPECT_EQ(runLong(&kSmall, seed, /*glueFast=*/true, "glue"),
              runLong(nullptr, seed, false, "glue"))
        << seed;
  }
}

} // namespace

namespace {

TEST(SplitLongCode, EntryAllocasKeepTheirOrder) {
  LLVMContext ctx;
  Module module("order", ctx);
  Type *i64 = Type::getInt64Ty(ctx);
  auto *fn = Function::Create(FunctionType::get(i64, {i64}, false),
                              Function::ExternalLinkage, "order", module);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", fn));
  Value *v = fn->getArg(0);
  std::vector<Value *> slots;
  // "a" is the entry block's first instruction, the others come later.
  for (const char *name : {"a", "b", "c"}) {
    slots.push_back(b.CreateAlloca(i64, nullptr, name));
    for (int i = 0; i < 20; ++i)
      v = b.CreateAdd(b.CreateMul(v, b.getInt64(3)), b.getInt64(i));
    b.CreateStore(v, slots.back());
  }
  Value *sum = b.getInt64(0);
  for (Value *slot : slots)
    sum = b.CreateAdd(sum, b.CreateLoad(i64, slot));
  b.CreateRet(sum);
  modelc::splitLongCode(module, kSmall);
  ASSERT_FALSE(verifyModule(module, &errs()));
  std::string order;
  for (const Instruction &inst : fn->getEntryBlock())
    if (isa<AllocaInst>(inst) && inst.getName().size() == 1)
      order += inst.getName().str();
  EXPECT_EQ(order, "abc");
}

} // namespace
