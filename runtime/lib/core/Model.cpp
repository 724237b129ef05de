//===- Model.cpp - A program's parameters, state and data, seen from C++ ---===//
//
// Validates a ModelrtProgram, initialises and restores its parameters and
// state, and turns its ABI configuration structs into the C++ optimizer and
// schedule configurations (as the schema modelsupport/TrainConfig.def
// says). Reading data and training live elsewhere.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/Model.h"

#include "modelrt/core/Rng.h"
#include "modelrt/data/Readers.h"

#include "modelsupport/ShapeArith.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace modelrt {

static Status validateTable(const char *what, int32_t n, const ModelrtTensorDesc *t) {
  if (n < 0 || (n > 0 && !t))
    return errorf("program: invalid %s table", what);
  for (int32_t i = 0; i < n; ++i) {
    if (!t[i].name || t[i].dtype != MODELRT_F32 || t[i].rank < 0 || (t[i].rank && !t[i].shape))
      return errorf("program: %s %d: needs a name, dtype f32 and a shape", what, i);
    for (int32_t r = 0; r < t[i].rank; ++r)
      if (t[i].shape[r] <= 0)
        return errorf("program: %s '%s': dimension %d is %lld", what, t[i].name, r,
                      (long long)t[i].shape[r]);
    if (t[i].init_kind < MODELRT_INIT_ZEROS || t[i].init_kind > MODELRT_INIT_KAIMING_NORMAL)
      return errorf("program: %s '%s': unknown initialiser %d", what, t[i].name, t[i].init_kind);
  }
  return Status::ok();
}

Status validateProgram(const ModelrtProgram &p) {
  if (p.abi_version != MODELRT_ABI_VERSION)
    return errorf("program: ABI version %u, this runtime implements version %d", p.abi_version,
                  MODELRT_ABI_VERSION);
  if (!p.name || !p.train_step || !p.eval_step || !p.predict)
    return errorf("program: missing name or entry points");
  MODELRT_TRY(validateTable("parameter", p.num_params, p.params));
  MODELRT_TRY(validateTable("state", p.num_state, p.state));
  if (p.label_dtype != MODELRT_I64 && p.label_dtype != MODELRT_F32)
    return errorf("program: labels must be i64 or f32");
  if (p.num_metrics < 0 || (p.num_metrics > 0 && !p.metric_names))
    return errorf("program: invalid metric table");
  if (p.num_class_names < 0 || (p.num_class_names > 0 && !p.class_names))
    return errorf("program: invalid class-name table");
  if (p.input_dtype != MODELRT_F32 && p.input_dtype != MODELRT_I32 &&
      p.input_dtype != MODELRT_I64)
    return errorf("program: inputs must be f32, i32 or i64");
  if (p.num_vocab < 0 || (p.num_vocab > 0 && !p.vocab) || p.input_id_limit < 0)
    return errorf("program: invalid vocabulary or id limit");
  if (p.precision < MODELRT_PRECISION_F32 || p.precision > MODELRT_PRECISION_TF32 ||
      p.num_bf16_products < 0 || (p.num_bf16_products > 0 && !p.bf16_products))
    return errorf("program: invalid precision or bf16 product table");
  if (p.num_class_names > 0 && p.num_classes > 0 && p.num_class_names != p.num_classes)
    return errorf("program: %d class names for %lld classes", p.num_class_names,
                  (long long)p.num_classes);
  if (!p.decode_step)
    return Status::ok();
  MODELRT_TRY(validateTable("cache", p.num_caches, p.caches));
  if (p.decode_length < 1 || p.input_rank < 1 || p.input_shape[0] != p.decode_length ||
      p.output_rank < 1 || p.output_shape[0] != p.decode_length)
    return errorf("program: its decoding step needs inputs and outputs of %lld positions",
                  (long long)p.decode_length);
  return Status::ok();
}

static std::vector<TensorInfo> table(int32_t n, const ModelrtTensorDesc *t) {
  std::vector<TensorInfo> out;
  for (int32_t i = 0; i < n; ++i)
    out.push_back({t[i].name, std::vector<int64_t>(t[i].shape, t[i].shape + t[i].rank),
                   static_cast<DType>(t[i].dtype)});
  return out;
}

std::vector<TensorInfo> paramTable(const ModelrtProgram &p) { return table(p.num_params, p.params); }
std::vector<TensorInfo> stateTable(const ModelrtProgram &p) { return table(p.num_state, p.state); }
uint64_t programFingerprint(const ModelrtProgram &p) {
  return modelFingerprint(paramTable(p), stateTable(p));
}

std::vector<int64_t> ModelState::paramSizes() const {
  std::vector<int64_t> s;
  for (const auto &p : params)
    s.push_back(static_cast<int64_t>(p.size()));
  return s;
}

void ModelState::bind() {
  paramPtrs.clear(), statePtrs.clear();
  for (auto &p : params)
    paramPtrs.push_back(p.data());
  for (auto &s : state)
    statePtrs.push_back(s.data());
}

/// Fills \p out following the initialiser of \p d.
static void initTensor(const ModelrtTensorDesc &d, Rng &rng, std::vector<float> &out) {
  double a = d.init_args[0], b = d.init_args[1];
  double fanIn = double(d.fan_in > 0 ? d.fan_in : 1), fanOut = double(d.fan_out > 0 ? d.fan_out : 1);
  double lo = 0, hi = 0, mean = 0, sd = 0;
  bool normal = false;
  switch (d.init_kind) {
  case MODELRT_INIT_ZEROS: std::fill(out.begin(), out.end(), 0.0f); return;
  case MODELRT_INIT_CONSTANT: std::fill(out.begin(), out.end(), float(a)); return;
  case MODELRT_INIT_UNIFORM: lo = a, hi = b; break;
  case MODELRT_INIT_NORMAL: normal = true, mean = a, sd = b; break;
  case MODELRT_INIT_XAVIER_UNIFORM:
    hi = (a ? a : 1.0) * std::sqrt(6.0 / (fanIn + fanOut)), lo = -hi;
    break;
  case MODELRT_INIT_XAVIER_NORMAL:
    normal = true, sd = (a ? a : 1.0) * std::sqrt(2.0 / (fanIn + fanOut));
    break;
  case MODELRT_INIT_KAIMING_UNIFORM:
    hi = (a ? a : std::sqrt(2.0)) * std::sqrt(3.0 / fanIn), lo = -hi;
    break;
  case MODELRT_INIT_KAIMING_NORMAL:
    normal = true, sd = (a ? a : std::sqrt(2.0)) / std::sqrt(fanIn);
    break;
  }
  for (float &x : out)
    x = normal ? float(mean + sd * rng.normal()) : float(lo + (hi - lo) * rng.uniformDouble());
}

ModelState initModelState(const ModelrtProgram &p, uint64_t seed) {
  ModelState m;
  for (int32_t i = 0; i < p.num_params; ++i) {
    m.params.emplace_back(shapeNumElements(paramTable(p)[i].shape));
    Rng rng(mixSeed(seed, 0x1417, uint64_t(i)));
    initTensor(p.params[i], rng, m.params.back());
  }
  for (int32_t i = 0; i < p.num_state; ++i) {
    m.state.emplace_back(shapeNumElements(stateTable(p)[i].shape));
    Rng rng(mixSeed(seed, 0x57a7e, uint64_t(i)));
    initTensor(p.state[i], rng, m.state.back());
  }
  m.bind();
  return m;
}

/// Copies each tensor of \p info by name from \p src (already checked to fit).
static void restoreTable(std::vector<std::vector<float>> &dst,
                         const std::vector<std::pair<std::string, Tensor>> &src,
                         const std::vector<TensorInfo> &info) {
  for (size_t i = 0; i < info.size(); ++i)
    for (const auto &[name, t] : src)
      if (name == info[i].name)
        dst[i].assign(t.as<float>(), t.as<float>() + t.numElements());
}

std::vector<std::string> classNames(const ModelrtProgram &p) {
  if (p.num_class_names <= 0 || !p.class_names)
    return {};
  return std::vector<std::string>(p.class_names, p.class_names + p.num_class_names);
}

/// "[a, b, c]" for messages.
static std::string nameList(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names)
    s += (s.empty() ? "" : ", ") + n;
  return "[" + s + "]";
}

/// Refuses a checkpoint whose class names are not the program's (a
/// checkpoint without names fits any program, and a program without names
/// any checkpoint).
static Status checkCheckpointClasses(const CheckpointData &c, const ModelrtProgram &p,
                                     const std::string &path) {
  std::vector<std::string> names = classNames(p);
  if (c.classNames.empty() || names.empty() || c.classNames == names)
    return Status::ok();
  return errorf("%s: the checkpoint's classes %s are not the model's classes %s (trained on "
                "other data?)", path.c_str(), nameList(c.classNames).c_str(),
                nameList(names).c_str());
}

/// Refuses a checkpoint whose vocabulary is not the program's (either
/// without one fits).
static Status checkCheckpointVocabulary(const CheckpointData &c, const ModelrtProgram &p,
                                        const std::string &path) {
  std::vector<uint32_t> vocab = vocabulary(p);
  if (c.vocab.empty() || vocab.empty() || c.vocab == vocab)
    return Status::ok();
  return errorf("%s: the checkpoint's vocabulary of %zu characters is not the model's vocabulary "
                "of %zu characters (trained on another text?)", path.c_str(), c.vocab.size(),
                vocab.size());
}

Status restoreModelState(ModelState &m, const CheckpointData &c, const ModelrtProgram &p,
                         const std::string &path) {
  MODELRT_TRY(checkCheckpointFits(c, paramTable(p), stateTable(p), p.name ? p.name : "", path));
  MODELRT_TRY(checkCheckpointClasses(c, p, path));
  MODELRT_TRY(checkCheckpointVocabulary(c, p, path));
  restoreTable(m.params, c.params, paramTable(p));
  restoreTable(m.state, c.state, stateTable(p));
  m.bind();
  return Status::ok();
}

void saveModelState(const ModelState &m, const ModelrtProgram &p, CheckpointData &c) {
  auto save = [](const std::vector<std::vector<float>> &src, const std::vector<TensorInfo> &info,
                 std::vector<std::pair<std::string, Tensor>> &dst) {
    dst.clear();
    for (size_t i = 0; i < src.size(); ++i) {
      Tensor t(DType::F32, info[i].shape);
      std::copy(src[i].begin(), src[i].end(), t.as<float>());
      dst.emplace_back(info[i].name, std::move(t));
    }
  };
  save(m.params, paramTable(p), c.params);
  save(m.state, stateTable(p), c.state);
  c.classNames = classNames(p);
  c.vocab = vocabulary(p);
}

// The C++ configurations from the ABI structs, field by field as the schema
// (modelsupport/TrainConfig.def) says: COPY converts, POSITIVE keeps the C++
// default unless the field is > 0, LIST copies an array, NONE is read from
// the C struct where it is used.
#define MODELRT_READ_COPY(DST, SRC, NAME) DST = static_cast<decltype(DST)>(SRC.NAME);
#define MODELRT_READ_POSITIVE(DST, SRC, NAME)                                           \
  if (SRC.NAME > 0)                                                                     \
    DST = static_cast<decltype(DST)>(SRC.NAME);
#define MODELRT_READ_LIST(DST, SRC, NAME)                                               \
  if (SRC.num_##NAME > 0 && SRC.NAME)                                                   \
    DST.assign(SRC.NAME, SRC.NAME + SRC.num_##NAME);
#define MODELRT_READ_NONE(DST, SRC, NAME)

OptimizerConfig toOptimizerConfig(const ModelrtOptimizerConfig &c) {
  OptimizerConfig o;
#define MODELRT_ABI_OPTIMIZER(TYPE, NAME, READ, CXX) MODELRT_READ_##READ(o.CXX, c, NAME)
#include "modelsupport/TrainConfig.def"
  return o;
}

ScheduleConfig toScheduleConfig(const ModelrtScheduleConfig &c, int64_t epochs,
                                int64_t stepsPerEpoch) {
  ScheduleConfig s;
  // A length past int64 (a schedule of 3e18 epochs) is as long as the run
  // can be: saturated, not wrapped to a short or negative one.
  std::optional<int64_t> total = modelsupport::checkedMul(
      c.total_epochs > 0 ? c.total_epochs : epochs, std::max<int64_t>(stepsPerEpoch, 0));
  s.totalSteps = total ? *total : std::numeric_limits<int64_t>::max();
#define MODELRT_ABI_SCHEDULE(TYPE, NAME, READ, CXX) MODELRT_READ_##READ(s.CXX, c, NAME)
#include "modelsupport/TrainConfig.def"
  return s;
}

#undef MODELRT_READ_COPY
#undef MODELRT_READ_POSITIVE
#undef MODELRT_READ_LIST
#undef MODELRT_READ_NONE

} // namespace modelrt
