//===- Parser.h - Recursive-descent parser of the modelc language -*- C++ -*-=//
//
// parseModule() turns one buffer into an AST Module. The parser recovers from
// errors (it resynchronises at the next statement or declaration) so one run
// reports several errors; the Module it returns after errors is partial and
// must not be handed to later stages.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_FRONTEND_PARSER_H
#define MODELC_FRONTEND_PARSER_H

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Diagnostics.h"
#include "modelc/Frontend/Token.h"

#include <memory>
#include <vector>

namespace modelc {

/// Parses buffer `bufferId` of `diags.getSourceMgr()`. Always returns a
/// Module; check diags.hasErrors() before using it. When `comments` is given,
/// the buffer's comments are appended to it in source order.
std::unique_ptr<Module> parseModule(DiagnosticEngine &diags, unsigned bufferId,
                                    std::vector<Comment> *comments = nullptr);

} // namespace modelc

#endif // MODELC_FRONTEND_PARSER_H
