//===- Tensor.h - A small owning buffer with shape and dtype ---------------===//
//
// Implements `Tensor`: contiguous row-major (C order) storage of f32, f64,
// i32, i64 or u8 elements with a shape. It is the runtime's interchange type
// between readers, the data loader and the checkpoint writer.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_TENSOR_H
#define MODELRT_CORE_TENSOR_H

#include <cstdint>
#include <string>
#include <vector>

namespace modelrt {

/// Element types; the numeric values are the ones of the C ABI (Program.h)
/// and of the checkpoint format.
enum class DType : int32_t { F32 = 0, F64 = 1, I32 = 2, I64 = 3, U8 = 4 };

/// Size of one element of \p dtype in bytes.
size_t dtypeSize(DType dtype);
/// Short name: "f32", "f64", "i32", "i64", "u8".
const char *dtypeName(DType dtype);
/// True when \p value is one of the DType enumerators.
bool isValidDType(int32_t value);
/// Number of elements of \p shape (1 for a scalar).
int64_t shapeNumElements(const std::vector<int64_t> &shape);
/// "[2, 3]" style rendering of \p shape.
std::string shapeToString(const std::vector<int64_t> &shape);

/// An owning, contiguous, row-major tensor.
class Tensor {
public:
  Tensor() = default;
  /// A zero-filled tensor of \p dtype and \p shape.
  Tensor(DType dtype, std::vector<int64_t> shape);

  DType dtype() const { return type; }
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  int64_t dim(int64_t i) const { return dims[static_cast<size_t>(i)]; }
  int64_t numElements() const { return shapeNumElements(dims); }
  size_t numBytes() const { return bytes.size(); }

  /// Raw storage.
  void *data() { return bytes.data(); }
  const void *data() const { return bytes.data(); }
  /// Typed storage; the caller must know the dtype.
  template <typename T> T *as() { return reinterpret_cast<T *>(bytes.data()); }
  template <typename T> const T *as() const {
    return reinterpret_cast<const T *>(bytes.data());
  }

  /// Element \p i converted to double, whatever the dtype.
  double getAsDouble(int64_t i) const;
  /// A copy converted to \p to (values are cast like C++ static_cast).
  Tensor convertTo(DType to) const;
  /// Changes the shape keeping the elements; false when counts differ.
  bool reshape(std::vector<int64_t> newShape);

private:
  DType type = DType::F32;
  std::vector<int64_t> dims;
  std::vector<unsigned char> bytes;
};

} // namespace modelrt

#endif // MODELRT_CORE_TENSOR_H
