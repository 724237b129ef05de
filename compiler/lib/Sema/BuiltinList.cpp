//===- BuiltinList.cpp - The builtin functions, for tools -----------------===//
//
// Implements listBuiltins() over the builtin table of Builtins.cpp.
//
//===----------------------------------------------------------------------===//

#include "modelc/Sema/BuiltinList.h"

#include "Elaborator.h"

using namespace modelc;
using namespace modelc::sema;

std::vector<BuiltinDoc> sema::listBuiltins() {
  std::vector<BuiltinDoc> docs;
  for (const BuiltinInfo &b : getBuiltins()) {
    BuiltinDoc d;
    d.name = b.name;
    d.signature = b.signature;
    for (const BuiltinParam &p : b.params) {
      d.params.push_back(p.name);
      d.optional.push_back(p.optional);
    }
    if (b.op)
      d.op = getOpKindName(*b.op).str();
    docs.push_back(std::move(d));
  }
  return docs;
}
