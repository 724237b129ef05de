//===- MatmulToBlas.cpp - f32 contractions on memrefs -> cblas_sgemm ------===//
//
// Implements the `modelc-matmul-to-blas` pass: every f32 two-operand
// contraction on rank-2 memrefs (linalg.matmul, with or without transposing
// indexing maps, linalg.contract, or an equivalent linalg.generic) whose
// operands have a unit innermost stride becomes a call
//   cblas_sgemm(RowMajor, tA, tB, M, N, K, 1, A, lda, B, ldb, 1, C, ldc)
// (beta = 1: linalg contractions accumulate into their init; beta = 0 when
// the init is a zero fill that nothing else reads, which is then erased, or
// a copy of a zero-filled buffer, which is erased, and the fill with it once
// no copy reads it).
// Anything else
// is left for the generic loop lowering. In a module whose
// `mdl.precision` is bf16 (mdl-assign-precision) the call is to
// `bf16-callee` instead, with the same signature; in tf32, to `tf32-callee`
// when one is given. Pointers are formed from the
// memref's aligned pointer plus its offset; leading dimensions from its
// strides.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/Linalg/LibraryCalls.h"
#include "modelc/Transforms/Linalg/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_MATMULTOBLASPASS
#include "modelc/Transforms/Linalg/Passes.h.inc"

namespace {

/// CBLAS enumerators (cblas.h): row-major storage, (no-)transpose.
constexpr int32_t CblasRowMajor = 101;
constexpr int32_t CblasNoTrans = 111;
constexpr int32_t CblasTrans = 112;

/// How one contraction maps onto sgemm: C[m,n] += opA(A)[m,k] * opB(B)[k,n].
struct GemmPlan {
  bool transA = false;
  bool transB = false;
};

/// Returns true if `value` is a rank-2 f32 memref with unit innermost stride.
bool isRowMajorF32Matrix(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || type.getRank() != 2 || !type.getElementType().isF32())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides[1] == 1;
}

/// Matches `map`'s results against the loop dims (first, second); sets
/// `transposed` when they appear swapped. Fails for anything else.
LogicalResult matchOperandMap(AffineMap map, unsigned first, unsigned second,
                              bool &transposed) {
  if (map.getNumResults() != 2 || !map.isProjectedPermutation())
    return failure();
  unsigned r0 = map.getDimPosition(0), r1 = map.getDimPosition(1);
  if (r0 == first && r1 == second) {
    transposed = false;
    return success();
  }
  if (r0 == second && r1 == first) {
    transposed = true;
    return success();
  }
  return failure();
}

/// Decides whether `op` can become one sgemm call, and with which
/// transpositions.
FailureOr<GemmPlan> planGemm(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return failure();
  for (Value operand : op->getOperands())
    if (!isRowMajorF32Matrix(operand))
      return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || !dims->batch.empty() || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1)
    return failure();
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  GemmPlan plan;
  bool transC = false;
  if (failed(matchOperandMap(maps[0], m, k, plan.transA)) ||
      failed(matchOperandMap(maps[1], k, n, plan.transB)) ||
      failed(matchOperandMap(maps[2], m, n, transC)) || transC)
    return failure();
  return plan;
}

/// A matrix operand as sgemm wants it: element pointer and leading dim.
struct BlasMatrix {
  Value ptr;
  Value ld;
};

/// Builds the element pointer and the leading dimension max(stride0, cols,
/// 1) of a row-major memref. The max only matters for degenerate shapes
/// (one row, or zero columns), where any stride is valid for the memref but
/// BLAS demands ld >= max(1, cols).
BlasMatrix buildBlasMatrix(OpBuilder &b, Location loc, Value memref) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value ptr = elementPointer(b, loc, memref);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value cols = arith::MaxSIOp::create(b, loc, meta.getSizes()[1], one);
  Value ld = arith::MaxSIOp::create(b, loc, meta.getStrides()[0], cols);
  Value ld32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), ld);
  return {ptr, ld32};
}

/// Returns the i32 size of dimension `dim` of `memref`.
Value buildDim32(OpBuilder &b, Location loc, Value memref, int64_t dim) {
  Value size = memref::DimOp::create(b, loc, memref, dim);
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), size);
}

/// cblas_sgemm's signature.
FunctionType sgemmType(MLIRContext *ctx) {
  Type i32 = IntegerType::get(ctx, 32), f32 = Float32Type::get(ctx);
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  return FunctionType::get(
      ctx, {i32, i32, i32, i32, i32, i32, f32, ptr, i32, ptr, i32, f32, ptr, i32},
      {});
}

/// Follows reshapes of `v` (which view the whole buffer) to their source.
Value throughReshapes(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// True if `op` writes 0.0 to every element of `buffer` (a linalg.fill, or
/// its generalised form: an all-parallel generic with no inputs yielding a
/// zero constant).
bool isZeroFillOf(Operation *op, Value buffer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getDpsInitOperand(0)->get() != buffer ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  Value value;
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    value = fill.value();
  else if (auto generic = dyn_cast<linalg::GenericOp>(op);
           generic && generic.getNumDpsInputs() == 0 &&
           generic.getIndexingMapsArray()[0].isIdentity())
    value = cast<linalg::YieldOp>(generic.getBody()->getTerminator())
                .getOperand(0);
  return value && value.getParentBlock() != linalgOp.getBlock() &&
         matchPattern(value, m_AnyZeroFloat());
}

/// The ops of `op`'s block before `op` that use the buffer `root` (through
/// reshapes, in their operands or regions), the reshapes apart, latest
/// first. Found from the buffer's uses, not by walking the block back from
/// `op` (which cost a product's distance from its buffer's fill); ordering
/// them renumbers the block at most once after each rewrite inserts ops.
SmallVector<Operation *> usersBefore(Operation *op, Value root) {
  Block *block = op->getBlock();
  SmallVector<Operation *> users;
  SmallVector<Value> views = {root};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user) &&
          user->getOperand(0) == view) {
        views.push_back(user->getResult(0));
        continue;
      }
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (inBlock && inBlock->isBeforeInBlock(op))
        users.push_back(inBlock);
    }
  }
  llvm::sort(users,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  users.erase(std::unique(users.begin(), users.end()), users.end());
  return users;
}

/// The source of a whole-buffer copy into `target` (memref.copy or
/// linalg.copy), or null.
Value copySourceInto(Operation *op, Value target) {
  if (auto copy = dyn_cast<memref::CopyOp>(op); copy && copy.getTarget() == target)
    return copy.getSource();
  if (auto copy = dyn_cast<linalg::CopyOp>(op);
      copy && copy.getOutputs().front() == target)
    return copy.getInputs().front();
  return nullptr;
}

/// The zero fill of `src` if it is its last writer before `op` (ops that
/// only copy from `src` may come between); null otherwise.
Operation *zeroFillBefore(Operation *op, Value src) {
  Value root = throughReshapes(src);
  for (Operation *prev : usersBefore(op, root)) {
    if (isZeroFillOf(prev, src) || isZeroFillOf(prev, root))
      return prev;
    auto copy = dyn_cast<memref::CopyOp>(prev);
    if (!copy || throughReshapes(copy.getTarget()) == root)
      return nullptr;
  }
  return nullptr;
}

/// How `op`'s output `c` comes to hold zeros just before it.
struct ZeroInit {
  Operation *init = nullptr; ///< the zero fill of c, or a copy of zeros into c
  Operation *fill = nullptr; ///< the fill of the copy's source
};

/// Finds the last op before `op` (in the same block) that uses c's
/// buffer when it is a zero fill of c or a copy of a zero-filled buffer
/// into c (bufferization's copy of one zero tensor shared by several
/// products). sgemm can then overwrite (beta = 0) instead of accumulating
/// into zeros.
ZeroInit findZeroInit(Operation *op, Value c) {
  Value root = throughReshapes(c);
  SmallVector<Operation *> users = usersBefore(op, root);
  if (users.empty())
    return {};
  Operation *last = users.front();
  if (isZeroFillOf(last, c) || isZeroFillOf(last, root))
    return {last, nullptr};
  for (Value target : {c, root})
    if (Value src = copySourceInto(last, target))
      if (Operation *fill = zeroFillBefore(last, src))
        return {last, fill};
  return {};
}

/// Erases `fill` when nothing but deallocations uses its buffer any more.
void eraseIfUnread(Operation *fill) {
  Value buffer = cast<linalg::LinalgOp>(fill).getDpsInitOperand(0)->get();
  Value root = throughReshapes(buffer);
  for (Operation *user : root.getUsers())
    if (user != fill && !isa<memref::DeallocOp>(user) &&
        !(isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user) &&
          user->getResult(0) == buffer && buffer.hasOneUse()))
      return;
  fill->erase();
}

/// Replaces `op` by the call to `callee` described by `plan`.
void rewriteToSgemm(linalg::LinalgOp op, const GemmPlan &plan,
                    StringRef callee) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value a = op.getDpsInputOperand(0)->get();
  Value bm = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  auto i32 = [&](int32_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value one = arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                             APFloat(1.0f));
  Value beta = one;
  if (ZeroInit zero = findZeroInit(op, c); zero.init) {
    beta = arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                          APFloat(0.0f));
    zero.init->erase();
    if (zero.fill)
      eraseIfUnread(zero.fill);
  }
  BlasMatrix ma = buildBlasMatrix(b, loc, a);
  BlasMatrix mb = buildBlasMatrix(b, loc, bm);
  BlasMatrix mc = buildBlasMatrix(b, loc, c);
  Value m = buildDim32(b, loc, c, 0), n = buildDim32(b, loc, c, 1);
  Value k = buildDim32(b, loc, a, plan.transA ? 0 : 1);
  SmallVector<Value> args = {
      i32(CblasRowMajor), i32(plan.transA ? CblasTrans : CblasNoTrans),
      i32(plan.transB ? CblasTrans : CblasNoTrans), m, n, k, one, ma.ptr,
      ma.ld, mb.ptr, mb.ld, beta, mc.ptr, mc.ld};
  func::CallOp::create(b, loc, callee, TypeRange{}, args);
  op->erase();
}

/// The pass: collects plannable contractions, then rewrites them.
struct MatmulToBlasPass : impl::MatmulToBlasPassBase<MatmulToBlasPass> {
  using MatmulToBlasPassBase::MatmulToBlasPassBase;
  void runOnOperation() final {
    SmallVector<std::pair<linalg::LinalgOp, GemmPlan>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (FailureOr<GemmPlan> plan = planGemm(op); succeeded(plan))
        work.emplace_back(op, *plan);
    });
    if (work.empty())
      return;
    std::string target = calleeForPrecision();
    if (failed(declareLibraryFunction(getOperation(), target,
                                      sgemmType(&getContext()),
                                      "cblas_sgemm's")))
      return signalPassFailure();
    for (auto &[op, plan] : work)
      rewriteToSgemm(op, plan, target);
  }

  /// The function called for the module's `mdl.precision`.
  std::string calleeForPrecision() {
    auto attr = getOperation()->getAttrOfType<StringAttr>("mdl.precision");
    StringRef precision = attr ? attr.getValue() : "f32";
    if (precision == "bf16")
      return bf16Callee;
    if (precision == "tf32" && !tf32Callee.empty())
      return tf32Callee;
    return callee;
  }
};

} // namespace

} // namespace modelc
