//===- OutputFile.h - Writing the driver's output files ---------*- C++ -*-===//
//
// The driver's outputs (an --emit stage's text or bitcode, a library's
// header) are written so that a failed write never leaves a partial file in
// place of a good one: a regular file is written as a temporary beside it
// and renamed over it once complete.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_TOOLS_MODELC_OUTPUTFILE_H
#define MODELC_TOOLS_MODELC_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

namespace modelc {

/// Writes what \p emit prints to \p path ("-": standard output). A regular
/// file is written as a temporary beside it and renamed over it once
/// complete, so a failed write (a full disk, a file-size limit) leaves an
/// existing file as it was; anything else that exists (a device such as
/// /dev/null, a pipe) is written in place. Returns 0; 1 when \p emit
/// returned false (it reported why; nothing is written); or what \p fail
/// returns after a write error, given "cannot write 'PATH': REASON".
int writeOutput(llvm::StringRef path,
                llvm::function_ref<bool(llvm::raw_ostream &)> emit,
                llvm::function_ref<int(const llvm::Twine &)> fail);

} // namespace modelc

#endif // MODELC_TOOLS_MODELC_OUTPUTFILE_H
