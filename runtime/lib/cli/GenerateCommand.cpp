//===- GenerateCommand.cpp - The generate subcommand ----------------------===//
//
// Streams text from a language model trained on a text() source: the
// prompt is encoded with the program's vocabulary (chars) or as bytes,
// then each new token is drawn (Sampling.h) from the model's output at the
// last position and printed at once. Without a prompt, generation starts
// after a line break (token 0 when the vocabulary has none). The model reads windows of its input
// length T: the newest T tokens (fewer at the start, the rest of the window
// padded with id 0, which a causal model never reads for earlier
// positions) go through `predict` for every token. Only ids the model can
// read back are drawn: the output's classes beyond the vocabulary or the
// embedding table are left out.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"

#include "modelrt/train/Sampling.h"
#include "modelsupport/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace modelrt {
namespace {

/// What generate needs of the program: ids in, one distribution over the
/// vocabulary per position out, and the text's tokens.
Status checkLanguageModel(const ModelrtProgram &p) {
  bool text = p.num_vocab > 0 || p.config.data.tokens == MODELRT_TOKENS_BYTES;
  if (!text || inputType(p) == DType::F32 || p.input_rank != 1)
    return errorf("'generate' needs a language model: ids [T] in, trained on a text() "
                  "source (whose vocabulary the program keeps); model '%s' is not one",
                  p.name);
  if (p.output_rank != 2 || p.output_shape[0] != p.input_shape[0] || p.num_classes <= 0)
    return errorf("'generate' needs one distribution over the tokens per position: the "
                  "output of model '%s' is not [T, classes]", p.name);
  return Status::ok();
}

/// The ids of \p prompt: its characters in the vocabulary (chars), or its
/// bytes (bytes).
Expected<std::vector<int64_t>> encodePrompt(const ModelrtProgram &p, const std::string &prompt) {
  std::vector<int64_t> ids;
  const auto *s = reinterpret_cast<const unsigned char *>(prompt.data());
  if (p.num_vocab == 0) {
    ids.assign(s, s + prompt.size());
    return ids;
  }
  std::vector<uint32_t> vocab = vocabulary(p);
  for (size_t i = 0; i < prompt.size();) {
    size_t at = i;
    uint32_t cp = 0;
    if (!modelsupport::text::decodeUtf8(s, prompt.size(), i, cp))
      return errorf("--prompt: byte %zu is not valid UTF-8", at);
    int64_t id = modelsupport::text::idOf(vocab, cp);
    if (id < 0)
      return errorf("--prompt: character %zu, %s, is not in the model's vocabulary of %d "
                    "characters", ids.size() + 1,
                    modelsupport::text::describeChar(cp).c_str(), p.num_vocab);
    ids.push_back(id);
  }
  return ids;
}

/// The text of token \p id.
std::string tokenText(const ModelrtProgram &p, int64_t id) {
  std::string out;
  if (p.num_vocab == 0)
    out += char(id);
  else if (id < p.num_vocab)
    modelsupport::text::appendUtf8(out, uint32_t(p.vocab[id]));
  return out;
}

/// The generation flags.
struct GenerateOptions {
  int64_t tokens = 200;
  uint64_t seed = 0;
  SamplingOptions sampling;
};

Expected<GenerateOptions> generateOptions(const CliArgs &a) {
  GenerateOptions o;
  int64_t seed = 0;
  MODELRT_TRY(integerFlag(a, "--tokens", o.tokens, false));
  MODELRT_TRY(numberFlag(a, "--temperature", o.sampling.temperature, false));
  MODELRT_TRY(integerFlag(a, "--top-k", o.sampling.topK, false));
  MODELRT_TRY(integerFlag(a, "--seed", seed, false));
  o.seed = uint64_t(seed);
  return o;
}

/// Writes the newest min(n, T) of \p ids into \p window ([T] of the input
/// type), zero after them; returns how many it wrote.
int64_t fillWindow(const std::vector<int64_t> &ids, DType type, int64_t t,
                   std::vector<unsigned char> &window) {
  int64_t n = std::min<int64_t>(int64_t(ids.size()), t);
  std::fill(window.begin(), window.end(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t id = ids[ids.size() - n + i];
    if (type == DType::I64)
      reinterpret_cast<int64_t *>(window.data())[i] = id;
    else
      reinterpret_cast<int32_t *>(window.data())[i] = int32_t(id);
  }
  return n;
}

/// The ids generate may draw: the output's classes that are tokens of the
/// vocabulary (or bytes) and rows of the embedding table the input reads.
int64_t drawableTokens(const ModelrtProgram &p) {
  int64_t n = p.output_shape[1];
  n = std::min<int64_t>(n, p.num_vocab > 0 ? p.num_vocab : 256);
  if (p.input_id_limit > 0)
    n = std::min(n, p.input_id_limit);
  return n;
}

/// Draws \p o.tokens tokens after \p ids, printing each as it comes.
Status generateTokens(const ModelrtProgram &p, ModelState &m, StepRunner &runner,
                      std::vector<int64_t> ids, const GenerateOptions &o) {
  int64_t t = p.input_shape[0], classes = p.output_shape[1];
  int64_t drawable = drawableTokens(p);
  DType type = inputType(p);
  std::vector<unsigned char> window(size_t(t) * (type == DType::I64 ? 8 : 4));
  std::vector<float> out(size_t(t * classes));
  Rng rng(o.seed);
  for (int64_t k = 0; k < o.tokens; ++k) {
    int64_t n = fillWindow(ids, type, t, window);
    MODELRT_TRY(runner.predict(m, window.data(), 1, out.data()));
    const float *logits = out.data() + (n - 1) * classes;
    for (int64_t c = 0; c < drawable; ++c)
      if (!std::isfinite(logits[c]))
        return errorf("the model's output at position %lld is not finite (%g for token "
                      "%lld): the checkpoint's parameters have diverged",
                      (long long)(n - 1), double(logits[c]), (long long)c);
    int64_t id = sampleToken(logits, drawable, o.sampling, rng);
    ids.push_back(id);
    std::fputs(tokenText(p, id).c_str(), stdout);
    std::fflush(stdout);
  }
  return Status::ok();
}

} // namespace

Status runGenerate(const ModelrtProgram &p, const CliArgs &a) {
  MODELRT_TRY(checkLanguageModel(p));
  auto o = generateOptions(a);
  if (!o)
    return o.status();
  std::string prompt = a.flags.count("--prompt") ? a.flags.at("--prompt") : "";
  auto ids = encodePrompt(p, prompt);
  if (!ids)
    return ids.status();
  if (ids->empty()) // no prompt: start after a line break (or token 0)
    ids->push_back(std::max<int64_t>(
        0, p.num_vocab ? modelsupport::text::idOf(vocabulary(p), '\n') : '\n'));
  int64_t threads;
  MODELRT_TRY(applyThreads(p, a, threads));
  auto m = loadModel(p, a.flags.at("--checkpoint"));
  if (!m)
    return m.status();
  auto runner = selectRunner(p, a);
  if (!runner)
    return runner.status();
  std::fputs(prompt.c_str(), stdout);
  MODELRT_TRY(generateTokens(p, *m, **runner, *ids, *o));
  std::fputs("\n", stdout);
  return Status::ok();
}

} // namespace modelrt
