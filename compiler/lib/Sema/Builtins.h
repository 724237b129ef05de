//===- Builtins.h - Builtin functions (internal) ----------------*- C++ -*-===//
//
// Helpers shared by the builtin handlers (argument checks, attribute
// construction) and the handlers defined in BuiltinsNN.cpp that the builtin
// table in Builtins.cpp refers to.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_SEMA_BUILTINS_H
#define MODELC_LIB_SEMA_BUILTINS_H

#include "Elaborator.h"

namespace modelc {
namespace sema {

/// Checks that `v` (argument `arg` of builtin `fn`) is a tensor, of a float
/// element type when `needFloat`; reports an error otherwise.
bool requireTensor(Elaborator &el, const Value &v, llvm::StringRef fn,
                   llvm::StringRef arg, Frame &frame, bool needFloat = true);
/// Reads an integer argument (>= `min`); `dflt` when absent.
std::optional<int64_t> intArg(Elaborator &el, const Value &v,
                              llvm::StringRef fn, llvm::StringRef arg,
                              int64_t dflt, int64_t min, llvm::SMLoc loc,
                              Frame &frame);
/// Reads a number argument; `dflt` when absent.
std::optional<double> numberArg(Elaborator &el, const Value &v,
                                llvm::StringRef fn, llvm::StringRef arg,
                                double dflt, llvm::SMLoc loc, Frame &frame);

// Handlers of BuiltinsNN.cpp.
Value handleMaxPool(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc, Frame &);
Value handleAvgPool(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc, Frame &);
Value handleConvolution(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc,
                        Frame &);
Value handleDropout(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc, Frame &);
Value handleAttention(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc,
                      Frame &);
Value handlePositions(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc,
                      Frame &);
Value handleBatchNorm(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc,
                      Frame &);
Value handleLayerNorm(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc,
                      Frame &);
Value handleEmbedding(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc,
                      Frame &);
Value handleCrossEntropy(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc,
                         Frame &);
Value handleMSELoss(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc, Frame &);
Value handleL1Loss(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc, Frame &);
Value handleBCEWithLogits(Elaborator &, llvm::ArrayRef<Value>, llvm::SMLoc,
                          Frame &);

} // namespace sema
} // namespace modelc

#endif // MODELC_LIB_SEMA_BUILTINS_H
