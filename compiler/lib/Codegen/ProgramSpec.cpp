//===- ProgramSpec.cpp - Reading what the runtime needs from the IR -------===//
//
// extractProgramSpec reads an `mdl` module whose entry points were prepared
// (train_step, eval_metrics, predict): the parameter/state tables with
// their initialisers mapped to MODELRT_INIT_*, the per-sample input, label
// and output shapes, the input's element type, cross_entropy's
// ignore_index, the metrics, the default configuration, and the decoding
// step's caches and length.
// bindEntryAbis then reads the lowered signatures (EntryAbi).
//
//===----------------------------------------------------------------------===//

#include "modelc/Codegen/ProgramSpec.h"

#include "Bf16Products.h"
#include "ConfigReader.h"
#include "FlopCount.h"

#include "mdl/MDLOps.h"
#include "modelrt/core/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace modelc;

static llvm::Error specError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// fan_out as PyTorch computes it for our layouts: [in, out] matrices (the
/// model multiplies x W) and OIHW convolution weights.
/// True when \p train rounds a value to bf16 or f16 (an mdl.cast to either:
/// the model's own element types, after mdl-widen-low-precision).
static bool roundsToHalfWidth(mlir::func::FuncOp train) {
  auto halfWidth = [](mlir::mdl::CastOp cast) {
    mlir::Type e = mlir::cast<mlir::RankedTensorType>(cast.getType()).getElementType();
    return e.isBF16() || e.isF16();
  };
  return train
      .walk([&](mlir::mdl::CastOp cast) {
        return halfWidth(cast) ? mlir::WalkResult::interrupt() : mlir::WalkResult::advance();
      })
      .wasInterrupted();
}

static int64_t fanOut(llvm::ArrayRef<int64_t> shape) {
  if (shape.size() < 2)
    return shape.empty() ? 1 : shape[0];
  if (shape.size() == 2)
    return shape[1];
  int64_t n = shape[0];
  for (int64_t d : shape.drop_front(2))
    n *= d;
  return n;
}

/// Maps `#mdl.init<...>` onto the runtime's initialisers.
static TensorSpec tensorSpec(llvm::StringRef name, mlir::RankedTensorType type,
                             mlir::mdl::InitAttr init) {
  TensorSpec t;
  t.name = name.str();
  t.shape.assign(type.getShape().begin(), type.getShape().end());
  t.fanOut = fanOut(t.shape);
  llvm::ArrayRef<double> args = init.getArgs().asArrayRef();
  auto arg = [&](unsigned i, double dflt) {
    return i < args.size() ? args[i] : dflt;
  };
  switch (init.getKind()) {
  case mlir::mdl::InitKind::kaiming_uniform: {
    // U(+-sqrt(6/((1+a^2) fan_in))) = U(+-gain*sqrt(3/fan_in)).
    double a = arg(1, 0);
    t.initKind = MODELRT_INIT_KAIMING_UNIFORM;
    t.initArgs[0] = std::sqrt(2.0 / (1.0 + a * a));
    t.fanIn = int64_t(arg(0, 1));
    break;
  }
  case mlir::mdl::InitKind::uniform:
    t.initKind = MODELRT_INIT_UNIFORM;
    t.initArgs[0] = arg(0, 0);
    t.initArgs[1] = arg(1, 1);
    break;
  case mlir::mdl::InitKind::normal:
    t.initKind = MODELRT_INIT_NORMAL;
    t.initArgs[0] = arg(0, 0);
    t.initArgs[1] = arg(1, 1);
    break;
  case mlir::mdl::InitKind::zeros:
    t.initKind = MODELRT_INIT_ZEROS;
    break;
  case mlir::mdl::InitKind::ones:
    t.initKind = MODELRT_INIT_CONSTANT;
    t.initArgs[0] = 1;
    break;
  case mlir::mdl::InitKind::constant:
    t.initKind = MODELRT_INIT_CONSTANT;
    t.initArgs[0] = arg(0, 0);
    break;
  }
  return t;
}

/// The per-sample shape of a batched tensor type (drops dimension 0).
static std::vector<int64_t> sampleShape(mlir::Type type) {
  auto t = llvm::cast<mlir::RankedTensorType>(type);
  return {t.getShape().begin() + 1, t.getShape().end()};
}

static llvm::Error readSignatures(mlir::ModuleOp module, ProgramSpec &spec) {
  auto predict = module.lookupSymbol<mlir::func::FuncOp>(kPredictName);
  auto eval = module.lookupSymbol<mlir::func::FuncOp>(kEvalStepName);
  if (!predict || predict.getNumResults() != 1 || predict.getNumArguments() < 1)
    return specError("the module has no @predict(%x) -> outputs function");
  for (mlir::Type t : {predict.getArgumentTypes()[0], predict.getResultTypes()[0]})
    if (!llvm::isa<mlir::RankedTensorType>(t) ||
        llvm::cast<mlir::RankedTensorType>(t).getRank() < 1)
      return specError("@predict must take and return batched tensors");
  spec.inputShape = sampleShape(predict.getArgumentTypes()[0]);
  spec.outputShape = sampleShape(predict.getResultTypes()[0]);
  mlir::Type input =
      llvm::cast<mlir::RankedTensorType>(predict.getArgumentTypes()[0])
          .getElementType();
  if (input.isInteger(64) || input.isInteger(32))
    spec.inputType = input.isInteger(64) ? AbiType::I64 : AbiType::I32;
  else if (!input.isF32())
    return specError("model inputs must be f32, i32 or i64 tensors");
  if (!eval || eval.getNumArguments() < 2)
    return specError("the module has no @eval_metrics(%x, %labels) function");
  auto labels = llvm::cast<mlir::RankedTensorType>(eval.getArgumentTypes()[1]);
  eval.walk([&](mlir::mdl::CrossEntropyOp ce) {
    if (auto ignore = ce.getIgnoreIndexAttr())
      spec.ignoreIndex = ignore.getInt();
  });
  if (labels.getElementType().isInteger(64)) {
    spec.labelType = AbiType::I64;
    spec.labelShape = sampleShape(labels);
  } else if (labels.getElementType().isF32()) {
    spec.labelType = AbiType::F32;
    spec.labelShape = sampleShape(labels);
  } else {
    std::string type;
    llvm::raw_string_ostream(type) << labels.getElementType();
    return specError("labels of element type " + type +
                     " are not supported: use i64 class indices or f32 "
                     "targets");
  }
  return llvm::Error::success();
}

/// Reads the optional `mdl.layers` module attribute (one dictionary per
/// layer, written by MLIRGen); entries missing a field are skipped.
static std::vector<LayerSpec> readLayers(mlir::ModuleOp module) {
  std::vector<LayerSpec> layers;
  auto attr = module->getAttrOfType<mlir::ArrayAttr>("mdl.layers");
  if (!attr)
    return layers;
  for (auto d : attr.getAsRange<mlir::DictionaryAttr>()) {
    auto name = d.getAs<mlir::StringAttr>("name");
    auto shape = d.getAs<mlir::DenseI64ArrayAttr>("shape");
    auto params = d.getAs<mlir::IntegerAttr>("params");
    auto flops = d.getAs<mlir::FloatAttr>("flops");
    auto bytes = d.getAs<mlir::IntegerAttr>("activation_bytes");
    if (!name || !shape || !params || !flops || !bytes)
      continue;
    layers.push_back({name.str(),
                      {shape.asArrayRef().begin(), shape.asArrayRef().end()},
                      params.getInt(), flops.getValueAsDouble(),
                      bytes.getInt()});
  }
  return layers;
}

/// Reads the caches of @decode_step (its arguments marked `mdl.cache`, in
/// their order) and its decoded length; nothing without a decoding step.
static llvm::Error readDecodeStep(mlir::ModuleOp module, ProgramSpec &spec) {
  auto fn = module.lookupSymbol<mlir::func::FuncOp>(mlir::mdl::kDecodeStepName);
  if (!fn)
    return llvm::Error::success();
  auto length =
      fn->getAttrOfType<mlir::IntegerAttr>(mlir::mdl::kDecodeLengthAttrName);
  if (!length || length.getInt() < 1)
    return specError("@decode_step has no positive 'mdl.decode_length'");
  spec.decodeLength = length.getInt();
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    auto c =
        fn.getArgAttrOfType<mlir::IntegerAttr>(i, mlir::mdl::kCacheAttrName);
    if (!c)
      continue;
    auto type =
        llvm::dyn_cast<mlir::RankedTensorType>(fn.getArgumentTypes()[i]);
    if (c.getInt() != int64_t(spec.caches.size()) || !type ||
        !type.hasStaticShape())
      return specError("@decode_step: cache arguments must be static "
                       "tensors numbered 0, 1, ... in order");
    TensorSpec cache;
    cache.name = "cache" + std::to_string(c.getInt() / 2) +
                 (c.getInt() % 2 ? ".value" : ".key");
    cache.shape.assign(type.getShape().begin(), type.getShape().end());
    cache.initKind = MODELRT_INIT_ZEROS;
    spec.caches.push_back(std::move(cache));
  }
  return llvm::Error::success();
}

llvm::Expected<ProgramSpec> modelc::extractProgramSpec(mlir::ModuleOp module) {
  ProgramSpec spec;
  auto config = module->getAttrOfType<mlir::DictionaryAttr>("mdl.config");
  if (!config)
    return specError("the module has no 'mdl.config' attribute (the train "
                     "and data configuration)");
  if (auto name = config.getAs<mlir::StringAttr>("model"))
    spec.name = name.str();
  for (auto p : module.getOps<mlir::mdl::ParameterOp>())
    spec.params.push_back(
        tensorSpec(p.getSymName(), p.getTensorType(), p.getInit()));
  for (auto s : module.getOps<mlir::mdl::StateOp>())
    spec.states.push_back(
        tensorSpec(s.getSymName(), s.getTensorType(), s.getInit()));
  if (llvm::Error e = readSignatures(module, spec))
    return std::move(e);
  // num_classes: the labels' class count, -1 when unknown (the output's
  // width then), 0 when the loss ignores the labels (no classifier).
  int64_t classes = -1;
  if (auto data = config.getAs<mlir::DictionaryAttr>("data"))
    if (auto n = data.getAs<mlir::IntegerAttr>("num_classes"))
      classes = n.getInt();
  spec.numClasses = spec.labelType == AbiType::I64 ? classes : 0;
  if (spec.labelType == AbiType::I64 && classes < 0 &&
      spec.outputShape.size() == 1)
    spec.numClasses = spec.outputShape[0];
  // class_names: one per class, kept only for a classifier.
  if (auto data = config.getAs<mlir::DictionaryAttr>("data"))
    if (auto names = data.getAs<mlir::ArrayAttr>("class_names"))
      for (mlir::Attribute a : names)
        if (auto s = llvm::dyn_cast<mlir::StringAttr>(a))
          spec.classNames.push_back(s.str());
  if (spec.numClasses <= 0 ||
      int64_t(spec.classNames.size()) != spec.numClasses)
    spec.classNames.clear();
  if (auto metrics = config.getAs<mlir::ArrayAttr>("metrics"))
    for (mlir::Attribute m : metrics)
      if (auto s = llvm::dyn_cast<mlir::StringAttr>(m); s && s != "loss")
        spec.metrics.push_back(s.str());
  for (const std::string &m : spec.metrics)
    if (m != "accuracy")
      return specError("metric '" + m + "' is not supported by code "
                       "generation (supported: accuracy)");
  if (llvm::Error e = readTrainDefaults(config, spec.config))
    return std::move(e);
  auto precision = module->getAttrOfType<mlir::StringAttr>("mdl.precision");
  spec.bf16 = precision && precision.getValue() == "bf16";
  spec.tf32 = precision && precision.getValue() == "tf32";
  if (auto train = module.lookupSymbol<mlir::func::FuncOp>(kTrainStepName)) {
    spec.trainFlopsPerSample = countTrainFlopsPerSample(train);
    if (spec.bf16)
      spec.bf16Products = collectBf16Products(train);
    spec.roundedValues = roundsToHalfWidth(train);
  }
  spec.layers = readLayers(module);
  if (llvm::Error e = readDecodeStep(module, spec))
    return std::move(e);
  return spec;
}
