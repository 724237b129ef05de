//===- Status.h - Errors returned by the runtime's public API --------------===//
//
// Implements `Status` (success or an error message) and `Expected<T>` (a value
// or an error). Every public runtime function reports failure through these;
// messages name the file and the place (byte offset, line:column, step).
// Also the helpers that build messages: errorf, formatBytes.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_STATUS_H
#define MODELRT_CORE_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace modelrt {

/// The result of an operation that returns nothing: ok, or an error message.
class Status {
public:
  /// A successful status.
  static Status ok() { return Status(); }
  /// A failed status carrying \p message.
  static Status error(std::string message) {
    Status s;
    s.failed = true;
    s.msg = std::move(message);
    return s;
  }
  /// True when the operation succeeded.
  bool isOk() const { return !failed; }
  explicit operator bool() const { return !failed; }
  /// The error message (empty on success).
  const std::string &message() const { return msg; }

private:
  bool failed = false;
  std::string msg;
};

/// A value of type T or an error message.
template <typename T> class Expected {
public:
  Expected(T value) : val(std::move(value)) {}
  Expected(Status status) : err(std::move(status)) {
    assert(!err.isOk() && "Expected built from a successful Status");
  }
  /// True when a value is present.
  explicit operator bool() const { return val.has_value(); }
  bool isOk() const { return val.has_value(); }
  /// The value; only valid when isOk().
  T &operator*() { return *val; }
  const T &operator*() const { return *val; }
  T *operator->() { return &*val; }
  const T *operator->() const { return &*val; }
  /// Moves the value out.
  T take() { return std::move(*val); }
  /// The error (ok() when a value is present).
  const Status &status() const { return err; }
  const std::string &message() const { return err.message(); }

private:
  std::optional<T> val;
  Status err;
};

/// Builds an error Status from printf-style arguments.
Status errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/// A size for messages: "512 B", "1.23 MiB", "139.80 GiB" (powers of 1024).
std::string formatBytes(double bytes);

} // namespace modelrt

/// Returns from the enclosing function when \p expr yields a failed Status.
#define MODELRT_TRY(expr)                                                      \
  do {                                                                         \
    ::modelrt::Status modelrtStatus_ = (expr);                                 \
    if (!modelrtStatus_.isOk())                                                \
      return modelrtStatus_;                                                   \
  } while (0)

#endif // MODELRT_CORE_STATUS_H
