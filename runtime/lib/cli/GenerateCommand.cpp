//===- GenerateCommand.cpp - The generate subcommand ----------------------===//
//
// Streams text from a language model trained on a text() source: the
// prompt is encoded with the program's vocabulary (chars) or as bytes,
// then each new token is drawn (Sampling.h) from the model's output at the
// last position and printed at once. Without a prompt, generation starts
// after a line break (token 0 when the vocabulary has none).
// With the program's decoding step (Decoder.h), each token costs one
// position: the key/value caches keep the ones before; when the sequence
// fills the model's T positions, the decoder restarts on the newest T / 2
// tokens. Otherwise (or with --full-window) every token runs the window:
// the newest T tokens (fewer at the start, the rest padded with id 0, which
// a causal model never reads for earlier positions) go through `predict`. Only ids the model can
// read back are drawn: the output's classes beyond the vocabulary or the
// embedding table are left out.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"

#include "modelrt/core/FrozenParameters.h"
#include "modelrt/train/Decoder.h"
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

/// Checks \p logits (the drawable ones) for NaN and infinities; then draws.
Expected<int64_t> drawToken(const float *logits, int64_t drawable, int64_t pos,
                            const SamplingOptions &o, Rng &rng) {
  for (int64_t c = 0; c < drawable; ++c)
    if (!std::isfinite(logits[c]))
      return errorf("the model's output at position %lld is not finite (%g for token "
                    "%lld): the checkpoint's parameters have diverged",
                    (long long)pos, double(logits[c]), (long long)c);
  return sampleToken(logits, drawable, o, rng);
}

/// Appends token \p id to \p ids and prints it.
void emitToken(const ModelrtProgram &p, std::vector<int64_t> &ids, int64_t id) {
  ids.push_back(id);
  std::fputs(tokenText(p, id).c_str(), stdout);
  std::fflush(stdout);
}

/// Steps \p ids[from..] through the decoder, id i at position i - start
/// (the sequence in the caches begins at ids[start]); returns the output at
/// the last one.
Expected<const float *> feed(Decoder &d, const std::vector<int64_t> &ids, size_t start,
                             size_t from, DType type) {
  const float *out = nullptr;
  for (size_t i = from; i < ids.size(); ++i) {
    int64_t id64 = ids[i];
    int32_t id32 = int32_t(id64);
    auto o = d.step(type == DType::I64 ? (const void *)&id64 : (const void *)&id32,
                    int64_t(i - start));
    if (!o)
      return o.status();
    out = *o;
  }
  return out;
}

/// Generation with the program's decoding step: one position per token,
/// the key/value caches keeping the ones before. When the sequence fills
/// the T positions, the decoder restarts on the newest T / 2 tokens (so a
/// token costs about two positions on average, never a whole window).
Status decodeTokens(const ModelrtProgram &p, const ModelState &m, std::vector<int64_t> ids,
                    const GenerateOptions &o) {
  auto d = Decoder::create(p, m);
  if (!d)
    return d.status();
  int64_t t = d->length(), drawable = drawableTokens(p);
  DType type = inputType(p);
  Rng rng(o.seed);
  size_t start = ids.size() > size_t(t) ? ids.size() - size_t(t) : 0;
  auto out = feed(*d, ids, start, start, type);
  for (int64_t k = 0; out && k < o.tokens; ++k) {
    auto id = drawToken(*out, drawable, int64_t(ids.size() - start - 1), o.sampling, rng);
    if (!id)
      return id.status();
    emitToken(p, ids, *id);
    if (k + 1 == o.tokens)
      break;
    if (ids.size() - start > size_t(t)) { // full: restart on the newest T / 2
      d->reset();
      start = ids.size() - size_t(std::max<int64_t>(t / 2, 1));
      out = feed(*d, ids, start, start, type);
    } else {
      out = feed(*d, ids, start, ids.size() - 1, type);
    }
  }
  return out ? Status::ok() : out.status();
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
    auto id = drawToken(out.data() + (n - 1) * classes, drawable, n - 1, o.sampling, rng);
    if (!id)
      return id.status();
    emitToken(p, ids, *id);
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
  auto m = loadModel(p, a, a.flags.at("--checkpoint"));
  if (!m)
    return m.status();
  auto runner = selectRunner(p, a);
  if (!runner)
    return runner.status();
  std::fputs(prompt.c_str(), stdout);
  FrozenParameters frozen(m->params); // bf16 products round the weights once
  if (p.decode_step && !a.flags.count("--full-window"))
    MODELRT_TRY(decodeTokens(p, *m, *ids, *o));
  else
    MODELRT_TRY(generateTokens(p, *m, **runner, *ids, *o));
  std::fputs("\n", stdout);
  return Status::ok();
}

} // namespace modelrt
