//===- EquivalentFunctions.h - Finding kernels that compute the same -*- C++ -*-===//
//
// EquivalentFunctions finds, among the functions recorded so far, one that
// is equivalent to a new function: the same attributes (its symbol name
// aside) and a body equal op for op, locations aside. The kernel outlining
// of both back ends (modelc-outline-kernels for the CPU,
// modelc-gpu-merge-modules for CUDA) uses it to compile each distinct
// kernel once: a long program repeats the same fused groups on other
// buffers. Lookup is by a hash of the body, then an exact comparison.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TRANSFORMS_EQUIVALENTFUNCTIONS_H
#define MODELC_TRANSFORMS_EQUIVALENTFUNCTIONS_H

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace modelc {

/// The functions recorded so far, by a hash of their bodies.
class EquivalentFunctions {
public:
  /// Returns a recorded function equivalent to \p fn, or records \p fn and
  /// returns it.
  mlir::FunctionOpInterface unique(mlir::FunctionOpInterface fn) {
    mlir::DictionaryAttr attrs = attributesButName(fn);
    std::vector<Entry> &bucket = byHash[hash(fn, attrs)];
    for (Entry &e : bucket)
      if (e.attrs == attrs &&
          mlir::OperationEquivalence::isRegionEquivalentTo(
              &e.fn.getFunctionBody(), &fn.getFunctionBody(),
              mlir::OperationEquivalence::IgnoreLocations))
        return e.fn;
    bucket.push_back({fn, attrs});
    return fn;
  }

private:
  struct Entry {
    mlir::FunctionOpInterface fn;
    mlir::DictionaryAttr attrs;
  };

  /// Every attribute of \p fn (its type, visibility, launch bounds...) but
  /// its symbol name.
  static mlir::DictionaryAttr attributesButName(mlir::FunctionOpInterface fn) {
    mlir::NamedAttrList attrs(fn->getAttrDictionary());
    attrs.erase(mlir::SymbolTable::getSymbolAttrName());
    return attrs.getDictionary(fn->getContext());
  }

  /// A hash of \p attrs and of \p fn's body that ignores locations.
  static llvm::hash_code hash(mlir::FunctionOpInterface fn,
                              mlir::DictionaryAttr attrs) {
    llvm::hash_code h = mlir::hash_value(attrs);
    fn.getFunctionBody().walk([&](mlir::Operation *op) {
      h = llvm::hash_combine(
          h, mlir::OperationEquivalence::computeHash(
                 op, mlir::OperationEquivalence::ignoreHashValue,
                 mlir::OperationEquivalence::ignoreHashValue,
                 mlir::OperationEquivalence::IgnoreLocations));
    });
    return h;
  }

  llvm::DenseMap<llvm::hash_code, std::vector<Entry>> byHash;
};

} // namespace modelc

#endif // MODELC_TRANSFORMS_EQUIVALENTFUNCTIONS_H
