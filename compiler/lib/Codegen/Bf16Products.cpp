//===- Bf16Products.cpp - The operands of train_step's bf16 products ------===//
//
// Implements collectBf16Products: a walk over @train_step's products that
// mdl-assign-precision tagged `mdl.precision = "bf16"` (matmul, conv2d and
// the convolution's two gradients), recording the element counts of the
// two operands the runtime rounds to bf16 (Bf16.h). The batch is the only
// dynamic dimension of these tensors, so an operand's count is its static
// elements, per sample when it has a dynamic dimension.
//
//===----------------------------------------------------------------------===//

#include "Bf16Products.h"

#include "mdl/MDLOps.h"
#include "modelrt/core/Program.h"

using namespace modelc;

/// Records `value`'s elements as operand `i` of `product`.
static void addOperand(mlir::Value value, unsigned i, ProductOperandsSpec &product) {
  auto type = llvm::cast<mlir::ShapedType>(value.getType());
  int64_t elements = 1;
  bool perSample = false;
  for (int64_t d : type.getShape()) {
    if (mlir::ShapedType::isDynamic(d))
      perSample = true;
    else
      elements *= d;
  }
  (perSample ? product.perSample : product.fixed)[i] = elements;
}

std::vector<ProductOperandsSpec> modelc::collectBf16Products(mlir::func::FuncOp train) {
  std::vector<ProductOperandsSpec> products;
  train.walk([&](mlir::Operation *op) {
    auto precision = op->getAttrOfType<mlir::StringAttr>("mdl.precision");
    if (!precision || precision.getValue() != "bf16" || op->getNumOperands() < 2)
      return;
    ProductOperandsSpec product;
    if (llvm::isa<mlir::mdl::MatmulOp>(op))
      product.kind = MODELRT_PRODUCT_MATMUL;
    else if (llvm::isa<mlir::mdl::Conv2DOp, mlir::mdl::Conv2DGradInputOp,
                       mlir::mdl::Conv2DGradWeightOp>(op))
      product.kind = MODELRT_PRODUCT_CONV;
    else
      return;
    for (unsigned i = 0; i < 2; ++i)
      addOperand(op->getOperand(i), i, product);
    products.push_back(product);
  });
  return products;
}
