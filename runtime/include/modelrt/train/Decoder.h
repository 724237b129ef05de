//===- Decoder.h - A sequence decoded one position at a time ----*- C++ -*-===//
//
// Implements the inner loop of generation over a compiled program's
// decoding step (Program.h, `decode_step`): a Decoder owns the step's
// key/value caches and returns the model's output at one position of one
// sequence from that position's input, in O(positions so far) work instead
// of a forward pass over the whole window. Positions are stepped in order
// from 0 (after reset()); stepping an earlier position again rewinds the
// sequence to it. It does not choose the inputs (prompt encoding,
// sampling): its caller does.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TRAIN_DECODER_H
#define MODELRT_TRAIN_DECODER_H

#include "modelrt/core/Model.h"
#include "modelrt/core/Program.h"
#include "modelrt/core/Status.h"

#include <vector>

namespace modelrt {

/// Decodes one sequence of a program with a decoding step.
class Decoder {
public:
  /// A decoder of `program` with the parameters and state of `model`, both
  /// of which must outlive it; an error when the program has no decoding
  /// step. The caches start zeroed.
  static Expected<Decoder> create(const ModelrtProgram &program, const ModelState &model);

  /// The positions of one sequence (decode_length).
  int64_t length() const { return program->decode_length; }
  /// The elements of one position's input, of the model input's type.
  int64_t inputSize() const { return inputElements; }
  /// The elements of the output at one position (f32).
  int64_t outputSize() const { return int64_t(output.size()); }
  /// The next position to step: positions 0..next()-1 are in the caches.
  int64_t next() const { return stepped; }

  /// Forgets the sequence: zeroes the caches; the next position is 0.
  void reset();
  /// The model's output at position `pos` (outputSize() floats, valid until
  /// the next call) from that position's input (inputSize() elements).
  /// `pos` must be in [0, next()]: positions 0..pos-1 are those stepped
  /// before; stepping pos < next() forgets the positions after it. An error
  /// for any other position or when the step fails.
  Expected<const float *> step(const void *input, int64_t pos);

private:
  Decoder(const ModelrtProgram &program, const ModelState &model);

  const ModelrtProgram *program;
  const ModelState *model;
  int64_t inputElements = 0;
  int64_t stepped = 0;
  std::vector<std::vector<float>> caches;
  std::vector<float> output;
};

} // namespace modelrt

#endif // MODELRT_TRAIN_DECODER_H
