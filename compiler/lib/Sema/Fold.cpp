//===- Fold.cpp - Arithmetic on compile-time numbers ----------------------===//
//
// Implements Fold.h. Integer `+ - * **` are computed with overflow checks;
// a comparison gives a bool; anything with a float operand is a float.
//
//===----------------------------------------------------------------------===//

#include "Fold.h"

#include <cmath>
#include <cstdio>
#include <optional>

using namespace modelc;
using namespace modelc::sema;

namespace {

/// The message for an integer result outside 64 bits.
std::string overflow(llvm::StringRef what) {
  return ("integer overflow in a compile-time expression: " + what +
          " does not fit a 64-bit integer (write a float, such as 2.0, for a "
          "float result)")
      .str();
}

/// `a ** b` on integers, b >= 0, by squaring; false on overflow.
bool powInt(int64_t a, int64_t b, int64_t &out) {
  int64_t r = 1;
  while (b > 0) {
    if ((b & 1) && __builtin_mul_overflow(r, a, &r))
      return false;
    b >>= 1;
    if (b > 0 && __builtin_mul_overflow(a, a, &a))
      return false;
  }
  out = r;
  return true;
}

/// A folded number or bool.
Value folded(Value::Kind kind, int64_t i, double f = 0) {
  Value r;
  r.kind = kind;
  r.i = i;
  r.f = f;
  return r;
}
Value intValue(int64_t v) { return folded(Value::Kind::Int, v); }
Value floatValue(double v) { return folded(Value::Kind::Float, 0, v); }
Value boolValue(bool v) { return folded(Value::Kind::Bool, v); }

/// `a op b` on two integers.
std::string foldInts(BinaryOp op, int64_t a, int64_t b, Value &out) {
  int64_t r = 0;
  std::string what = std::to_string(a) + " " + getBinaryOpSpelling(op).str() +
                     " " + std::to_string(b);
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mul:
    if (op == BinaryOp::Add   ? __builtin_add_overflow(a, b, &r)
        : op == BinaryOp::Sub ? __builtin_sub_overflow(a, b, &r)
                              : __builtin_mul_overflow(a, b, &r))
      return overflow(what);
    out = intValue(r);
    return "";
  case BinaryOp::Div:
    if (b == 0)
      return "division by zero in a compile-time expression";
    if (a == INT64_MIN && b == -1)
      return overflow(what);
    out = a % b == 0 ? intValue(a / b) : floatValue(double(a) / double(b));
    return "";
  case BinaryOp::Pow:
    if (b < 0) {
      if (a == 0)
        return "division by zero in a compile-time expression";
      out = floatValue(std::pow(double(a), double(b)));
      return "";
    }
    if (!powInt(a, b, r))
      return overflow(what);
    out = intValue(r);
    return "";
  default:
    return "";
  }
}

} // namespace

/// `a op b` for a comparison op, on two numbers of one type; nullopt for
/// any other op.
template <typename T>
static std::optional<bool> compare(BinaryOp op, T a, T b) {
  switch (op) {
  case BinaryOp::Eq:
    return a == b;
  case BinaryOp::Ne:
    return a != b;
  case BinaryOp::Lt:
    return a < b;
  case BinaryOp::Le:
    return a <= b;
  case BinaryOp::Gt:
    return a > b;
  case BinaryOp::Ge:
    return a >= b;
  default:
    return std::nullopt;
  }
}

std::string sema::foldBinary(BinaryOp op, const Value &a, const Value &b,
                             Value &out) {
  bool ints = a.kind == Value::Kind::Int && b.kind == Value::Kind::Int;
  double x = a.asDouble(), y = b.asDouble();
  // Two integers compare exactly (as doubles, 2^53 + 1 == 2^53).
  if (std::optional<bool> r = ints ? compare(op, a.i, b.i) : compare(op, x, y)) {
    out = boolValue(*r);
    return "";
  }
  if (op == BinaryOp::MatMul)
    return "operator '@' cannot be applied to numbers";
  if (ints)
    return foldInts(op, a.i, b.i, out);
  if ((op == BinaryOp::Div && y == 0) ||
      (op == BinaryOp::Pow && x == 0 && y < 0))
    return "division by zero in a compile-time expression";
  double r = op == BinaryOp::Add   ? x + y
             : op == BinaryOp::Sub ? x - y
             : op == BinaryOp::Mul ? x * y
             : op == BinaryOp::Div ? x / y
                                   : std::pow(x, y);
  if (std::isnan(r)) { // Python raises (or gives a complex number)
    char text[96];
    std::snprintf(text, sizeof text, x < 0 ? "(%g) %s %g" : "%g %s %g", x,
                  getBinaryOpSpelling(op).str().c_str(), y);
    return std::string("the result of ") + text + " is not a real number";
  }
  out = floatValue(r);
  return "";
}

std::string sema::foldNegate(const Value &a, Value &out) {
  if (a.kind == Value::Kind::Float) {
    out = floatValue(-a.f);
    return "";
  }
  if (a.i == INT64_MIN)
    return overflow("-(" + std::to_string(a.i) + ")");
  out = intValue(-a.i);
  return "";
}

std::string sema::foldAbs(const Value &a, Value &out) {
  if (a.kind == Value::Kind::Float) {
    out = floatValue(std::fabs(a.f));
    return "";
  }
  if (a.i == INT64_MIN)
    return overflow("abs(" + std::to_string(a.i) + ")");
  out = intValue(a.i < 0 ? -a.i : a.i);
  return "";
}
