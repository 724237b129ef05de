//===- OutlineKernels.cpp - One function per fused kernel -----------------===//
//
// Implements the `modelc-outline-kernels` pass. After bufferization and the
// BLAS rewrite, every top-level computation of an entry point (a linalg op
// on memrefs — one fused group —, a memref.copy, an scf loop nest, a call
// to cblas_sgemm or to a runtime convolution or pooling) moves into its own private, never-inlined function
//   @<entry>.k<N>.<names>
// where <names> are the mdl ops the kernel computes (from the NameLocs the
// mdl-to-linalg conversion attaches, e.g. `train_step.k7.relu.max_pool`).
// Profilers (perf, `train --profile`) then see one symbol per kernel. A
// kernel equivalent to one outlined before (the same computation on other
// buffers; locations aside; EquivalentFunctions.h) is not kept: its call
// goes to the first, so each distinct kernel is compiled once. Profiles
// still name every call site: the instrumentation's label belongs to the
// call, not to the function.
//
// With `instrument`, each kernel call is bracketed by
//   modelrt_kernel_enter(name) / modelrt_kernel_exit(name, flops, bytes)
// (runtime/include/modelrt/core/Profile.h), where `name` points at a constant
// string "<entry>.k<N>.<names> @ file:line" and `flops` is the kernel's
// arithmetic work for this call: for a linalg op, the iteration-domain size
// times the arithmetic ops of its payload; for sgemm, 2*M*N*K; for a
// convolution, 2*N*O*OH*OW*C*KH*KW; for pooling, N*C*OH*OW*KH*KW; `bytes`
// is the size of every distinct buffer the kernel reads or writes, each
// counted once (KernelProfile.h, emitKernelBytes).
//
//===----------------------------------------------------------------------===//
#include "KernelProfile.h"
#include "ParallelKernels.h"
#include "modelc/Transforms/CPU/RuntimeCalls.h"
#include "modelc/Transforms/CPU/Passes.h"
#include "modelc/Transforms/Autodiff.h"
#include "modelc/Transforms/EquivalentFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "modelc/Transforms/CPU/Passes.h.inc"

namespace {

/// Collects the NameLoc names (first occurrence order) and the first
/// file:line found in `loc`; `backward` (autodiff's marker, not an op name)
/// is left out of the names and reported through `isBackward`.
void describeLoc(Location loc, llvm::SetVector<StringRef> &names,
                 std::string &where, bool *isBackward = nullptr) {
  loc->walk([&](Location l) {
    if (auto named = dyn_cast<NameLoc>(l)) {
      if (named.getName() == kBackwardLocName) {
        if (isBackward)
          *isBackward = true;
      } else {
        names.insert(named.getName().getValue());
      }
    }
    if (auto file = dyn_cast<FileLineColLoc>(l); file && where.empty())
      where = (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
               Twine(file.getLine()))
                  .str();
    return WalkResult::advance();
  });
}

/// The kernel's symbol suffix: its mdl op names joined by '.', at most four.
std::string kernelSuffix(Operation *op) {
  llvm::SetVector<StringRef> names;
  std::string where;
  describeLoc(op->getLoc(), names, where);
  if (auto call = dyn_cast<func::CallOp>(op))
    names.insert(call.getCallee());
  std::string s;
  unsigned n = 0;
  for (StringRef name : names) {
    if (n++ == 4)
      break;
    s += "." + name.str();
  }
  if (s.empty())
    s = "." + op->getName().stripDialect().str();
  return s;
}

/// True for the top-level ops that become kernels.
bool isKernel(Operation *op) {
  if (op->getNumResults() != 0)
    return false;
  if (auto call = dyn_cast<func::CallOp>(op))
    return call.getCallee().starts_with("cblas_") ||
           call.getCallee() == kGemmBf16Call ||
           call.getCallee().starts_with(kConvCallPrefix) ||
           call.getCallee().starts_with(kMaxPoolCallPrefix) ||
           call.getCallee().starts_with(kAvgPoolCallPrefix) ||
           call.getCallee().starts_with(kAttentionCallPrefix) ||
           call.getCallee().starts_with(kEmbeddingCallPrefix);
  return isa<linalg::LinalgOp, memref::CopyOp, scf::ForOp, scf::ParallelOp,
             scf::ForallOp>(op);
}

/// Moves `op` into a new private function `name` placed before `parent`;
/// replaces it with a call. Captured values become arguments. Returns the
/// call and the function.
std::pair<func::CallOp, func::FuncOp> outline(Operation *op, StringRef name,
                                              func::FuncOp parent) {
  llvm::SetVector<Value> used, captured;
  SmallVector<Operation *> constants;
  for (Value v : op->getOperands())
    used.insert(v);
  for (Region &r : op->getRegions())
    getUsedValuesDefinedAbove(r, used);
  splitOutlinedInputs(used, captured, constants);
  SmallVector<Type> types;
  for (Value v : captured)
    types.push_back(v.getType());
  OpBuilder b(parent);
  auto fn = func::FuncOp::create(b, op->getLoc(), name,
                                 b.getFunctionType(types, {}));
  fn.setPrivate();
  fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
  fn->setAttr(kKernelAttr, b.getUnitAttr());
  Block *body = fn.addEntryBlock();
  IRMapping map;
  for (auto [v, arg] : llvm::zip(captured, body->getArguments()))
    map.map(v, arg);
  b.setInsertionPointToStart(body);
  for (Operation *c : constants)
    b.clone(*c, map);
  b.clone(*op, map);
  func::ReturnOp::create(b, op->getLoc());
  b.setInsertionPoint(op);
  auto call = func::CallOp::create(b, op->getLoc(), fn,
                                   SmallVector<Value>(captured.begin(),
                                                      captured.end()));
  op->erase();
  return {call, fn};
}

/// The pass: see the file comment.
struct OutlineKernelsPass : impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  using OutlineKernelsPassBase::OutlineKernelsPassBase;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn.isPublic() && !fn.isExternal())
        entries.push_back(fn);
    if (instrument)
      declareProfileHooks(module);
    // The kernels outlined so far, in every entry point: a new one
    // equivalent to one of them is dropped and its call goes to the first.
    EquivalentFunctions kernels;
    for (func::FuncOp fn : entries)
      outlineFunction(fn, kernels);
  }

  void outlineFunction(func::FuncOp fn, EquivalentFunctions &outlined) {
    SmallVector<Operation *> kernels;
    for (Operation &op : fn.getBody().getOps())
      if (isKernel(&op))
        kernels.push_back(&op);
    unsigned index = 0;
    for (Operation *op : kernels) {
      std::string name =
          (fn.getSymName() + ".k" + Twine(index++) + kernelSuffix(op)).str();
      llvm::SetVector<StringRef> names;
      std::string where;
      bool backward = false;
      describeLoc(op->getLoc(), names, where, &backward);
      Value flops, bytes;
      if (instrument) {
        OpBuilder b(op);
        flops = emitKernelFlops(b, op);
        bytes = emitKernelBytes(b, op);
      }
      auto [call, kernel] = outline(op, name, fn);
      if (auto shared = outlined.unique(kernel); shared != kernel) {
        call.setCallee(shared.getName());
        kernel.erase();
      }
      std::string label = where.empty() ? name : name + " @ " + where;
      if (backward)
        label += " (backward)";
      if (instrument)
        instrumentKernelCall(call, name, label, flops, bytes);
    }
  }
};

} // namespace

} // namespace modelc
