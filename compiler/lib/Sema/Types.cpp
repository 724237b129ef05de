//===- Types.cpp - Element types, shapes and broadcasting -----------------===//
//
// Printing of element types and shapes, and the broadcasting rule.
//
//===----------------------------------------------------------------------===//

#include "modelc/Sema/Types.h"

#include "llvm/ADT/StringSwitch.h"

using namespace modelc;
using namespace modelc::sema;

llvm::StringRef sema::getDTypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
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
  size_t rank = std::max(a.size(), b.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    SDim da = i < a.size() ? a[a.size() - 1 - i] : SDim::fixed(1);
    SDim db = i < b.size() ? b[b.size() - 1 - i] : SDim::fixed(1);
    SDim &out = result[rank - 1 - i];
    if (da == db)
      out = da;
    else if (da.is(1))
      out = db;
    else if (db.is(1))
      out = da;
    else {
      if (badDim)
        *badDim = i;
      return std::nullopt;
    }
  }
  return result;
}
