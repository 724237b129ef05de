//===- MLIRGen.cpp - From the checked program to the mdl dialect ----------===//
//
// Emits the main model's graph as `mdl` ops, once per function role:
//   @forward_train(%x, %seed) -> logits      dropout active, batch norm on
//                                            batch statistics (updates state)
//   @forward_eval(%x) -> logits              dropout off, batch norm on the
//                                            running statistics
//   @train_loss(%x, %labels, %seed) -> loss  forward_train + the loss
//   @eval_metrics(%x, %labels) -> (loss sum[, correct count])
//   @decode_step(%x, %pos, %caches...) -> (output, caches...)
//                                            the decoding form, when the
//                                            model has one: one position
// Nodes are emitted in graph order, restricted to those the function's
// results need. Each dropout k gets the seed `%seed + k * 0x9E3779B97F4A7C15`.
//
//===----------------------------------------------------------------------===//

#include "modelc/MLIRGen/MLIRGen.h"

#include "ConfigAttr.h"
#include "FunctionEmitter.h"

#include "modelc/Sema/LayerSummary.h"

#include "mdl/MDLDialect.h"
#include "mdl/MDLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

using namespace modelc;
using namespace modelc::sema;

void modelc::registerMLIRGenDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::mdl::MDLDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
}


/// The #mdl.init attribute of a table entry.
static mlir::mdl::InitAttr initAttr(mlir::MLIRContext &ctx,
                                    const Initializer &init) {
  auto kind = mlir::mdl::symbolizeInitKind(init.kind);
  return mlir::mdl::InitAttr::get(&ctx, *kind,
                                  mlir::DenseF64ArrayAttr::get(&ctx, init.args));
}

/// Creates `func.func @name(args) -> results` and emits its body.
static void buildFunction(mlir::OpBuilder &b, mlir::ModuleOp module,
                          const Graph &g, const llvm::SourceMgr &sm, Role role,
                          llvm::StringRef name) {
  auto seedType = mlir::RankedTensorType::get({}, b.getI64Type());
  auto inputType = FunctionEmitter::toType(b, g.nodes[g.inputs[0]].type);
  llvm::SmallVector<mlir::Type> args{inputType};
  if (role == Role::TrainLoss || role == Role::EvalMetrics)
    args.push_back(FunctionEmitter::toType(b, g.nodes[*g.label].type));
  if (role == Role::ForwardTrain || role == Role::TrainLoss)
    args.push_back(seedType);
  std::vector<unsigned> roots;
  if (role == Role::ForwardTrain || role == Role::ForwardEval)
    roots = {g.output};
  else
    roots = {*g.loss};
  mlir::Location fnLoc = mlir::NameLoc::get(b.getStringAttr(name));
  b.setInsertionPointToEnd(module.getBody());
  auto fn = mlir::func::FuncOp::create(b, fnLoc, name,
                                       b.getFunctionType(args, {}));
  mlir::Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  FunctionEmitter em(b, g, sm, role);
  em.input = entry->getArgument(0);
  if (g.label && args.size() > 1 && args[1] != seedType)
    em.labels = entry->getArgument(1);
  if (args.back() == seedType)
    em.seed = entry->getArguments().back();
  llvm::SmallVector<mlir::Value> results = em.emit(roots);
  const Node &loss = g.loss ? g.nodes[*g.loss] : g.nodes[g.output];
  if (role == Role::EvalMetrics && loss.kind == OpKind::CrossEntropy &&
      loss.operands[0] == g.output &&
      mlir::mdl::configHasMetric(module, "accuracy")) {
    // correct = the rows whose argmax is the loss's target (ignored ones
    // left out): the label, or what the loss computes from it, as in
    // training (addTrainAccuracy reads the train step's cross_entropy).
    llvm::SmallVector<mlir::Value> logitsAndTarget =
        em.emit({g.output, loss.operands[1]});
    auto ce = attrsOf<OpKind::CrossEntropy>(loss);
    std::optional<int64_t> ignore;
    if (!ce.ignore_index.empty())
      ignore = ce.ignore_index[0];
    results.push_back(mlir::mdl::buildCorrectCount(b, results[0].getLoc(),
                                                   logitsAndTarget[0],
                                                   logitsAndTarget[1], ignore));
  }
  mlir::func::ReturnOp::create(b, fnLoc, results);
  fn.setFunctionType(b.getFunctionType(args, mlir::ValueRange(results).getTypes()));
}

/// The type of every cache of `d`, two per attention_decode node (key,
/// value): its key's [1, H, 1, D] with the decoded length T for 1.
static llvm::SmallVector<mlir::Type> cacheTypes(mlir::Builder &b,
                                                const DecodeForm &d) {
  llvm::SmallVector<mlir::Type> types(2 * d.numCaches);
  for (const Node &n : d.graph.nodes)
    if (n.kind == OpKind::AttentionDecode) {
      TensorType t = d.graph.nodes[n.operands[1]].type;
      t.shape[2] = SDim::fixed(d.length);
      unsigned c = unsigned(attrsOf<OpKind::AttentionDecode>(n).cache);
      types[2 * c] = types[2 * c + 1] = FunctionEmitter::toType(b, t);
    }
  return types;
}

/// Creates `func.func @decode_step(%x, %pos, %caches...) -> (output,
/// caches...)` from the decoding form (evaluation mode); each cache
/// argument and result carries its number, the function the decoded length.
static void buildDecodeFunction(mlir::OpBuilder &b, mlir::ModuleOp module,
                                const DecodeForm &d,
                                const llvm::SourceMgr &sm) {
  const Graph &g = d.graph;
  llvm::SmallVector<mlir::Type> caches = cacheTypes(b, d);
  llvm::SmallVector<mlir::Type> args{
      FunctionEmitter::toType(b, g.nodes[g.inputs[0]].type),
      mlir::RankedTensorType::get({}, b.getI64Type())};
  args.append(caches);
  mlir::Location fnLoc =
      mlir::NameLoc::get(b.getStringAttr(mlir::mdl::kDecodeStepName));
  b.setInsertionPointToEnd(module.getBody());
  auto fn = mlir::func::FuncOp::create(b, fnLoc, mlir::mdl::kDecodeStepName,
                                       b.getFunctionType(args, {}));
  mlir::Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  FunctionEmitter em(b, g, sm, Role::DecodeStep);
  em.input = entry->getArgument(0);
  em.position = entry->getArgument(1);
  for (unsigned c = 0; c < caches.size(); ++c)
    em.caches.push_back(entry->getArgument(2 + c));
  llvm::SmallVector<mlir::Value> results = em.emit({g.output});
  results.append(em.caches);
  mlir::func::ReturnOp::create(b, fnLoc, results);
  fn.setFunctionType(
      b.getFunctionType(args, mlir::ValueRange(results).getTypes()));
  for (unsigned c = 0; c < caches.size(); ++c) {
    fn.setArgAttr(2 + c, mlir::mdl::kCacheAttrName, b.getI64IntegerAttr(c));
    fn.setResultAttr(1 + c, mlir::mdl::kCacheAttrName,
                     b.getI64IntegerAttr(c));
  }
  fn->setAttr(mlir::mdl::kDecodeLengthAttrName, b.getI64IntegerAttr(d.length));
}

char modelc::InternalError::ID = 0;

/// The `mdl.layers` module attribute: one dictionary per top-level layer
/// (name, shape, params, flops, activation_bytes; sema::summarizeLayers),
/// read back by the program's spec for `info`.
static mlir::ArrayAttr buildLayersAttr(mlir::OpBuilder &b, const Graph &g) {
  std::vector<mlir::Attribute> layers;
  for (const sema::LayerSummary &l : sema::summarizeLayers(g))
    layers.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("name", b.getStringAttr(l.name)),
         b.getNamedAttr("shape", b.getDenseI64ArrayAttr(l.shape)),
         b.getNamedAttr("params", b.getI64IntegerAttr(l.params)),
         b.getNamedAttr("flops", b.getF64FloatAttr(l.flops)),
         b.getNamedAttr("activation_bytes",
                        b.getI64IntegerAttr(l.activationBytes))}));
  return b.getArrayAttr(layers);
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
modelc::generateMLIR(mlir::MLIRContext &context, const Program &program,
                     const llvm::SourceMgr &sourceMgr) {
  const Graph *g = program.getMainModel();
  if (!g)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        program.models.empty()
            ? "no model to generate: the file declares no model"
            : "several models and no train block: cannot tell which "
              "model to generate");
  context.loadDialect<mlir::mdl::MDLDialect, mlir::func::FuncDialect,
                      mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
  mlir::OpBuilder b(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(fileLoc(b, sourceMgr, g->loc));
  module->getOperation()->setAttr("mdl.config",
                                  buildConfigAttr(context, program, *g));
  module->getOperation()->setAttr("mdl.layers", buildLayersAttr(b, *g));
  b.setInsertionPointToEnd(module->getBody());
  for (const TableEntry &p : g->params)
    mlir::mdl::ParameterOp::create(b, fileLoc(b, sourceMgr, p.loc), p.name,
                                   FunctionEmitter::storageType(b, p.type),
                                   initAttr(context, p.init));
  for (const TableEntry &s : g->states)
    mlir::mdl::StateOp::create(b, fileLoc(b, sourceMgr, s.loc), s.name,
                               FunctionEmitter::toType(b, s.type),
                               initAttr(context, s.init));
  buildFunction(b, *module, *g, sourceMgr, Role::ForwardTrain,
                "forward_train");
  buildFunction(b, *module, *g, sourceMgr, Role::ForwardEval, "forward_eval");
  if (g->loss) {
    buildFunction(b, *module, *g, sourceMgr, Role::TrainLoss, "train_loss");
    buildFunction(b, *module, *g, sourceMgr, Role::EvalMetrics,
                  "eval_metrics");
  }
  if (program.decode)
    buildDecodeFunction(b, *module, *program.decode, sourceMgr);
  std::string diag;
  llvm::raw_string_ostream os(diag);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    os << d.getLocation() << ": " << d << "\n";
    return mlir::success();
  });
  if (mlir::failed(mlir::verify(*module)))
    return llvm::make_error<InternalError>(
        "the generated MLIR does not verify:\n" + diag);
  return std::move(module);
}
