//===- EntryAbi.cpp - The lowered signatures of the entry functions -------===//
//
// bindEntryAbis reads @train_step, @eval_metrics, @predict (and
// @decode_step) after convert-mdl-to-linalg (tensors, before
// bufferization). The leading
// arguments are the source function's own (input, labels, seed); the
// parameters and state that lowering appended carry an argument attribute
// naming their table symbol, state outputs a result attribute
// (docs/lowering.md). The leading results are known from the entry-point
// preparation: train_step = (loss, one gradient per parameter in table
// order[, correct count]), eval_metrics = (loss sum[, correct count]),
// predict = (outputs), decode_step = (output); the decoding step's second
// argument is its position, and its caches, arguments and results, carry
// `mdl.cache`.
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/ProgramSpec.h"

#include "mdl/MDLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace modelc;

static llvm::Error abiError(llvm::StringRef fn, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "@" + fn + ": " + msg);
}

/// The table symbol named by an argument/result attribute dictionary (any
/// symbol-reference or string attribute whose key mentions param or state).
static std::string tableSymbol(mlir::DictionaryAttr attrs) {
  if (!attrs)
    return "";
  for (mlir::NamedAttribute a : attrs) {
    llvm::StringRef key = a.getName().getValue();
    if (!key.contains("param") && !key.contains("state"))
      continue;
    if (auto ref = llvm::dyn_cast<mlir::FlatSymbolRefAttr>(a.getValue()))
      return ref.getValue().str();
    if (auto str = llvm::dyn_cast<mlir::StringAttr>(a.getValue()))
      return str.str();
  }
  return "";
}

static int findTensor(const std::vector<TensorSpec> &table,
                      llvm::StringRef name) {
  for (size_t i = 0; i < table.size(); ++i)
    if (table[i].name == name)
      return int(i);
  return -1;
}

/// A slot for a value of `type`; fails on what the adapters cannot pass.
static llvm::Expected<AbiSlot> makeSlot(llvm::StringRef fn, SlotKind kind,
                                        unsigned index, mlir::Type type) {
  auto t = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!t)
    return abiError(fn, "an argument or result is not a ranked tensor");
  AbiSlot slot{kind, index, unsigned(t.getRank()), AbiType::F32, {}};
  for (int64_t d : t.getShape())
    slot.shape.push_back(mlir::ShapedType::isDynamic(d) ? -1 : d);
  mlir::Type e = t.getElementType();
  if (e.isF32())
    slot.type = AbiType::F32;
  else if (e.isF64())
    slot.type = AbiType::F64;
  else if (e.isInteger(64))
    slot.type = AbiType::I64;
  else if (e.isInteger(32))
    slot.type = AbiType::I32;
  else
    return abiError(fn, "unsupported element type at the entry boundary");
  for (size_t i = 1; i < slot.shape.size(); ++i)
    if (slot.shape[i] < 0)
      return abiError(fn, "only the batch dimension may be dynamic");
  return slot;
}

/// The cache number an argument/result attribute dictionary names, or -1.
static int cacheIndex(mlir::DictionaryAttr attrs) {
  auto c = attrs ? attrs.getAs<mlir::IntegerAttr>(mlir::mdl::kCacheAttrName)
                 : mlir::IntegerAttr();
  return c ? int(c.getInt()) : -1;
}

static llvm::Error bindArgs(mlir::func::FuncOp fn, const ProgramSpec &spec,
                            EntryAbi &abi) {
  llvm::StringRef name = fn.getSymName();
  bool decode = name == mlir::mdl::kDecodeStepName;
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    mlir::Type type = fn.getArgumentTypes()[i];
    std::string sym = tableSymbol(fn.getArgAttrDict(i));
    SlotKind kind = SlotKind::Input;
    int index = 0;
    if ((index = cacheIndex(fn.getArgAttrDict(i))) >= 0) {
      kind = SlotKind::CacheIn;
    } else if (decode && i == 1) {
      kind = SlotKind::Position;
      index = 0;
    } else if (!sym.empty()) {
      if ((index = findTensor(spec.params, sym)) >= 0)
        kind = SlotKind::Param;
      else if ((index = findTensor(spec.states, sym)) >= 0)
        kind = SlotKind::StateIn;
      else
        return abiError(name, "argument " + llvm::Twine(i) +
                                  " names unknown table entry '" + sym + "'");
    } else if (i > 0) {
      auto t = llvm::cast<mlir::RankedTensorType>(type);
      kind = t.getRank() == 0 && t.getElementType().isInteger(64)
                 ? SlotKind::Seed
                 : SlotKind::Labels;
    }
    llvm::Expected<AbiSlot> slot = makeSlot(name, kind, unsigned(index), type);
    if (!slot)
      return slot.takeError();
    abi.args.push_back(*slot);
  }
  return llvm::Error::success();
}

static llvm::Error bindResults(mlir::func::FuncOp fn, const ProgramSpec &spec,
                               llvm::ArrayRef<std::pair<SlotKind, unsigned>>
                                   leading,
                               EntryAbi &abi) {
  llvm::StringRef name = fn.getSymName();
  if (fn.getNumResults() < leading.size())
    return abiError(name, "expected at least " + llvm::Twine(leading.size()) +
                              " results, found " +
                              llvm::Twine(fn.getNumResults()));
  for (unsigned i = 0; i < fn.getNumResults(); ++i) {
    SlotKind kind;
    unsigned index = 0;
    if (i < leading.size()) {
      std::tie(kind, index) = leading[i];
    } else if (int c = cacheIndex(fn.getResultAttrDict(i)); c >= 0) {
      kind = SlotKind::CacheOut;
      index = unsigned(c);
    } else {
      std::string sym = tableSymbol(fn.getResultAttrDict(i));
      int s = findTensor(spec.states, sym);
      if (s < 0)
        return abiError(name, "result " + llvm::Twine(i) +
                                  " is neither a known result nor a state "
                                  "output");
      kind = SlotKind::StateOut;
      index = unsigned(s);
    }
    llvm::Expected<AbiSlot> slot =
        makeSlot(name, kind, index, fn.getResultTypes()[i]);
    if (!slot)
      return slot.takeError();
    abi.results.push_back(*slot);
  }
  return llvm::Error::success();
}

/// Checks that every slot has the element type the runtime passes.
static llvm::Error checkTypes(const EntryAbi &abi, const ProgramSpec &spec) {
  for (const auto *slots : {&abi.args, &abi.results})
    for (const AbiSlot &s : *slots) {
      AbiType want = AbiType::F32;
      if (s.kind == SlotKind::Labels)
        want = spec.labelType;
      else if (s.kind == SlotKind::Input)
        want = spec.inputType;
      else if (s.kind == SlotKind::Seed || s.kind == SlotKind::Correct ||
               s.kind == SlotKind::Position)
        want = AbiType::I64;
      if (s.type != want)
        return abiError(abi.symbol, "an argument or result has an element "
                                    "type the runtime does not pass (labels "
                                    "must be i64 classes or f32 targets, "
                                    "inputs f32 or i32/i64 ids, tensors "
                                    "f32)");
    }
  return llvm::Error::success();
}

static llvm::Error bindOne(mlir::ModuleOp m, llvm::StringRef name,
                           const ProgramSpec &spec,
                           llvm::ArrayRef<std::pair<SlotKind, unsigned>> leading,
                           EntryAbi &abi) {
  auto fn = m.lookupSymbol<mlir::func::FuncOp>(name);
  if (!fn)
    return abiError(name, "missing from the lowered module");
  abi = EntryAbi{name.str(), {}, {}};
  if (llvm::Error e = bindArgs(fn, spec, abi))
    return e;
  if (llvm::Error e = bindResults(fn, spec, leading, abi))
    return e;
  return checkTypes(abi, spec);
}

llvm::Error modelc::bindEntryAbis(mlir::ModuleOp lowered, ProgramSpec &spec) {
  bool accuracy = !spec.metrics.empty();
  std::vector<std::pair<SlotKind, unsigned>> train{{SlotKind::Loss, 0}};
  for (unsigned i = 0; i < spec.params.size(); ++i)
    train.push_back({SlotKind::Grad, i});
  std::vector<std::pair<SlotKind, unsigned>> eval{{SlotKind::LossSum, 0}};
  if (accuracy) {
    train.push_back({SlotKind::Correct, 0});
    eval.push_back({SlotKind::Correct, 0});
  }
  if (llvm::Error e = bindOne(lowered, kTrainStepName, spec, train,
                              spec.trainStep))
    return e;
  if (llvm::Error e = bindOne(lowered, kEvalStepName, spec, eval,
                              spec.evalStep))
    return e;
  if (spec.decodeLength > 0)
    if (llvm::Error e = bindOne(lowered, mlir::mdl::kDecodeStepName, spec,
                                {{SlotKind::Output, 0}}, spec.decodeStep))
      return e;
  return bindOne(lowered, kPredictName, spec, {{SlotKind::Output, 0}},
                 spec.predict);
}
