//===- SplitLongCode.h - Bound the code size codegen sees at once -*- C++ -*-===//
//
// Declares the last IR transformation before instruction selection: long
// basic blocks become chains of short ones, and long straight-line chains
// move into functions of their own. A long program's entry point is one
// block of tens of thousands of kernel calls; instruction selection is
// super-linear in a block's length and register allocation in a function's,
// so both are bounded here and code generation stays linear in program size.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TARGET_SPLITLONGCODE_H
#define MODELC_TARGET_SPLITLONGCODE_H

namespace llvm {
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

} // namespace modelc

#endif // MODELC_TARGET_SPLITLONGCODE_H
