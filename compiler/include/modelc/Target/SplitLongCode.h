//===- SplitLongCode.h - Bound what codegen sees at once ----*- C++ -*-===//
//
// Declares the last IR transformations before instruction selection: long
// basic blocks become chains of short ones, long straight-line chains move
// into functions of their own, and the glue that only calls kernels is
// compiled on LLVM's fast path. A long program's entry point is one block of
// tens of thousands of kernel calls; instruction selection is super-linear
// in a block's length, register allocation in a function's, and the
// schedulers in a block's memory operations, so each is bounded here and
// code generation stays linear in program size.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TARGET_SPLITLONGCODE_H
#define MODELC_TARGET_SPLITLONGCODE_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace modelc {

/// The most code that code generation sees in one piece.
struct CodeSplitLimits {
  /// Instructions per basic block: longer blocks are split into chains.
  unsigned maxBlockInstructions = 256;
  /// Instructions per function: a longer function's straight-line chains
  /// are extracted, in pieces of at most this many instructions, into
  /// internal functions that it calls.
  unsigned maxFunctionInstructions = 4096;
};

/// Splits every long block of \p module, then extracts the straight-line
/// chains of every long function (see CodeSplitLimits). A chain piece is
/// extracted only when none of its blocks holds PHIs, allocas, stack
/// save/restore or exception handling; the behaviour of the module is
/// unchanged. The cost at run time is one jump per block split and one call
/// per piece extracted.
void splitLongCode(llvm::Module &module, const CodeSplitLimits &limits = {});

/// Whether \p fn is glue: a definition without loops that calls a function
/// \p fn's module defines, or a piece splitLongCode cut from one. The entry
/// points, their C-interface wrappers, the runtime's adapters and their
/// pieces (those that only move descriptor fields included) are glue: they
/// allocate buffers and call the kernels, whose code does the work.
bool isGlue(const llvm::Function &fn);

/// Marks every glue function of \p module `optnone` (and `noinline`): code
/// generation then selects its instructions with FastISel and skips the
/// machine schedulers, whose time grows faster than the glue's length. The
/// kernels keep the full optimisation level; what the module computes is
/// unchanged. Returns the number of functions marked.
unsigned compileGlueFast(llvm::Module &module);

} // namespace modelc

#endif // MODELC_TARGET_SPLITLONGCODE_H
