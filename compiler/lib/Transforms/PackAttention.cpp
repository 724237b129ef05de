//===- PackAttention.cpp - Attention on a fused projection's layout -------===//
//
// Implements the `mdl-pack-attention` pass. A transformer computes every
// head's query, key and value with one projection to 3*H*D features,
// reshaped to BxTx3xHxD; the heads are then moved to BxHxTxD for
// mdl.attention, and its result moved back to BxTxHxD:
//   %p = mdl.transpose %qkv {permutation = [0, 2, 3, 1, 4]}  // Bx3xHxTxD
//   %q = mdl.reshape (mdl.slice %p {start = [0, 0, 0, 0, 0], size = [B, 1, H, T, D]})
//   %k, %v likewise at 1 and 2
//   %o = mdl.attention %q, %k, %v
//   %y = mdl.transpose %o {permutation = [0, 2, 1, 3]}       // BxTxHxD
// Each move is a copy of the whole tensor, forwards, and the gradient's
// three slices, their sum and the move back are more, backwards. The pass
// replaces %y by `mdl.attention_packed %qkv`, whose kernels read and write
// those layouts in place, and whose gradient is one op laid out as %qkv.
// Only that exact pattern is rewritten (every dimension but the batch
// static, %o used by the transpose alone); the ops it leaves unused are
// erased. It runs before mdl-autodiff, so that the gradient is built from
// the packed op.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Passes.h"

#include "mdl/MDLOps.h"

#include "mlir/IR/Builders.h"

#include <optional>

using namespace mlir;
using namespace mlir::mdl;

namespace modelc {
#define GEN_PASS_DEF_MDLPACKATTENTION
#include "modelc/Transforms/Passes.h.inc"

namespace {

/// `v`'s defining op when it is an OpTy.
template <typename OpTy> OpTy defOf(Value v) {
  return v ? v.getDefiningOp<OpTy>() : OpTy();
}

/// Whether `slice` takes the whole of every dimension of its 5-D input but
/// dimension 1, where it takes one element, and returns that index.
std::optional<int64_t> slicedPart(SliceOp slice) {
  auto in = cast<RankedTensorType>(slice.getInput().getType());
  ArrayRef<int64_t> start = slice.getStart(), size = slice.getSize();
  if (in.getRank() != 5 ||
      llvm::any_of(slice.getStride(), [](int64_t s) { return s != 1; }))
    return std::nullopt;
  for (int64_t d = 0; d < 5; ++d) {
    if (d == 1)
      continue;
    bool whole = size[d] == in.getDimSize(d) ||
                 (size[d] == -1 && in.isDynamicDim(d));
    if (start[d] != 0 || !whole)
      return std::nullopt;
  }
  if (size[1] != 1)
    return std::nullopt;
  return start[1];
}

/// For `x` = reshape(slice(P)) taking P[:, i] (the size-1 dimension
/// dropped), P and i.
std::optional<std::pair<Value, int64_t>> partOf(Value x) {
  auto reshape = defOf<ReshapeOp>(x);
  auto slice = reshape ? defOf<SliceOp>(reshape.getInput()) : SliceOp();
  if (!slice)
    return std::nullopt;
  auto sliced = cast<RankedTensorType>(slice.getType()).getShape();
  auto out = cast<RankedTensorType>(x.getType()).getShape();
  SmallVector<int64_t> dropped = {sliced[0], sliced[2], sliced[3], sliced[4]};
  std::optional<int64_t> part = slicedPart(slice);
  if (!part || ArrayRef<int64_t>(dropped) != out)
    return std::nullopt;
  return std::make_pair(slice.getInput(), *part);
}

/// Whether `t` is a transpose by exactly `perm`.
bool transposesBy(TransposeOp t, ArrayRef<int64_t> perm) {
  return t && t.getPermutation() == perm;
}

/// The BxTx3xHxD tensor `att`'s operands come from, when they are its
/// parts 0, 1 and 2 moved to BxHxTxD (the pattern above); else null.
Value packedSource(AttentionOp att) {
  Value moved;
  SmallVector<Value, 3> operands = {att.getQuery(), att.getKey(), att.getValue()};
  for (auto [i, operand] : llvm::enumerate(operands)) {
    std::optional<std::pair<Value, int64_t>> part = partOf(operand);
    if (!part || part->second != int64_t(i) || (moved && part->first != moved))
      return Value();
    moved = part->first;
  }
  auto move = defOf<TransposeOp>(moved);
  if (!transposesBy(move, {0, 2, 3, 1, 4}))
    return Value();
  Value qkv = move.getInput();
  auto type = cast<RankedTensorType>(qkv.getType());
  if (type.getDimSize(2) != 3 ||
      llvm::any_of(type.getShape().drop_front(), ShapedType::isDynamic))
    return Value();
  return qkv;
}

/// Erases `op` and, recursively, the operands' producers it leaves unused
/// (mdl ops only, which have no side effects).
void eraseUnused(Operation *op) {
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value v : operands) {
    Operation *def = v.getDefiningOp();
    if (def && def->use_empty() && isa<SliceOp, ReshapeOp, TransposeOp>(def))
      eraseUnused(def);
  }
}

/// Rewrites `att` when it matches; returns whether it did.
bool pack(AttentionOp att) {
  if (!att->hasOneUse())
    return false;
  auto back = dyn_cast<TransposeOp>(*att->getUsers().begin());
  Value qkv = packedSource(att);
  if (!qkv || !transposesBy(back, {0, 2, 1, 3}))
    return false;
  OpBuilder b(back);
  auto packed = AttentionPackedOp::create(b, att.getLoc(), qkv, att.getCausal());
  if (packed.getType() != back.getType()) {
    packed->erase();
    return false;
  }
  back.getResult().replaceAllUsesWith(packed.getResult());
  back->erase();
  eraseUnused(att);
  return true;
}

struct MDLPackAttentionPass
    : impl::MDLPackAttentionBase<MDLPackAttentionPass> {
  void runOnOperation() override {
    SmallVector<AttentionOp> ops;
    getOperation().walk([&](AttentionOp att) { ops.push_back(att); });
    for (AttentionOp att : ops)
      pack(att);
  }
};

} // namespace
} // namespace modelc
