//===- Decoder.cpp - A sequence decoded one position at a time ------------===//
//
// Implements Decoder.h: the caches are allocated from the program's cache
// table (zeros), the pointer arrays the step takes are rebuilt at each call
// (so a moved Decoder stays valid), and the position is checked against
// the positions stepped so far before the program's step runs.
//
//===----------------------------------------------------------------------===//
#include "modelrt/train/Decoder.h"

#include <algorithm>

namespace modelrt {

/// The elements of dimensions `from`.. of a shape (1: one position).
static int64_t elements(int32_t rank, const int64_t *shape, int32_t from) {
  int64_t n = 1;
  for (int32_t i = from; i < rank; ++i)
    n *= shape[i];
  return n;
}

Decoder::Decoder(const ModelrtProgram &program, const ModelState &model)
    : program(&program), model(&model) {
  inputElements = elements(program.input_rank, program.input_shape, 1);
  output.resize(size_t(elements(program.output_rank, program.output_shape, 1)));
  for (int32_t c = 0; c < program.num_caches; ++c)
    caches.emplace_back(size_t(elements(program.caches[c].rank, program.caches[c].shape, 0)));
}

Expected<Decoder> Decoder::create(const ModelrtProgram &program, const ModelState &model) {
  if (!program.decode_step)
    return errorf("%s has no decoding step: it needs causal attention and an output computed "
                  "position by position ('modelc --emit=sema' says why not)",
                  program.name);
  MODELRT_TRY(validateProgram(program));
  if (model.paramPtrs.size() != size_t(program.num_params) ||
      model.statePtrs.size() != size_t(program.num_state))
    return errorf("decoder: the model's buffers do not match %s's tables", program.name);
  return Decoder(program, model);
}

void Decoder::reset() {
  for (std::vector<float> &c : caches)
    std::fill(c.begin(), c.end(), 0.0f);
  stepped = 0;
}

Expected<const float *> Decoder::step(const void *input, int64_t pos) {
  if (pos < 0 || pos >= length())
    return errorf("decoder: position %lld is outside the model's %lld positions",
                  (long long)pos, (long long)length());
  if (pos > stepped)
    return errorf("decoder: position %lld comes before positions %lld..%lld were decoded",
                  (long long)pos, (long long)stepped, (long long)pos - 1);
  std::vector<float *> cachePtrs;
  for (std::vector<float> &c : caches)
    cachePtrs.push_back(c.data());
  if (program->decode_step(program->context, model->paramPtrs.data(), model->statePtrs.data(),
                           cachePtrs.data(), input, pos, output.data()) != 0)
    return errorf("decoder: the decoding step failed at position %lld", (long long)pos);
  stepped = pos + 1;
  return static_cast<const float *>(output.data());
}

} // namespace modelrt
