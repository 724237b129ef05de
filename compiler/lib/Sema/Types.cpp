//===- Types.cpp - Element types, shapes and broadcasting -----------------===//
//
// Printing of element types and shapes, each type's range for literals,
// and the broadcasting rule over symbolic dimensions (the alignment itself
// is modelsupport/ShapeArith.h's).
//
//===----------------------------------------------------------------------===//

#include "modelc/Sema/Types.h"

#include "modelsupport/ShapeArith.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;

std::string sema::conversionHint(DType left, DType right,
                                 llvm::StringRef leftName,
                                 llvm::StringRef rightName) {
  if (isFloat(left) != isFloat(right))
    return "convert " + (isFloat(left) ? rightName : leftName).str() +
           " with cast(x, " + getDTypeName(isFloat(left) ? left : right).str() +
           ")";
  return "convert one operand with cast(x, " + getDTypeName(left).str() + ")";
}

std::optional<std::string> sema::overflowOf(double value, DType dtype) {
  // Float types: the largest finite value, and the magnitude from which
  // rounding to nearest gives infinity: (2 - 2^-p) * 2^emax, p the
  // significand's bits.
  struct Limit {
    DType dtype;
    double overflow;
    const char *largest;
  };
  static const Limit kFloats[] = {{DType::F16, 65520.0, "65504"},
                                  {DType::BF16, 0x1.ffp127, "3.3895e+38"},
                                  {DType::F32, 0x1.ffffffp127, "3.4028e+38"}};
  if (!std::isfinite(value))
    return std::string("it is not finite");
  for (const Limit &l : kFloats)
    if (l.dtype == dtype && std::fabs(value) >= l.overflow)
      return "it would become " + std::string(value < 0 ? "-inf" : "inf") +
             " (the largest finite " + getDTypeName(dtype).str() + " is " +
             l.largest + ")";
  if (dtype == DType::I32 && (value < -0x1p31 || value >= 0x1p31))
    return std::string("i32 holds -2147483648..2147483647");
  if (dtype == DType::I64 && (value < -0x1p63 || value >= 0x1p63))
    return std::string("i64 holds -2^63..2^63-1");
  if (dtype == DType::Bool && value != 0 && value != 1)
    return std::string("a bool holds 0 (false) or 1 (true)");
  return std::nullopt;
}

std::optional<std::string> sema::overflowOf(int64_t value, DType dtype) {
  if (dtype == DType::I64)
    return std::nullopt;
  if (dtype == DType::I32 && (value < INT32_MIN || value > INT32_MAX))
    return std::string("i32 holds -2147483648..2147483647");
  return overflowOf(double(value), dtype);
}

llvm::StringRef sema::getDTypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::BF16:
    return "bf16";
  case DType::F16:
    return "f16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::Bool:
    return "bool";
  }
  return "?";
}

std::optional<DType> sema::parseDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("f32", DType::F32)
      .Case("f64", DType::F64)
      .Case("bf16", DType::BF16)
      .Case("f16", DType::F16)
      .Case("i32", DType::I32)
      .Case("i64", DType::I64)
      .Case("bool", DType::Bool)
      .Default(std::nullopt);
}

std::string SDim::str() const {
  return isSymbolic() ? symbol : std::to_string(size);
}

std::string sema::shapeStr(llvm::ArrayRef<SDim> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += shape[i].str();
  }
  return s + "]";
}

bool sema::isStatic(llvm::ArrayRef<SDim> shape) {
  for (const SDim &d : shape)
    if (d.isSymbolic())
      return false;
  return true;
}

std::optional<int64_t> sema::numElements(llvm::ArrayRef<SDim> shape) {
  int64_t n = 1;
  for (const SDim &d : shape) {
    if (d.isSymbolic())
      return std::nullopt;
    n *= d.size;
  }
  return n;
}

std::string TensorType::str() const {
  std::string s = getDTypeName(dtype).str();
  if (!shape.empty())
    s += shapeStr(shape);
  return s;
}

std::optional<Shape> sema::broadcastShapes(llvm::ArrayRef<SDim> a,
                                           llvm::ArrayRef<SDim> b,
                                           unsigned *badDim) {
  // A symbolic dimension joins only itself or the static size 1.
  auto join = [](const SDim &da, const SDim &db) -> std::optional<SDim> {
    if (da == db || db.is(1))
      return da;
    if (da.is(1))
      return db;
    return std::nullopt;
  };
  return modelsupport::broadcastShapesWith(a, b, SDim::fixed(1), join,
                                           badDim);
}
