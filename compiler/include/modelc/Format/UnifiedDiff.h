//===- UnifiedDiff.h - Line diffs in the unified format ---------*- C++ -*-===//
//
// The diff that `modelc fmt --check` prints for a file that is not
// formatted: `diff -u` style hunks with three lines of context.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FORMAT_UNIFIEDDIFF_H
#define MODELC_FORMAT_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace modelc {

/// The unified diff turning `before` (named `beforeName`) into `after`
/// (named `afterName`), with `context` lines of context around each change;
/// empty when the texts are equal.
std::string unifiedDiff(llvm::StringRef before, llvm::StringRef after,
                        llvm::StringRef beforeName, llvm::StringRef afterName,
                        unsigned context = 3);

} // namespace modelc

#endif // MODELC_FORMAT_UNIFIEDDIFF_H
