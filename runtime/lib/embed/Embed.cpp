//===- Embed.cpp - A compiled model as a library: the C API ----------------===//
//
// modelrt_embed_*: loads a checkpoint into a ModelState (as `predict` does),
// applies the data block's input transform to a copy of the samples and
// runs predictTensor on the CPU. Errors become the calling thread's last
// error; nothing is printed.
//
//===----------------------------------------------------------------------===//
#include "modelrt/embed/Embed.h"

#include "modelrt/core/Model.h"
#include "modelrt/data/Dataset.h"
#include "modelrt/io/Checkpoint.h"
#include "modelrt/train/Evaluate.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

struct ModelrtEmbedded {
  const ModelrtProgram *program;
  modelrt::ModelState model;
};

namespace {
thread_local std::string lastError;
/// Serialises loads, predictions and frees: the runtime's buffer pool and
/// thread team are shared by the whole process.
std::mutex runtimeLock;
/// Samples per call of the compiled predict function.
constexpr int64_t kBatch = 256;

int fail(const std::string &message) {
  lastError = message;
  return -1;
}
} // namespace

extern "C" ModelrtEmbedded *modelrt_embed_load(const ModelrtProgram *program,
                                               const char *checkpoint) {
  using namespace modelrt;
  if (!program || !checkpoint)
    return fail("modelrt_embed_load: null program or checkpoint path"), nullptr;
  if (Status st = validateProgram(*program); !st.isOk())
    return fail(st.message()), nullptr;
  if (inputType(*program) != DType::F32)
    return fail(std::string(program->name) +
                ": the model takes integer ids; this library API takes f32 "
                "samples"),
           nullptr;
  std::lock_guard<std::mutex> guard(runtimeLock);
  auto ck = readCheckpoint(checkpoint);
  if (!ck)
    return fail(ck.status().message()), nullptr;
  ModelState m = initModelState(*program, 0);
  if (Status st = restoreModelState(m, *ck, *program, checkpoint); !st.isOk())
    return fail(st.message()), nullptr;
  auto *h = new (std::nothrow) ModelrtEmbedded{program, std::move(m)};
  if (!h)
    fail("modelrt_embed_load: out of memory");
  return h;
}

extern "C" int modelrt_embed_predict(ModelrtEmbedded *h, const float *input,
                                     int64_t n, float *output) {
  using namespace modelrt;
  if (!h)
    return fail("predict: the model handle is null");
  if (n < 0 || (n > 0 && (!input || !output)))
    return fail("predict: n must be >= 0, input and output non-null");
  if (n == 0)
    return 0;
  const ModelrtProgram &p = *h->program;
  std::vector<int64_t> shape = {n};
  shape.insert(shape.end(), p.input_shape, p.input_shape + p.input_rank);
  int64_t perSample = std::max<int64_t>(shapeNumElements({shape.begin() + 1, shape.end()}), 1);
  if (n > INT64_MAX / int64_t(sizeof(float)) / perSample)
    return fail("predict: n = " + std::to_string(n) + " samples of " + std::to_string(perSample) +
                " values each is more than memory can hold");
  try { // no exception crosses the C API
    Dataset d;
    d.name = "predict input";
    d.inputs = Tensor(DType::F32, shape);
    std::memcpy(d.inputs.data(), input, d.inputs.numBytes());
    d.labels = Tensor(DType::I64, {n});
    if (Status st = applyInputTransforms(d, p.config.data); !st.isOk())
      return fail(st.message());
    std::lock_guard<std::mutex> guard(runtimeLock);
    auto out = predictTensor(p, h->model, d.inputs, std::min(n, kBatch));
    if (!out)
      return fail(out.status().message());
    std::memcpy(output, out->data(), out->numBytes());
    return 0;
  } catch (const std::bad_alloc &) {
    return fail("predict: out of memory for " + std::to_string(n) + " samples");
  }
}

/// Copies \p rank dimensions to \p dims (at most \p capacity) and returns
/// the rank; a null \p dims is allowed only with no capacity.
static int copyShape(const char *what, const int64_t *shape, int32_t rank, int64_t *dims,
                     int capacity) {
  if (!dims && capacity > 0)
    return fail(std::string(what) + ": dims is null but capacity is " + std::to_string(capacity));
  for (int i = 0; i < rank && i < capacity; ++i)
    dims[i] = shape[i];
  return rank;
}

extern "C" int modelrt_embed_input_shape(const ModelrtEmbedded *h,
                                         int64_t *dims, int capacity) {
  if (!h)
    return fail("input_shape: the model handle is null");
  return copyShape("input_shape", h->program->input_shape, h->program->input_rank, dims, capacity);
}

extern "C" int modelrt_embed_output_shape(const ModelrtEmbedded *h,
                                          int64_t *dims, int capacity) {
  if (!h)
    return fail("output_shape: the model handle is null");
  return copyShape("output_shape", h->program->output_shape, h->program->output_rank, dims,
                   capacity);
}

extern "C" void modelrt_embed_free(ModelrtEmbedded *h) {
  std::lock_guard<std::mutex> guard(runtimeLock);
  delete h;
}

extern "C" const char *modelrt_embed_last_error(void) {
  return lastError.c_str();
}
