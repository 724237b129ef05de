//===- Types.h - Element types, shapes and broadcasting ---------*- C++ -*-===//
//
// The types semantic analysis computes for every tensor value: an element
// type (f32, f64, bf16, f16, i32, i64, bool) and a shape whose dimensions are either
// static sizes or symbolic names (the batch dimension `B` of a model input,
// which stays unknown until run time and becomes `?` in MLIR). Also the
// numpy-style broadcasting rule shared by every elementwise operation.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_SEMA_TYPES_H
#define MODELC_SEMA_TYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace modelc {
namespace sema {

/// The element types of tensors.
enum class DType { F32, F64, BF16, F16, I32, I64, Bool };

/// Every element type's spelling, for messages.
constexpr const char *kDTypeList = "f32, f64, bf16, f16, i32, i64 or bool";

/// The spelling of an element type ("f32", "bool", ...).
llvm::StringRef getDTypeName(DType dtype);
/// Parses an element-type name; std::nullopt for anything else.
std::optional<DType> parseDType(llvm::StringRef name);
/// True for the floating-point types: f32, f64, bf16 and f16.
inline bool isFloat(DType d) {
  return d == DType::F32 || d == DType::F64 || d == DType::BF16 || d == DType::F16;
}
/// True for bf16 and f16: stored in 16 bits, computed in f32 (every op on
/// them rounds its f32 result once; docs/language.md, "Mixed precision").
inline bool isLowPrecisionFloat(DType d) { return d == DType::BF16 || d == DType::F16; }
/// True for i32 and i64.
inline bool isInteger(DType d) { return d == DType::I32 || d == DType::I64; }
/// The fix an error for mixing \p left and \p right element types
/// suggests: with a float and an integer or bool, converting the latter to
/// the float type ("convert the left operand with cast(x, f32)", the
/// operands named \p leftName and \p rightName), so that no value is
/// truncated; otherwise "convert one operand with cast(x, L)".
std::string conversionHint(DType left, DType right,
                           llvm::StringRef leftName = "the left operand",
                           llvm::StringRef rightName = "the right operand");
/// Why the number \p value cannot be a \p dtype value without overflow
/// ("it would become -inf", "i32 holds -2147483648..2147483647"), or
/// std::nullopt when it can: a float type overflows from its largest
/// finite value plus half a unit in the last place (to nearest, ties to
/// even), an integer type outside its range, bool for other than 0 and 1;
/// an infinity or NaN (folded from finite literals) fits no type.
std::optional<std::string> overflowOf(double value, DType dtype);
/// overflowOf for an integer literal, compared exactly (every int64 fits
/// i64).
std::optional<std::string> overflowOf(int64_t value, DType dtype);

/// One dimension: a static size, or a symbolic (run-time) size named after
/// the model input's dimension variable.
struct SDim {
  /// The static size (meaningless when symbolic).
  int64_t size = 0;
  /// The symbol's name; empty for a static dimension.
  std::string symbol;

  /// A static dimension.
  static SDim fixed(int64_t size) { return SDim{size, {}}; }
  /// A symbolic dimension.
  static SDim sym(llvm::StringRef name) { return SDim{0, name.str()}; }
  /// True when the size is only known at run time.
  bool isSymbolic() const { return !symbol.empty(); }
  /// True when this is the static size `n`.
  bool is(int64_t n) const { return !isSymbolic() && size == n; }
  /// "28" or "B".
  std::string str() const;
  bool operator==(const SDim &o) const {
    return symbol == o.symbol && (isSymbolic() || size == o.size);
  }
  bool operator!=(const SDim &o) const { return !(*this == o); }
};

/// A shape: a list of dimensions (empty for a scalar).
using Shape = std::vector<SDim>;

/// "[B, 1, 28, 28]".
std::string shapeStr(llvm::ArrayRef<SDim> shape);
/// True when no dimension is symbolic.
bool isStatic(llvm::ArrayRef<SDim> shape);
/// The product of all dimensions, or std::nullopt if one is symbolic.
std::optional<int64_t> numElements(llvm::ArrayRef<SDim> shape);

/// The type of a tensor value.
struct TensorType {
  DType dtype = DType::F32;
  Shape shape;

  /// Number of dimensions.
  unsigned rank() const { return shape.size(); }
  /// "f32[B, 10]"; a scalar prints as "f32".
  std::string str() const;
  bool operator==(const TensorType &o) const {
    return dtype == o.dtype && shape == o.shape;
  }
  bool operator!=(const TensorType &o) const { return !(*this == o); }
};

/// Numpy-style broadcasting of two shapes (see docs/language.md, "Types and
/// shapes"): shapes are aligned on their last dimension; two dimensions are
/// compatible when equal or when one of them is the static size 1; the
/// missing leading dimensions of the shorter shape count as 1. On failure
/// returns std::nullopt and sets `badDim` to the failing position counted
/// from the right (0 = last dimension).
std::optional<Shape> broadcastShapes(llvm::ArrayRef<SDim> a,
                                     llvm::ArrayRef<SDim> b,
                                     unsigned *badDim = nullptr);

} // namespace sema
} // namespace modelc

#endif // MODELC_SEMA_TYPES_H
