//===- Fold.h - Arithmetic on compile-time numbers -------------*- C++ -*-===//
//
// The folding rules of compile-time numbers, for model bodies (Operators.cpp,
// Elaborator.cpp) and configuration blocks (ConstEval.cpp) alike: Python's
// rules on integers and floats, but for `/` on two integers that divide
// exactly, which gives an integer. Integers are 64-bit: a result outside
// that range is an error, never a wrapped value or a rounded float.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_SEMA_FOLD_H
#define MODELC_SEMA_FOLD_H

#include "Elaborator.h"

#include <string>

namespace modelc {
namespace sema {

/// Folds `a op b` on two numbers into \p out (its range left alone).
/// Returns "" on success, else the error's message: a division by zero, an
/// integer result outside 64 bits, or an operator numbers do not take.
std::string foldBinary(BinaryOp op, const Value &a, const Value &b, Value &out);

/// Folds `-a` on a number into \p out; "" on success, else why not (the
/// negation of the smallest 64-bit integer).
std::string foldNegate(const Value &a, Value &out);

/// Folds `abs(a)` on a number into \p out, an integer for an integer; ""
/// on success, else why not (the smallest 64-bit integer).
std::string foldAbs(const Value &a, Value &out);

} // namespace sema
} // namespace modelc

#endif // MODELC_SEMA_FOLD_H
