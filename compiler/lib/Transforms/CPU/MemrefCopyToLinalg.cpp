//===- MemrefCopyToLinalg.cpp - Strided copies lowered to loops -----------===//
//
// Implements `modelc-memref-copy-to-linalg`, run before the CPU pipeline's
// loop lowering: every `memref.copy` between strided views (pads, concat,
// grouped convolution, slice gradients) becomes a `linalg.copy`, which
// convert-linalg-to-loops turns into loops. Left alone, such a copy lowers
// to a call to `memrefCopy`, a symbol of libmlir_c_runner_utils that
// executables linked with the modelc runtime do not have. Copies between
// identity-layout (contiguous) buffers already lower to an
// llvm.intr.memcpy and stay.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_MEMREFCOPYTOLINALGPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// True when `v` is a memref with the identity layout (contiguous).
bool isContiguous(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getLayout().isIdentity();
}

/// The pass: see the file comment.
struct MemrefCopyToLinalgPass
    : impl::MemrefCopyToLinalgPassBase<MemrefCopyToLinalgPass> {
  using MemrefCopyToLinalgPassBase::MemrefCopyToLinalgPassBase;

  void runOnOperation() final {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp op) {
      if (!isContiguous(op.getSource()) || !isContiguous(op.getTarget()))
        copies.push_back(op);
    });
    for (memref::CopyOp op : copies) {
      OpBuilder b(op);
      linalg::CopyOp::create(b, op.getLoc(), op.getSource(), op.getTarget());
      op.erase();
    }
  }
};

} // namespace
} // namespace modelc
