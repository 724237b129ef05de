//===- SplitLongCode.cpp - Bound the code size codegen sees at once -------===//
//
// Implements splitLongCode (SplitLongCode.h): long blocks are split with
// BasicBlock::splitBasicBlock, and the straight-line chains of long
// functions are moved out with LLVM's CodeExtractor, one chain piece (a run
// of blocks each ending in an unconditional branch to the next, its only
// predecessor) per extracted function. Values that cross pieces go through
// one stack frame, so that neither the calls nor the pieces' argument lists
// grow with the number of values a long program keeps alive.
//
// Implements compileGlueFast: glue functions (no loop, a call into the
// module, or a piece cut from such a function) get the `optnone` attribute
// after the IR optimisation, which only code generation then sees.
//
//===----------------------------------------------------------------------===//
#include "modelc/Target/SplitLongCode.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

#include <vector>

using namespace llvm;

namespace modelc {
namespace {

/// Moves the entry block's static allocas to its front, in their order.
/// Where they stand in the entry block changes nothing (each is a fixed
/// slot of the frame); at its front, no split leaves one in a later block,
/// where it would become a stack adjustment that pins its block in the
/// function.
void gatherEntryAllocas(Function &fn) {
  BasicBlock &entry = fn.getEntryBlock();
  std::vector<AllocaInst *> allocas;
  for (Instruction &inst : entry)
    if (auto *alloca = dyn_cast<AllocaInst>(&inst);
        alloca && alloca->isStaticAlloca())
      allocas.push_back(alloca);
  auto front = entry.getFirstInsertionPt();
  Instruction *previous = nullptr;
  for (AllocaInst *alloca : allocas) {
    if (previous)
      alloca->moveAfter(previous);
    else if (&*front != alloca)
      alloca->moveBefore(front);
    previous = alloca;
  }
}

/// Splits the blocks of \p fn longer than \p limit instructions into chains
/// of blocks joined by unconditional branches. Splits fall after the PHIs
/// and the entry block's allocas, and never at the terminator.
void splitLongBlocks(Function &fn, unsigned limit) {
  gatherEntryAllocas(fn);
  std::vector<BasicBlock *> blocks;
  for (BasicBlock &bb : fn)
    blocks.push_back(&bb);
  for (BasicBlock *bb : blocks) {
    unsigned count = 0;
    for (auto it = bb->getFirstNonPHIOrDbgOrAlloca(); it != bb->end(); ++it) {
      if (++count < limit || it->isTerminator())
        continue;
      bb = bb->splitBasicBlock(it);
      it = bb->begin();
      count = 1;
    }
  }
}

/// The block \p bb falls through to when it ends in an unconditional
/// branch to another block whose only predecessor it is; null otherwise.
BasicBlock *chainSuccessor(BasicBlock &bb) {
  auto *branch = dyn_cast<BranchInst>(bb.getTerminator());
  if (!branch || branch->isConditional())
    return nullptr;
  BasicBlock *next = branch->getSuccessor(0);
  return next != &bb && next->getSinglePredecessor() == &bb ? next : nullptr;
}

/// Whether moving \p inst into another function keeps its meaning: no stack
/// slot or stack pointer that must stay in the caller's frame, no PHI (the
/// piece's blocks have one predecessor each), no exception handling.
bool movable(const Instruction &inst) {
  if (isa<AllocaInst>(inst) || isa<PHINode>(inst) || inst.isEHPad())
    return false;
  if (const auto *intrinsic = dyn_cast<IntrinsicInst>(&inst)) {
    switch (intrinsic->getIntrinsicID()) {
    case Intrinsic::stacksave:
    case Intrinsic::stackrestore:
    case Intrinsic::localescape:
    case Intrinsic::vastart:
    case Intrinsic::vaend:
      return false;
    default:
      break;
    }
  }
  if (const auto *call = dyn_cast<CallBase>(&inst))
    return !call->hasFnAttr(Attribute::ReturnsTwice) &&
           !(isa<CallInst>(call) && cast<CallInst>(call)->isMustTailCall());
  return true;
}

/// Whether every instruction of \p bb is movable.
bool movable(const BasicBlock &bb) {
  for (const Instruction &inst : bb)
    if (!movable(inst))
      return false;
  return true;
}

/// Groups the chain blocks of \p fn, in layout order, into pieces of at
/// most \p limit instructions (a block longer than that is a piece alone).
/// The entry block, a chain's last block (the one that does not fall
/// through) and a block that falls through to a block with PHIs stay in
/// \p fn.
std::vector<std::vector<BasicBlock *>> chainPieces(Function &fn,
                                                   unsigned limit) {
  std::vector<std::vector<BasicBlock *>> pieces;
  std::vector<BasicBlock *> piece;
  size_t size = 0;
  auto flush = [&] {
    if (!piece.empty())
      pieces.push_back(std::move(piece));
    piece.clear();
    size = 0;
  };
  for (BasicBlock &bb : fn) {
    bool continues = !piece.empty() && chainSuccessor(*piece.back()) == &bb;
    if (!continues || size + bb.size() > limit)
      flush();
    BasicBlock *next = chainSuccessor(bb);
    if (&bb == &fn.getEntryBlock() || !next || isa<PHINode>(next->front()) ||
        !movable(bb))
      continue;
    piece.push_back(&bb);
    size += bb.size();
  }
  flush();
  return pieces;
}

/// The block where \p use reads its value: the incoming block for a PHI.
BasicBlock *useBlock(const Use &use) {
  auto *user = cast<Instruction>(use.getUser());
  if (auto *phi = dyn_cast<PHINode>(user))
    return phi->getIncomingBlock(use);
  return user->getParent();
}

/// Erases the lifetime markers of the stack slot \p alloca: its address
/// goes through the split frame to another region, where a marker could
/// not name the slot; without markers the slot lives for the whole call.
void dropLifetimeMarkers(Instruction &alloca) {
  for (User *user : make_early_inc_range(alloca.users()))
    if (auto *marker = dyn_cast<IntrinsicInst>(user);
        marker && marker->isLifetimeStartOrEnd())
      marker->eraseFromParent();
}

/// Moves every value that one region of \p fn (a piece, or the blocks that
/// stay) defines and another reads into a field of one stack frame: stored
/// where it is defined, loaded where it is read. Extracted pieces then take
/// the frame's address instead of their live-in values as arguments and
/// return no values, and the calls that replace them stay short. Returns
/// false, changing nothing, when a value cannot live in memory.
bool demoteCrossRegionValues(Function &fn,
                             const DenseMap<BasicBlock *, unsigned> &region) {
  auto regionOf = [&](BasicBlock *bb) { return region.lookup(bb); };
  std::vector<Instruction *> values;
  std::vector<Type *> fields;
  for (Instruction &inst : instructions(fn)) {
    unsigned home = regionOf(inst.getParent());
    bool crosses = llvm::any_of(inst.uses(), [&](const Use &use) {
      return regionOf(useBlock(use)) != home;
    });
    if (!crosses)
      continue;
    if (!inst.getType()->isSized() || inst.getType()->isTokenTy() ||
        inst.isTerminator())
      return false;
    values.push_back(&inst);
    fields.push_back(inst.getType());
  }
  if (values.empty())
    return true;
  LLVMContext &ctx = fn.getContext();
  StructType *frameType = StructType::create(ctx, fields, "split.frame");
  IRBuilder<> b(&*fn.getEntryBlock().getFirstInsertionPt());
  AllocaInst *frame = b.CreateAlloca(frameType, nullptr, "split.frame");
  for (Instruction *value : values)
    if (isa<AllocaInst>(value))
      dropLifetimeMarkers(*value);
  for (unsigned field = 0; field < values.size(); ++field) {
    Instruction *value = values[field];
    unsigned home = regionOf(value->getParent());
    std::vector<Use *> uses;
    for (Use &use : value->uses())
      if (regionOf(useBlock(use)) != home)
        uses.push_back(&use);
    b.SetInsertPoint(isa<PHINode>(value)
                         ? value->getParent()->getFirstInsertionPt()
                         : std::next(value->getIterator()));
    b.CreateStore(value, b.CreateStructGEP(frameType, frame, field));
    for (Use *use : uses) {
      auto *user = cast<Instruction>(use->getUser());
      b.SetInsertPoint(isa<PHINode>(user) ? useBlock(*use)->getTerminator()
                                          : user);
      use->set(b.CreateLoad(value->getType(),
                            b.CreateStructGEP(frameType, frame, field)));
    }
  }
  return true;
}

/// The attribute that marks a piece cut from a glue function as glue.
constexpr const char *kGluePiece = "modelc-glue-piece";

/// Extracts the chain pieces of \p fn when it holds more than \p limit
/// instructions. Pieces cut from glue are marked glue (kGluePiece), those
/// that only move values included.
void extractLongChains(Function &fn, unsigned limit) {
  size_t size = 0;
  for (const BasicBlock &bb : fn)
    size += bb.size();
  if (size <= limit)
    return;
  std::vector<std::vector<BasicBlock *>> pieces = chainPieces(fn, limit);
  if (pieces.empty())
    return;
  bool glue = isGlue(fn);
  DenseMap<BasicBlock *, unsigned> region;
  for (unsigned i = 0; i < pieces.size(); ++i)
    for (BasicBlock *bb : pieces[i])
      region[bb] = i + 1;
  if (!demoteCrossRegionValues(fn, region))
    return;
  // The cache holds the function's allocas, which extraction leaves in the
  // entry block: one cache serves every piece.
  CodeExtractorAnalysisCache cache(fn);
  for (const std::vector<BasicBlock *> &piece : pieces) {
    CodeExtractor extractor(piece, /*DT=*/nullptr, /*AggregateArgs=*/false,
                            nullptr, nullptr, nullptr, /*AllowVarArgs=*/false,
                            /*AllowAlloca=*/false, nullptr, "part");
    if (!extractor.isEligible())
      continue;
    Function *part = extractor.extractCodeRegion(cache);
    if (!part)
      continue;
    part->addFnAttr(Attribute::NoInline);
    if (glue)
      part->addFnAttr(kGluePiece);
  }
}

} // namespace

bool isGlue(const Function &fn) {
  if (fn.isDeclaration())
    return false;
  if (fn.hasFnAttribute(kGluePiece))
    return true;
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>> backEdges;
  FindFunctionBackedges(fn, backEdges);
  if (!backEdges.empty())
    return false;
  for (const Instruction &inst : instructions(fn))
    if (const auto *call = dyn_cast<CallBase>(&inst))
      if (const Function *callee = call->getCalledFunction();
          callee && !callee->isDeclaration())
        return true;
  return false;
}

unsigned compileGlueFast(Module &module) {
  unsigned marked = 0;
  for (Function &fn : module) {
    if (!isGlue(fn) || fn.hasOptNone())
      continue;
    fn.removeFnAttr(Attribute::AlwaysInline);
    fn.removeFnAttr(Attribute::OptimizeForSize); // incompatible with optnone
    fn.removeFnAttr(Attribute::MinSize);
    fn.addFnAttr(Attribute::NoInline);
    fn.addFnAttr(Attribute::OptimizeNone);
    ++marked;
  }
  return marked;
}

void splitLongCode(Module &module, const CodeSplitLimits &limits) {
  std::vector<Function *> functions;
  for (Function &fn : module)
    if (!fn.isDeclaration())
      functions.push_back(&fn);
  for (Function *fn : functions) {
    splitLongBlocks(*fn, limits.maxBlockInstructions);
    extractLongChains(*fn, limits.maxFunctionInstructions);
  }
}

} // namespace modelc
