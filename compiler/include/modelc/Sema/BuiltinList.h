//===- BuiltinList.h - The builtin functions, for tools ---------*- C++ -*-===//
//
// A read-only view of semantic analysis's builtin table (names, parameters,
// signatures) for tools such as the language server's completion, so that
// the table stays written once, in compiler/lib/Sema/Builtins.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_SEMA_BUILTINLIST_H
#define MODELC_SEMA_BUILTINLIST_H

#include <string>
#include <vector>

namespace modelc {
namespace sema {

/// One builtin function as a tool shows it.
struct BuiltinDoc {
  /// Its name ("max_pool").
  std::string name;
  /// Its signature ("max_pool(x, kernel, stride=kernel, pad=0)").
  std::string signature;
  /// Its parameters' names, in order, and whether each may be left out.
  std::vector<std::string> params;
  std::vector<bool> optional;
  /// The name of the op it computes ("max_pool2d"); empty for the argument
  /// specifications of initialisers.
  std::string op;
};

/// Every builtin of the language, in the table's order.
std::vector<BuiltinDoc> listBuiltins();

} // namespace sema
} // namespace modelc

#endif // MODELC_SEMA_BUILTINLIST_H
