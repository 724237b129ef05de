//===- OnnxExport.cpp - The evaluation graph as an ONNX model --------------===//
//
// Builds the ModelProto of `@forward_eval`: the graph input (the model's
// parameter, symbolic batch), the data block's input transform from the
// module's `mdl.config`, the initialisers from the checkpoint (checked
// against the module's parameter and state tables), one emitter call per op
// (OnnxOps.cpp), the output, and the metadata; then serialises it with
// libprotobuf.
//
//===----------------------------------------------------------------------===//
#include "OnnxBuilder.h"

#include "modelc/Export/OnnxExport.h"

#include "mdl/MDLOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <set>

using namespace modelc;
namespace mdl = mlir::mdl;

char OnnxExportError::ID = 0;

int modelc::onnxElementType(mlir::Type type) {
  if (type.isF32())
    return onnx::TensorProto::FLOAT;
  if (type.isF64())
    return onnx::TensorProto::DOUBLE;
  if (type.isBF16())
    return onnx::TensorProto::BFLOAT16;
  if (type.isF16())
    return onnx::TensorProto::FLOAT16;
  if (type.isInteger(32))
    return onnx::TensorProto::INT32;
  if (type.isInteger(64))
    return onnx::TensorProto::INT64;
  if (type.isInteger(1))
    return onnx::TensorProto::BOOL;
  return 0;
}

std::string OnnxBuilder::fresh() { return "t" + std::to_string(counter++); }

onnx::NodeProto &OnnxBuilder::node(llvm::StringRef opType,
                                   llvm::ArrayRef<std::string> inputs,
                                   llvm::ArrayRef<std::string> outputs) {
  onnx::NodeProto &n = *graph.add_node();
  n.set_op_type(opType.str());
  n.set_name(opType.str() + "_" + std::to_string(graph.node_size() - 1));
  for (const std::string &in : inputs)
    n.add_input(in);
  for (const std::string &out : outputs)
    n.add_output(out);
  return n;
}

std::string OnnxBuilder::unary(llvm::StringRef opType,
                               llvm::ArrayRef<std::string> inputs) {
  std::string out = fresh();
  node(opType, inputs, {out});
  return out;
}

void OnnxBuilder::attr(onnx::NodeProto &n, llvm::StringRef key, int64_t v) {
  onnx::AttributeProto &a = *n.add_attribute();
  a.set_name(key.str());
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(v);
}

void OnnxBuilder::attr(onnx::NodeProto &n, llvm::StringRef key, float v) {
  onnx::AttributeProto &a = *n.add_attribute();
  a.set_name(key.str());
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(v);
}

void OnnxBuilder::attr(onnx::NodeProto &n, llvm::StringRef key,
                       llvm::ArrayRef<int64_t> v) {
  onnx::AttributeProto &a = *n.add_attribute();
  a.set_name(key.str());
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v)
    a.add_ints(x);
}

void OnnxBuilder::initializer(const std::string &onnxName, int dataType,
                              llvm::ArrayRef<int64_t> shape,
                              llvm::StringRef bytes) {
  onnx::TensorProto &t = *graph.add_initializer();
  t.set_name(onnxName);
  t.set_data_type(dataType);
  for (int64_t d : shape)
    t.add_dims(d);
  t.set_raw_data(bytes.str());
}

std::string OnnxBuilder::constI64(llvm::ArrayRef<int64_t> values) {
  std::string out = fresh();
  initializer(out, onnx::TensorProto::INT64, {int64_t(values.size())},
              llvm::StringRef(reinterpret_cast<const char *>(values.data()),
                              values.size() * sizeof(int64_t)));
  return out;
}

std::string OnnxBuilder::constF32(llvm::ArrayRef<float> values,
                                  llvm::ArrayRef<int64_t> shape) {
  std::string out = fresh();
  initializer(out, onnx::TensorProto::FLOAT, shape,
              llvm::StringRef(reinterpret_cast<const char *>(values.data()),
                              values.size() * sizeof(float)));
  return out;
}

namespace {
/// One export: the module, the checkpoint and the model being built.
class Exporter {
public:
  Exporter(mlir::ModuleOp module, const SafetensorsContents &checkpoint,
           const OnnxExportOptions &options)
      : module(module), checkpoint(checkpoint), options(options),
        b(*model.mutable_graph()) {}

  llvm::Error run(llvm::raw_ostream &os);

private:
  llvm::Error addBody(mlir::func::FuncOp fn);
  llvm::Error checkCheckpoint();
  llvm::Error checkTensor(llvm::StringRef key, mlir::Type type);
  void addInput(mlir::Value input);
  std::string addTransform(const std::string &input, mlir::Type type);
  void bindStored(mlir::Operation *op, llvm::StringRef prefix,
                  llvm::StringRef symbol);
  void addInitializers();
  void addOutput(mlir::Value result);
  void addMetadata();
  /// The `mdl.config` dictionary and its `data` entry (null when absent).
  mlir::DictionaryAttr config() const;
  mlir::DictionaryAttr dataConfig() const;

  mlir::ModuleOp module;
  const SafetensorsContents &checkpoint;
  const OnnxExportOptions &options;
  onnx::ModelProto model;
  OnnxBuilder b;
  /// The parameters and state the graph reads: (prefix, symbol).
  std::set<std::string> initialised;
  std::vector<std::pair<std::string, std::string>> stored;
};
} // namespace

mlir::DictionaryAttr Exporter::config() const {
  return module->getAttrOfType<mlir::DictionaryAttr>("mdl.config");
}

mlir::DictionaryAttr Exporter::dataConfig() const {
  mlir::DictionaryAttr c = config();
  return c ? c.getAs<mlir::DictionaryAttr>("data") : nullptr;
}

static std::string shapeString(llvm::ArrayRef<int64_t> shape) {
  return "[" +
         llvm::join(llvm::map_range(shape,
                                    [](int64_t d) { return std::to_string(d); }),
                    ", ") +
         "]";
}

/// Checks that the checkpoint holds \p key as an F32 tensor of \p type.
llvm::Error Exporter::checkTensor(llvm::StringRef key, mlir::Type type) {
  auto tensor = mlir::cast<mlir::RankedTensorType>(type);
  auto it = checkpoint.tensors.find(key.str());
  if (it == checkpoint.tensors.end())
    return llvm::createStringError("the checkpoint has no tensor '" + key +
                                   "' that the model needs");
  const StoredTensor &t = it->second;
  if (t.dtype != "F32" || !tensor.getElementType().isF32() ||
      llvm::ArrayRef<int64_t>(t.shape) != tensor.getShape())
    return llvm::createStringError(
        "the checkpoint's tensor '" + key + "' is " + t.dtype + " " +
        shapeString(t.shape) + ", the model's is f32 " +
        shapeString(tensor.getShape()));
  return llvm::Error::success();
}

/// The checkpoint must hold every parameter and state tensor with the
/// module's shape; the model's name is no part of the rule
/// (modelsupport/CheckpointModel.h).
llvm::Error Exporter::checkCheckpoint() {
  for (auto p : module.getOps<mdl::ParameterOp>())
    if (llvm::Error e = checkTensor(("param/" + p.getSymName()).str(),
                                    p.getType()))
      return e;
  for (auto s : module.getOps<mdl::StateOp>())
    if (llvm::Error e = checkTensor(("state/" + s.getSymName()).str(),
                                    s.getType()))
      return e;
  return llvm::Error::success();
}

/// The ONNX value type of \p type, its dynamic dimensions called
/// options.batchName.
static void setValueType(onnx::ValueInfoProto &info, mlir::Type type,
                         llvm::StringRef batchName) {
  auto tensor = mlir::cast<mlir::RankedTensorType>(type);
  onnx::TypeProto_Tensor &t = *info.mutable_type()->mutable_tensor_type();
  t.set_elem_type(onnxElementType(tensor.getElementType()));
  for (int64_t d : tensor.getShape()) {
    onnx::TensorShapeProto_Dimension &dim = *t.mutable_shape()->add_dim();
    if (mlir::ShapedType::isDynamic(d))
      dim.set_dim_param(batchName.str());
    else
      dim.set_dim_value(d);
  }
}

void Exporter::addInput(mlir::Value input) {
  onnx::ValueInfoProto &info = *model.mutable_graph()->add_input();
  info.set_name(options.inputName);
  setValueType(info, input.getType(), options.batchName);
  b.bind(input, options.includeTransform
                    ? addTransform(options.inputName, input.getType())
                    : options.inputName);
}

/// (x * scale - mean) / std, as the runtime applies it to stored samples:
/// one mean and std, or one per channel (dimension 1 of the input).
std::string Exporter::addTransform(const std::string &input, mlir::Type type) {
  auto tensor = mlir::cast<mlir::RankedTensorType>(type);
  mlir::DictionaryAttr data = dataConfig();
  if (!data || !tensor.getElementType().isF32())
    return input;
  auto f64 = [&](llvm::StringRef key, double dflt) {
    auto a = data.getAs<mlir::FloatAttr>(key);
    return a ? a.getValueAsDouble() : dflt;
  };
  double scale = f64("scale", 1), shift = f64("shift", 0);
  std::vector<double> mean, sd;
  auto m = data.getAs<mlir::DenseF64ArrayAttr>("mean");
  auto s = data.getAs<mlir::DenseF64ArrayAttr>("std");
  if (m && s)
    mean.assign(m.asArrayRef().begin(), m.asArrayRef().end()),
        sd.assign(s.asArrayRef().begin(), s.asArrayRef().end());
  else if (shift != 0)
    mean = {-shift}, sd = {1.0};
  std::string x = input;
  if (scale != 1)
    x = b.unary("Mul", {x, b.constF32({float(scale)}, {})});
  if (mean.empty())
    return x;
  std::vector<int64_t> shape;
  if (mean.size() > 1) {
    shape.assign(std::max<int64_t>(tensor.getRank() - 1, 1), 1);
    shape[0] = int64_t(mean.size());
  }
  std::vector<float> meanF(mean.begin(), mean.end()), sdF(sd.begin(), sd.end());
  x = b.unary("Sub", {x, b.constF32(meanF, shape)});
  if (llvm::all_of(sd, [](double v) { return v == 1; }))
    return x;
  return b.unary("Div", {x, b.constF32(sdF, shape)});
}

/// Binds a param or state_read to the initialiser named after its symbol,
/// recorded for addInitializers.
void Exporter::bindStored(mlir::Operation *op, llvm::StringRef prefix,
                          llvm::StringRef symbol) {
  b.bind(op->getResult(0), symbol.str());
  if (initialised.insert(symbol.str()).second)
    stored.push_back({prefix.str(), symbol.str()});
}

void Exporter::addInitializers() {
  for (const auto &[prefix, symbol] : stored) {
    const StoredTensor &t = checkpoint.tensors.at(prefix + symbol);
    b.initializer(symbol, onnx::TensorProto::FLOAT, t.shape, t.bytes);
  }
}

void Exporter::addOutput(mlir::Value result) {
  b.node("Identity", {b.name(result)}, {options.outputName});
  onnx::ValueInfoProto &info = *model.mutable_graph()->add_output();
  info.set_name(options.outputName);
  setValueType(info, result.getType(), options.batchName);
}

void Exporter::addMetadata() {
  auto add = [&](llvm::StringRef key, llvm::StringRef value) {
    onnx::StringStringEntryProto &e = *model.add_metadata_props();
    e.set_key(key.str());
    e.set_value(value.str());
  };
  llvm::json::Array classes;
  mlir::DictionaryAttr data = dataConfig();
  if (auto names = data ? data.getAs<mlir::ArrayAttr>("class_names") : nullptr)
    for (auto n : names.getAsRange<mlir::StringAttr>())
      classes.push_back(n.str());
  add("classes", llvm::formatv("{0}", llvm::json::Value(std::move(classes))).str());
  add("modelc_version", options.producerVersion);
  add("input_transform", options.includeTransform ? "included" : "left out");
}

/// Emits the body of @forward_eval; an op without an ONNX form is an error
/// whatever the checkpoint.
llvm::Error Exporter::addBody(mlir::func::FuncOp fn) {
  addInput(fn.getArgument(0));
  for (mlir::Operation &op : fn.getBody().front()) {
    if (auto p = mlir::dyn_cast<mdl::ParamOp>(op))
      bindStored(&op, "param/", p.getName());
    else if (auto s = mlir::dyn_cast<mdl::StateReadOp>(op))
      bindStored(&op, "state/", s.getName());
    else if (auto ret = mlir::dyn_cast<mlir::func::ReturnOp>(op))
      addOutput(ret.getOperand(0));
    else if (llvm::Error e = emitOnnxOp(b, &op))
      return e;
  }
  return llvm::Error::success();
}

llvm::Error Exporter::run(llvm::raw_ostream &os) {
  auto fn = module.lookupSymbol<mlir::func::FuncOp>("forward_eval");
  if (!fn || fn.getNumArguments() != 1 || fn.getNumResults() != 1)
    return llvm::createStringError(
        "the module has no evaluation function @forward_eval(x) -> y");
  model.set_ir_version(8);
  model.set_producer_name("modelc");
  model.set_producer_version(options.producerVersion);
  model.add_opset_import()->set_version(kOnnxOpset);
  mlir::DictionaryAttr c = config();
  auto name = c ? c.getAs<mlir::StringAttr>("model") : nullptr;
  model.mutable_graph()->set_name(name ? name.str() : "model");
  if (llvm::Error e = addBody(fn))
    return e;
  if (llvm::Error e = checkCheckpoint())
    return e;
  addInitializers();
  addMetadata();
  std::string bytes;
  if (!model.SerializeToString(&bytes))
    return llvm::createStringError("the ONNX model could not be serialised");
  os << bytes;
  return llvm::Error::success();
}

llvm::Error modelc::exportOnnx(mlir::ModuleOp module,
                               const SafetensorsContents &checkpoint,
                               const OnnxExportOptions &options,
                               llvm::raw_ostream &os) {
  return Exporter(module, checkpoint, options).run(os);
}
