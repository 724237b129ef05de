//===- FunctionEmitter.h - Emits one mdl function (internal) ----*- C++ -*-===//
//
// FunctionEmitter turns the nodes of a checked model graph into mdl ops inside
// one function, according to the function's role (training or evaluation
// forms of dropout and batch norm; summed losses for metrics). It walks the
// graph; the op emitters it dispatches to, one per OpKind, are in
// OpEmitters.cpp.
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
enum class Role : unsigned {
  ForwardTrain,
  ForwardEval,
  TrainLoss,
  EvalMetrics,
  DecodeStep, ///< the decoding form at one position (evaluation mode)
};

/// Emits one function's body from the graph.
class FunctionEmitter {
public:
  FunctionEmitter(mlir::OpBuilder &b, const Graph &g,
                  const llvm::SourceMgr &sm, Role role)
      : b(b), g(g), sm(sm), role(role) {}

  /// Emits the nodes `roots` depend on; returns their values.
  llvm::SmallVector<mlir::Value> emit(llvm::ArrayRef<unsigned> roots);

  /// Function arguments the Input / Label / seed / Position nodes map to.
  mlir::Value input, labels, seed, position;
  /// The decoding step's caches, two per attention_decode node (key, then
  /// value): the arguments, replaced by each node's updated caches.
  llvm::SmallVector<mlir::Value> caches;

  /// The MLIR type of a checked tensor type (`B` becomes `?`).
  static mlir::RankedTensorType toType(mlir::Builder &b, const TensorType &t);
  /// The type a parameter of type \p t is stored in: f32 for bf16 and f16
  /// (master weights, read through an mdl.cast), else toType(t).
  static mlir::RankedTensorType storageType(mlir::Builder &b, const TensorType &t);

  // The interface of the op emitters (OpEmitters.cpp).
  /// The builder the ops are created with.
  mlir::OpBuilder &builder() { return b; }
  /// True in the evaluation functions: dropout is the identity and batch
  /// norm uses the running statistics.
  bool isEval() const {
    return role == Role::ForwardEval || role == Role::EvalMetrics ||
           role == Role::DecodeStep;
  }
  /// True in @eval_metrics, whose losses are summed over the batch.
  bool sumsLosses() const { return role == Role::EvalMetrics; }
  /// A rank-0 constant of element type `elt`.
  mlir::Value scalar(double v, mlir::Type elt, mlir::Location l);
  /// The seed of the next dropout layer: the function's seed, offset by a
  /// multiple of the golden-ratio increment for the second and later ones.
  mlir::Value nextDropoutSeed(mlir::Location l);

private:
  mlir::Location loc(const Node &n);
  mlir::Value emitNode(const Node &n);

  mlir::OpBuilder &b;
  const Graph &g;
  const llvm::SourceMgr &sm;
  Role role;
  llvm::DenseMap<unsigned, mlir::Value> values;
  unsigned dropouts = 0;
};

/// Emits the mdl ops of one node from its emitted operands `ops` at `l`.
using OpEmitter = mlir::Value (*)(FunctionEmitter &fe, const Node &n,
                                  llvm::ArrayRef<mlir::Value> ops,
                                  mlir::Location l);

/// The emitter of `kind` (OpEmitters.cpp; a static_assert there keeps its
/// table complete and in the order of Ops.def).
OpEmitter getOpEmitter(sema::OpKind kind);

} // namespace modelc

#endif // MODELC_LIB_MLIRGEN_FUNCTIONEMITTER_H
