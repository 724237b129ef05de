//===- FlopCount.cpp - FLOPs of one training step per sample --------------===//
//
// Counts the multiply-adds (2 FLOPs each, modelsupport/Flops.h) of the products in @train_step:
// matmul / batch_matmul (result elements x contracted size), conv2d with
// its two adjoints (grad elements x C/groups x KH x KW), and attention (two
// [Tq, Tk] x D products per head forward, five in its adjoint, which
// recomputes the scores). The batch
// dimension (dynamic) counts as 1, so the total is per sample; products
// that contract over the batch (weight gradients) are per sample too.
// Elementwise work is not counted: it is small next to the products.
//
//===----------------------------------------------------------------------===//

#include "FlopCount.h"

#include "mdl/MDLOps.h"
#include "modelsupport/Flops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace modelc;
using modelsupport::convolutionFlops;
using modelsupport::productFlops;

/// Product of the static sizes of `type` (dynamic sizes count as 1).
static double staticElements(mlir::Type type, unsigned dropFront = 0) {
  auto t = llvm::cast<mlir::RankedTensorType>(type);
  double n = 1;
  for (int64_t d : t.getShape().drop_front(dropFront))
    n *= mlir::ShapedType::isDynamic(d) ? 1.0 : double(d);
  return n;
}

/// Size of the contracted (last) dimension of a product's lhs.
static double contracted(mlir::Value lhs) {
  auto t = llvm::cast<mlir::RankedTensorType>(lhs.getType());
  int64_t k = t.getShape().back();
  return mlir::ShapedType::isDynamic(k) ? 1.0 : double(k);
}

/// The keys' length (dimension 2) of an attention's BxHxTxD key; 1 when
/// dynamic.
static double keysOf(mlir::Value key) {
  auto t = llvm::cast<mlir::RankedTensorType>(key.getType());
  int64_t n = t.getDimSize(2);
  return mlir::ShapedType::isDynamic(n) ? 1.0 : double(n);
}

/// The length T (dimension 1) of a packed attention's BxTx3xHxD qkv; 1
/// when dynamic.
static double lengthOf(mlir::Value qkv) {
  auto t = llvm::cast<mlir::RankedTensorType>(qkv.getType());
  int64_t n = t.getDimSize(1);
  return mlir::ShapedType::isDynamic(n) ? 1.0 : double(n);
}

double modelc::countTrainFlopsPerSample(mlir::func::FuncOp train) {
  double flops = 0;
  train.walk([&](mlir::Operation *op) {
    if (auto mm = llvm::dyn_cast<mlir::mdl::MatmulOp>(op))
      flops += productFlops(staticElements(mm.getType()),
                            contracted(mm.getLhs()));
    else if (auto bmm = llvm::dyn_cast<mlir::mdl::BatchMatmulOp>(op))
      flops += productFlops(staticElements(bmm.getType()),
                            contracted(bmm.getLhs()));
    else if (auto att = llvm::dyn_cast<mlir::mdl::AttentionOp>(op))
      flops += 2 * productFlops(staticElements(att.getType()),
                                keysOf(att.getKey()));
    else if (auto ag = llvm::dyn_cast<mlir::mdl::AttentionGradOp>(op))
      flops += 5 * productFlops(staticElements(ag.getQuery().getType()),
                                keysOf(ag.getKey()));
    else if (auto ap = llvm::dyn_cast<mlir::mdl::AttentionPackedOp>(op))
      flops += 2 * productFlops(staticElements(ap.getType()),
                                lengthOf(ap.getQkv()));
    else if (auto apg = llvm::dyn_cast<mlir::mdl::AttentionPackedGradOp>(op))
      flops += 5 * productFlops(staticElements(apg.getOutput().getType()),
                                lengthOf(apg.getQkv()));
    else if (auto conv = llvm::dyn_cast<mlir::mdl::Conv2DOp>(op))
      flops += convolutionFlops(staticElements(conv.getType()),
                                staticElements(conv.getWeight().getType(), 1));
    else if (auto gi = llvm::dyn_cast<mlir::mdl::Conv2DGradInputOp>(op))
      flops += convolutionFlops(staticElements(gi.getGrad().getType()),
                                staticElements(gi.getWeight().getType(), 1));
    else if (auto gw = llvm::dyn_cast<mlir::mdl::Conv2DGradWeightOp>(op))
      flops += convolutionFlops(staticElements(gw.getGrad().getType()),
                                staticElements(gw.getType(), 1));
  });
  return flops;
}
