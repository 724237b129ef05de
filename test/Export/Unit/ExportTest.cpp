//===- ExportTest.cpp - Unit tests of compiler/lib/Export ------------------===//
//
// The ONNX exporter on hand-written mdl modules (the nodes, initialisers,
// input transform, names and metadata of the ModelProto it writes; an op
// without an ONNX form as an OnnxExportError at the op's location; a
// checkpoint of another model), the safetensors reader's checks, and the
// library header's names and escaping.
//
//===----------------------------------------------------------------------===//
#include "modelc/Export/LibraryHeader.h"
#include "modelc/Export/OnnxExport.h"
#include "modelrt/io/Checkpoint.h"
#include "modelrt/io/CheckpointMetadata.h"

#include "mdl/MDLDialect.h"
#include "onnx.pb.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace modelc;

namespace {

/// y = x' @ w where x' = x * 0.5 - 1 (the input transform); classes a, "b".
constexpr const char *kModule = R"mlir(
module attributes {mdl.config = {model = "M", data = {scale = 0.5 : f64,
    shift = -1.0 : f64, class_names = ["a", "\"b\""]}}} {
  mdl.parameter @w : tensor<3x2xf32> {init = #mdl.init<zeros>}
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x2xf32> {
    %w = mdl.param @w : tensor<3x2xf32>
    %y = mdl.matmul %x, %w : tensor<?x3xf32>, tensor<3x2xf32> -> tensor<?x2xf32>
    return %y : tensor<?x2xf32>
  }
}
)mlir";

struct Parsed {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  explicit Parsed(llvm::StringRef source) {
    context.loadDialect<mlir::mdl::MDLDialect, mlir::func::FuncDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  }
};

/// A checkpoint of model \p model with w = 0, 1, ..., 5 ([3, 2]).
SafetensorsContents checkpoint(const std::string &model = "M") {
  SafetensorsContents c;
  c.metadata["model"] = model;
  StoredTensor &w = c.tensors["param/w"];
  w.dtype = "F32";
  w.shape = {3, 2};
  for (int i = 0; i < 6; ++i) {
    float v = float(i);
    w.bytes.append(reinterpret_cast<const char *>(&v), sizeof v);
  }
  return c;
}

/// Exports \p p and parses the bytes back.
onnx::ModelProto exportModel(Parsed &p, const SafetensorsContents &ck,
                             bool transform = true) {
  OnnxExportOptions options;
  options.includeTransform = transform;
  options.producerVersion = "9.9.9";
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  EXPECT_FALSE(llvm::errorToBool(exportOnnx(*p.module, ck, options, os)));
  onnx::ModelProto model;
  EXPECT_TRUE(model.ParseFromString(bytes));
  return model;
}

std::string opTypes(const onnx::GraphProto &g) {
  std::string s;
  for (const onnx::NodeProto &n : g.node())
    s += (s.empty() ? "" : " ") + n.op_type();
  return s;
}

TEST(OnnxExportTest, GraphNamesWeightsAndMetadata) {
  Parsed p(kModule);
  ASSERT_TRUE(p.module);
  onnx::ModelProto m = exportModel(p, checkpoint());
  EXPECT_EQ(m.opset_import(0).version(), 17);
  EXPECT_EQ(m.producer_name(), "modelc");
  const onnx::GraphProto &g = m.graph();
  EXPECT_EQ(g.name(), "M");
  EXPECT_EQ(opTypes(g), "Mul Sub MatMul Identity");
  ASSERT_EQ(g.input_size(), 1);
  EXPECT_EQ(g.input(0).name(), "x");
  const auto &dims = g.input(0).type().tensor_type().shape().dim();
  EXPECT_EQ(dims[0].dim_param(), "B");
  EXPECT_EQ(dims[1].dim_value(), 3);
  EXPECT_EQ(g.output(0).name(), "logits");
  // The weights are the checkpoint's bytes, named after the table entry.
  bool found = false;
  for (const onnx::TensorProto &t : g.initializer())
    if (t.name() == "w") {
      found = true;
      float v[6];
      ASSERT_EQ(t.raw_data().size(), sizeof v);
      std::memcpy(v, t.raw_data().data(), sizeof v);
      EXPECT_EQ(v[5], 5.0f);
      EXPECT_EQ(t.dims(0), 3);
    }
  EXPECT_TRUE(found);
  std::map<std::string, std::string> meta;
  for (const auto &e : m.metadata_props())
    meta[e.key()] = e.value();
  EXPECT_EQ(meta["classes"], "[\"a\",\"\\\"b\\\"\"]");
  EXPECT_EQ(meta["modelc_version"], "9.9.9");
  EXPECT_EQ(meta["input_transform"], "included");
}

TEST(OnnxExportTest, TransformLeftOut) {
  Parsed p(kModule);
  onnx::ModelProto m = exportModel(p, checkpoint(), /*transform=*/false);
  EXPECT_EQ(opTypes(m.graph()), "MatMul Identity");
}

TEST(OnnxExportTest, OpWithoutFormIsLocated) {
  Parsed p(R"mlir(
module {
  func.func @forward_eval(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %s = mdl.constant dense<1> : tensor<i64>
    %y, %m = mdl.dropout %x, %s {rate = 0.5 : f64} : tensor<?x3xf32>, tensor<i64> -> tensor<?x3xf32>, tensor<?x3xi1> loc("net.model":7:9)
    return %y : tensor<?x3xf32>
  }
}
)mlir");
  ASSERT_TRUE(p.module);
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::Error e = exportOnnx(*p.module, checkpoint(), {}, os);
  bool located = false;
  llvm::handleAllErrors(std::move(e), [&](const OnnxExportError &err) {
    auto loc = mlir::dyn_cast<mlir::FileLineColLoc>(err.loc);
    located = loc && loc.getLine() == 7 && loc.getColumn() == 9;
    EXPECT_EQ(err.text,
              "'dropout' has no ONNX form in modelc's exporter (opset 17)");
  });
  EXPECT_TRUE(located);
  EXPECT_TRUE(bytes.empty());
}

TEST(OnnxExportTest, CheckpointOfAnotherModelNameWhoseTensorsFit) {
  // The name is no part of the rule (modelsupport/CheckpointModel.h): the
  // graph is the one the model's own checkpoint gives.
  Parsed p(kModule);
  std::string own, other;
  llvm::raw_string_ostream ownOs(own), otherOs(other);
  ASSERT_FALSE(
      llvm::errorToBool(exportOnnx(*p.module, checkpoint("M"), {}, ownOs)));
  ASSERT_FALSE(llvm::errorToBool(
      exportOnnx(*p.module, checkpoint("Other"), {}, otherOs)));
  EXPECT_FALSE(own.empty());
  EXPECT_EQ(own, other);
}

/// Writes \p bytes to a temporary file and reads it as safetensors.
std::string readError(const std::string &bytes) {
  llvm::SmallString<128> path;
  int fd;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("st", "safetensors", fd, path));
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
  }
  auto contents = readSafetensors(path);
  llvm::sys::fs::remove(path);
  if (contents)
    return "ok " + std::to_string(contents->tensors.size());
  std::string message = llvm::toString(contents.takeError());
  return message.substr(message.find(": ") + 2);
}

/// A checkpoint file with the tensors of \p tensors (JSON members),
/// metadata naming model M with the format's fields, padded, \p data, and
/// its checksum sealed.
std::string file(const std::string &tensors, const std::string &data) {
  std::string header =
      "{" + tensors +
      R"("__metadata__":{"model":"M","format":"modelrt-checkpoint",)"
      R"("format_version":")" +
      std::to_string(modelrt::kCheckpointVersion) +
      R"(","checksum":"0x0000000000000000"}})";
  header.append((8 - header.size() % 8) % 8, ' ');
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[i] = char((uint64_t(header.size()) >> (8 * i)) & 0xFF);
  out += header + data;
  modelrt::sealCheckpointChecksum(out);
  return out;
}

TEST(SafetensorsReaderTest, ChecksEveryTensor) {
  std::string ok = R"("t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)";
  EXPECT_EQ(readError(file(ok, std::string(8, '\0'))), "ok 1");
  EXPECT_EQ(readError(file(ok, std::string(4, '\0'))),
            "tensor 't': data_offsets [0, 8] outside the 4 data bytes");
  EXPECT_EQ(readError(file(
                R"("t":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]},)",
                std::string(4, '\0'))),
            "tensor 't': unsupported dtype BF16 (this runtime reads F32, F64, "
            "I32, I64, U8)");
  EXPECT_EQ(
      readError(file(R"("t":{"dtype":"F32","shape":[3],"data_offsets":[0,8]},)",
                     std::string(8, '\0'))),
      "tensor 't': 8 data bytes for shape [3] of F32");
  std::string flipped = file(ok, std::string(8, '\0'));
  flipped.back() ^= 1;
  EXPECT_EQ(readError(flipped).substr(0, 17), "checksum mismatch");
  EXPECT_EQ(readError("abc"),
            "truncated safetensors file: 3 bytes, the header length needs 8");
}

TEST(LibraryHeaderTest, NamesAndEscapes) {
  EXPECT_TRUE(isCIdentifier("net_2"));
  EXPECT_FALSE(isCIdentifier("2net"));
  EXPECT_FALSE(isCIdentifier("my-net"));
  LibraryHeaderInfo info;
  info.prefix = "net";
  info.modelName = "M";
  info.sourceName = "m.model";
  info.inputShape = {1, 28, 28};
  info.outputShape = {10};
  info.classNames = {"T-shirt", "say \"hi\"\n"};
  std::string h = libraryHeader(info);
  EXPECT_NE(h.find("#define NET_INPUT_SIZE 784\n"), std::string::npos);
  EXPECT_NE(h.find("#define NET_OUTPUT_SIZE 10\n"), std::string::npos);
  EXPECT_NE(h.find("#define NET_NUM_CLASSES 2\n"), std::string::npos);
  EXPECT_NE(h.find(R"({"T-shirt", "say \"hi\"\012"})"), std::string::npos);
  EXPECT_NE(h.find("net_model *net_load(const char *checkpoint);"),
            std::string::npos);
}

} // namespace
