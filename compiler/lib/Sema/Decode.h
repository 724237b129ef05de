//===- Decode.h - The decoding form of a model (internal) -------*- C++ -*-===//
//
// Internal interface of semantic analysis for the decoding form of the main
// model (Program.h, DecodeForm): buildDecodeForm() elaborates it
// (Decode.cpp), checkPositionwise() checks it against the model as written
// (DecodeCheck.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_SEMA_DECODE_H
#define MODELC_LIB_SEMA_DECODE_H

#include "Elaborator.h"

#include <optional>
#include <string>

namespace modelc {
namespace sema {

/// "op at file:line:col", and "(called at file:line:col)" with the model's
/// call it comes from when the op is in a called function.
std::string describeNode(const Node &n, const llvm::SourceMgr &sourceMgr);

/// Builds the decoding form of `model`, the checked graph of the model
/// `decl` declared in `module`, for one position of one sequence; the
/// elaboration reports nothing through `diags`. Returns std::nullopt when
/// the model cannot be decoded one position at a time, with the reason in
/// `whyNot` when the model has attention (empty when it has none).
std::optional<DecodeForm>
buildDecodeForm(DiagnosticEngine &diags, const Graph &model,
                const FuncDecl &decl, const ModuleInfo &module,
                const std::vector<const ModuleInfo *> &allModules,
                std::string &whyNot);

/// Checks that `form` computes, at each position, what `model` computes at
/// that position of a whole sequence: node for node the same ops, each
/// value with at most one axis of positions (its size T in the model, 1 in
/// the form), which no op reduces, reshapes into other axes, convolves,
/// slices or attends over except causal self-attention. Returns "" when it
/// does, else why not (naming the op and its place).
std::string checkPositionwise(const Graph &model, const DecodeForm &form,
                              const llvm::SourceMgr &sourceMgr);

} // namespace sema
} // namespace modelc

#endif // MODELC_LIB_SEMA_DECODE_H
