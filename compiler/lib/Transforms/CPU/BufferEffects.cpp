//===- BufferEffects.cpp - What an op may do to a buffer ------------------===//
//
// Implements BufferEffects.h from the ops' declared memory effects: an
// effect on (a view of) the buffer, or on no named value, counts; an op
// that declares none (a call) counts when it takes a view of the buffer.
// An allocation owns its uses when every op that may reach it names it.
//
//===----------------------------------------------------------------------===//
#include "BufferEffects.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace modelc {
namespace {

/// Whether \p op, or an op nested in it, may have an effect that \p counts
/// accepts on \p root (or on an unnamed resource), or declares no effects
/// and takes a view of \p root.
bool mayHaveEffectOn(Operation *op, Value root,
                     llvm::function_ref<bool(MemoryEffects::Effect *)> counts) {
  return op
      ->walk([&](Operation *inner) {
        auto declared = dyn_cast<MemoryEffectOpInterface>(inner);
        if (!declared) {
          bool passed = llvm::any_of(inner->getOperands(), [&](Value v) {
            return isa<BaseMemRefType>(v.getType()) && rootOf(v) == root;
          });
          return passed ? WalkResult::interrupt() : WalkResult::advance();
        }
        SmallVector<MemoryEffects::EffectInstance> effects;
        declared.getEffects(effects);
        for (const MemoryEffects::EffectInstance &e : effects)
          if (counts(e.getEffect()) && (!e.getValue() || rootOf(e.getValue()) == root))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

} // namespace

Value rootOf(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

bool mayWriteOrFree(Operation *op, Value root) {
  return mayHaveEffectOn(op, root, [](MemoryEffects::Effect *e) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e);
  });
}

bool mayAccess(Operation *op, Value root) {
  return mayHaveEffectOn(op, root, [](MemoryEffects::Effect *e) {
    return isa<MemoryEffects::Read, MemoryEffects::Write, MemoryEffects::Free>(e);
  });
}

bool ownsItsUses(Value root) {
  if (!root.getDefiningOp<memref::AllocOp>())
    return false;
  SmallVector<Value> work = {root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == v) {
        work.push_back(user->getResult(0));
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
        return false;
    }
  }
  return true;
}

} // namespace modelc
