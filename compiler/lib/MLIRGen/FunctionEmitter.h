//===- FunctionEmitter.h - Emits one mdl function (internal) ----*- C++ -*-===//
//
// FunctionEmitter turns the nodes of a checked model graph into mdl ops inside
// one function, according to the function's role (training or evaluation
// forms of dropout and batch norm; summed losses for metrics).
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_LIB_MLIRGEN_FUNCTIONEMITTER_H
#define MODELC_LIB_MLIRGEN_FUNCTIONEMITTER_H

#include "modelc/Sema/Program.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace modelc {
using sema::Graph;
using sema::Node;
using sema::TensorType;

/// The FileLineColLoc of a source location.
mlir::Location fileLoc(mlir::Builder &b, const llvm::SourceMgr &sm,
                       llvm::SMLoc loc);

/// What a function computes.
enum class Role : unsigned { ForwardTrain, ForwardEval, TrainLoss, EvalMetrics };

/// Emits one function's body from the graph.
class FunctionEmitter {
public:
  FunctionEmitter(mlir::OpBuilder &b, const Graph &g,
                  const llvm::SourceMgr &sm, Role role)
      : b(b), g(g), sm(sm), role(role) {}

  /// Emits the nodes `roots` depend on; returns their values.
  llvm::SmallVector<mlir::Value> emit(llvm::ArrayRef<unsigned> roots);

  /// Function arguments the Input / Label / seed nodes map to.
  mlir::Value input, labels, seed;

  /// The MLIR type of a checked tensor type (`B` becomes `?`).
  static mlir::RankedTensorType toType(mlir::Builder &b, const TensorType &t);

private:
  mlir::Location loc(const Node &n);
  mlir::Value emitNode(const Node &n);
  mlir::Value emitLayer(const Node &n, llvm::ArrayRef<mlir::Value> ops,
                        mlir::Location l);
  mlir::Value scalar(double v, mlir::Type elt, mlir::Location l);
  mlir::Value batchNorm(const Node &n, llvm::ArrayRef<mlir::Value> ops,
                        mlir::Location l);

  mlir::OpBuilder &b;
  const Graph &g;
  const llvm::SourceMgr &sm;
  Role role;
  llvm::DenseMap<unsigned, mlir::Value> values;
  unsigned dropouts = 0;
};

} // namespace modelc

#endif // MODELC_LIB_MLIRGEN_FUNCTIONEMITTER_H
