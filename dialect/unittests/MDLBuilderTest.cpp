//===- MDLBuilderTest.cpp - mdl builders infer their result types ---------===//
//
// Builds mdl ops from C++ without result types (as MLIRGen will) and checks
// the inferred types against shapes worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

/// A module with one function whose arguments have the given types.
struct Fixture : public ::testing::Test {
  MLIRContext context;
  OpBuilder builder{&context};
  Location loc = UnknownLoc::get(&context);
  ModuleOp module;
  Block *body = nullptr;

  Fixture() { context.loadDialect<mdl::MDLDialect, func::FuncDialect>(); }

  /// Creates @f(types...) and positions the builder in it.
  ValueRange makeFunction(TypeRange types) {
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module.getBody());
    auto fn = func::FuncOp::create(builder, loc, "f",
                                   builder.getFunctionType(types, {}));
    body = fn.addEntryBlock();
    builder.setInsertionPointToEnd(body);
    return body->getArguments();
  }
  /// Closes the function and verifies the module.
  bool finishAndVerify() {
    func::ReturnOp::create(builder, loc);
    bool ok = succeeded(verify(module));
    module->erase();
    return ok;
  }
  RankedTensorType t(ArrayRef<int64_t> shape, Type e) {
    return RankedTensorType::get(shape, e);
  }
};

constexpr int64_t kDyn = ShapedType::kDynamic;

TEST_F(Fixture, MatmulAndBroadcastAdd) {
  Type f32 = builder.getF32Type();
  ValueRange args = makeFunction(
      {t({kDyn, 784}, f32), t({784, 128}, f32), t({128}, f32)});
  auto mm = mdl::MatmulOp::create(builder, loc, args[0], args[1]);
  EXPECT_EQ(mm.getType(), t({kDyn, 128}, f32));
  auto add = mdl::AddOp::create(builder, loc, mm, args[2]);
  EXPECT_EQ(add.getType(), t({kDyn, 128}, f32));
  auto relu = mdl::ReluOp::create(builder, loc, add);
  EXPECT_EQ(relu.getType(), t({kDyn, 128}, f32));
  EXPECT_TRUE(finishAndVerify());
}

TEST_F(Fixture, ConvPoolFlatten) {
  Type f32 = builder.getF32Type();
  ValueRange args = makeFunction({t({kDyn, 1, 28, 28}, f32),
                                  t({32, 1, 3, 3}, f32), t({32}, f32)});
  auto conv = mdl::Conv2DOp::create(builder, loc, args[0], args[1], args[2],
                                    builder.getDenseI64ArrayAttr({1, 1}),
                                    builder.getDenseI64ArrayAttr({1, 1}),
                                    builder.getDenseI64ArrayAttr({1, 1}),
                                    builder.getI64IntegerAttr(1));
  // (28 + 2 - 2 - 1) / 1 + 1 = 28.
  EXPECT_EQ(conv.getType(), t({kDyn, 32, 28, 28}, f32));
  auto pool = mdl::MaxPool2DOp::create(builder, loc, conv,
                                       builder.getDenseI64ArrayAttr({2, 2}),
                                       builder.getDenseI64ArrayAttr({2, 2}),
                                       builder.getDenseI64ArrayAttr({0, 0}));
  EXPECT_EQ(pool.getType(), t({kDyn, 32, 14, 14}, f32));
  auto flat = mdl::FlattenOp::create(builder, loc, pool, 1, -1);
  EXPECT_EQ(flat.getType(), t({kDyn, 32 * 14 * 14}, f32));
  EXPECT_TRUE(finishAndVerify());
}

TEST_F(Fixture, LossAndArgmax) {
  Type f32 = builder.getF32Type(), i64 = builder.getI64Type();
  ValueRange args = makeFunction({t({kDyn, 10}, f32), t({kDyn}, i64)});
  auto loss = mdl::CrossEntropyOp::create(builder, loc, mdl::Reduction::mean,
                                          args[0], args[1], Value(), llvm::APFloat(0.0),
                                          IntegerAttr());
  EXPECT_EQ(loss.getType(), t({}, f32));
  auto am = mdl::ArgmaxOp::create(builder, loc, args[0], 1, false);
  EXPECT_EQ(am.getType(), t({kDyn}, i64));
  EXPECT_TRUE(finishAndVerify());
}

TEST_F(Fixture, CastBuilderTakesElementType) {
  Type f32 = builder.getF32Type(), i64 = builder.getI64Type();
  ValueRange args = makeFunction({t({kDyn}, i64)});
  auto cast = mdl::CastOp::create(builder, loc, args[0], f32);
  EXPECT_EQ(cast.getType(), t({kDyn}, f32));
  EXPECT_TRUE(finishAndVerify());
}

} // namespace
