//===- SafetensorsReader.cpp - Reading a checkpoint's tensors -----------===//
//
// Reads a checkpoint through the runtime's own reader
// (modelrt::readCheckpointFile), so that the exporter accepts exactly the
// files `eval` and `predict` accept: a regular file, the safetensors layout
// with tensors that tile the data once each, this format's version and an
// intact checksum. The tensors are copied out with their dtype names.
//
//===----------------------------------------------------------------------===//
#include "modelc/Export/Safetensors.h"

#include "modelrt/io/Checkpoint.h"

using namespace modelc;

llvm::Expected<SafetensorsContents> modelc::readSafetensors(llvm::StringRef path) {
  modelrt::Expected<modelrt::SafetensorsFile> file =
      modelrt::readCheckpointFile(path.str());
  if (!file)
    return llvm::createStringError(file.message());
  SafetensorsContents out;
  for (const auto &[name, tensor] : file->tensors) {
    StoredTensor &t = out.tensors[name];
    t.dtype = modelrt::safetensorsDType(tensor.dtype());
    t.shape = tensor.shape();
    t.bytes.assign(static_cast<const char *>(tensor.data()), tensor.numBytes());
  }
  for (const auto &[key, value] : file->metadata)
    out.metadata[key] = value;
  return out;
}
