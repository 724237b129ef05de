//===- GradientDump.cpp - One training step's gradients as safetensors -----===//
//
// Implements GradientDump.h: the existence check and directory before the
// step, then the safetensors file (gradients under the parameters' names,
// `param/NAME`, `batch/inputs`, `batch/labels`, metadata) written with the
// checkpoints' atomic writer.
//
//===----------------------------------------------------------------------===//
#include "modelrt/io/GradientDump.h"

#include "modelrt/io/Checkpoint.h"
#include "modelrt/io/Safetensors.h"

#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace modelrt {
namespace {

/// An f32 tensor of \p shape holding \p values.
Tensor floatTensor(const std::vector<int64_t> &shape, const std::vector<float> &values) {
  Tensor t(DType::F32, shape);
  std::memcpy(t.data(), values.data(), values.size() * sizeof(float));
  return t;
}

/// "3,17,5": the sample indices as metadata text.
std::string joinIndices(const std::vector<int64_t> &indices) {
  std::string out;
  for (size_t i = 0; i < indices.size(); ++i)
    out += (i ? "," : "") + std::to_string(indices[i]);
  return out;
}

/// The `__metadata__` of a dump.
std::vector<std::pair<std::string, std::string>> dumpMetadata(const ModelrtProgram &p,
                                                              const Batch &b,
                                                              const GradientDumpInfo &info) {
  char loss[32], clip[32];
  std::snprintf(loss, sizeof loss, "%.9g", double(info.loss)); // an f32 reads back exactly
  std::snprintf(clip, sizeof clip, "%.17g", info.clipNorm);
  return {{"format", "modelrt-gradients"},
          {"model", p.name ? p.name : ""},
          {"loss", loss},
          {"step", std::to_string(info.step)},
          {"seed", std::to_string(info.seed)},
          {"epoch", std::to_string(info.epoch)},
          {"batch.index", std::to_string(info.batchIndex)},
          {"batch.size", std::to_string(b.size)},
          {"batch.indices", joinIndices(info.sampleIndices)},
          {"accumulate", std::to_string(info.accumulate)},
          {"clip_norm", clip}};
}

} // namespace

std::string gradientDumpPath(const std::string &dir) {
  return dir + "/" + kGradientDumpName;
}

Status checkGradientDumpPath(const std::string &dir, bool overwrite) {
  std::string path = gradientDumpPath(dir);
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && (!overwrite || S_ISDIR(st.st_mode)))
    return errorf("--dump-gradients: %s already exists%s", path.c_str(),
                  S_ISDIR(st.st_mode) ? " (a directory)"
                                      : "; remove it, or pass --overwrite-gradients");
  if (::stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    return errorf("--dump-gradients: %s is not a directory", dir.c_str());
  for (std::string up = dir; !up.empty() && up != "/";) { // the nearest existing ancestor
    size_t slash = up.find_last_of('/');
    up = slash == std::string::npos ? "" : slash == 0 ? "/" : up.substr(0, slash);
    if (!up.empty() && ::stat(up.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        return errorf("--dump-gradients: %s: cannot create the directory: Not a directory",
                      dir.c_str());
      break;
    }
  }
  return Status::ok();
}

std::string encodeGradientDump(const ModelrtProgram &p, const ModelState &m,
                               const std::vector<std::vector<float>> &grads, const Batch &b,
                               const GradientDumpInfo &info) {
  SafetensorsFile f;
  std::vector<TensorInfo> table = paramTable(p);
  for (size_t i = 0; i < table.size(); ++i)
    f.tensors.emplace_back(table[i].name, floatTensor(table[i].shape, grads[i]));
  for (size_t i = 0; i < table.size(); ++i)
    f.tensors.emplace_back("param/" + table[i].name, floatTensor(table[i].shape, m.params[i]));
  f.tensors.emplace_back("batch/inputs", b.inputs);
  f.tensors.emplace_back("batch/labels", b.labels);
  f.metadata = dumpMetadata(p, b, info);
  return encodeSafetensors(f);
}

Status writeGradientDump(const std::string &dir, const std::string &bytes) {
  if (Status made = makeDirectories(dir); !made.isOk())
    return errorf("--dump-gradients: %s", made.message().c_str());
  if (Status st = writeFileAtomically(gradientDumpPath(dir), bytes); !st.isOk())
    return errorf("--dump-gradients: %s", st.message().c_str());
  return Status::ok();
}

} // namespace modelrt
