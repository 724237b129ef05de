//===- Tensor.cpp - Owning tensor buffer -----------------------------------===//
#include "modelrt/core/Tensor.h"

#include <cstring>

namespace modelrt {

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32: return 4;
  case DType::F64: return 8;
  case DType::I32: return 4;
  case DType::I64: return 8;
  case DType::U8: return 1;
  }
  return 0;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32: return "f32";
  case DType::F64: return "f64";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::U8: return "u8";
  }
  return "?";
}

bool isValidDType(int32_t value) { return value >= 0 && value <= 4; }

int64_t shapeNumElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string shapeToString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

Tensor::Tensor(DType dtype, std::vector<int64_t> shape)
    : type(dtype), dims(std::move(shape)),
      bytes(static_cast<size_t>(shapeNumElements(dims)) * dtypeSize(dtype)) {}

double Tensor::getAsDouble(int64_t i) const {
  switch (type) {
  case DType::F32: return as<float>()[i];
  case DType::F64: return as<double>()[i];
  case DType::I32: return as<int32_t>()[i];
  case DType::I64: return static_cast<double>(as<int64_t>()[i]);
  case DType::U8: return as<uint8_t>()[i];
  }
  return 0;
}

/// out[i] = (To)(double)in[i]: one typed loop per source type (the
/// compiler vectorises it; 47M u8 -> f32 values of Fashion-MNIST in a few
/// milliseconds instead of a dispatch per element).
template <typename To, typename From>
static void convertLoop(const From *in, int64_t n, To *out) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = static_cast<To>(static_cast<double>(in[i]));
}

template <typename To> static void convertInto(const Tensor &from, To *out) {
  int64_t n = from.numElements();
  switch (from.dtype()) {
  case DType::F32: return convertLoop(from.as<float>(), n, out);
  case DType::F64: return convertLoop(from.as<double>(), n, out);
  case DType::I32: return convertLoop(from.as<int32_t>(), n, out);
  case DType::I64: return convertLoop(from.as<int64_t>(), n, out);
  case DType::U8: return convertLoop(from.as<uint8_t>(), n, out);
  }
}

Tensor Tensor::convertTo(DType to) const {
  if (to == type)
    return *this;
  Tensor result(to, dims);
  switch (to) {
  case DType::F32: convertInto(*this, result.as<float>()); break;
  case DType::F64: convertInto(*this, result.as<double>()); break;
  case DType::I32: convertInto(*this, result.as<int32_t>()); break;
  case DType::I64: convertInto(*this, result.as<int64_t>()); break;
  case DType::U8: convertInto(*this, result.as<uint8_t>()); break;
  }
  return result;
}

bool Tensor::reshape(std::vector<int64_t> newShape) {
  if (shapeNumElements(newShape) != numElements())
    return false;
  dims = std::move(newShape);
  return true;
}

} // namespace modelrt
