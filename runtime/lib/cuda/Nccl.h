//===- Nccl.h - NCCL loaded at run time, the gradients' sums on the GPUs ---===//
//
// Declares what the GPU runner needs from NCCL (internal to modelrt):
// `loadNccl` opens libnccl.so.2 (or MODELRT_NCCL; MODELRT_NCCL=none turns
// it off) with dlopen and resolves the few functions used, declared here
// with the NCCL 2 ABI (no nccl.h is needed to build); `NcclSums` is a
// communicator over the ranks of a Collective (its unique id made on rank
// 0 and broadcast through the Collective), whose `sum` replaces device
// buffers by their weighted sum over the ranks (ncclAllReduce with a
// ncclRedOpCreatePreMulSum operator, on the compute stream) and waits under
// the run's distributed timeout, aborting the communicator on an error.
// What it does not do: choose between NCCL and the host's sums (the caller
// falls back when every rank cannot load NCCL), or sum anything but floats.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CUDA_NCCL_H
#define MODELRT_LIB_CUDA_NCCL_H

#include "modelrt/core/Status.h"
#include "modelrt/dist/Collective.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace modelrt {
namespace cuda {

/// The NCCL 2 types and values used, as nccl.h (NCCL 2.11 and later)
/// declares them.
namespace nccl {
using Result = int;     ///< ncclResult_t
using Comm = void *;    ///< ncclComm_t
using RedOp = int;      ///< ncclRedOp_t
using DataType = int;   ///< ncclDataType_t
constexpr Result kSuccess = 0;     ///< ncclSuccess
constexpr Result kInProgress = 7;  ///< ncclInProgress
constexpr DataType kFloat32 = 7;   ///< ncclFloat32
constexpr int kScalarHostImmediate = 1; ///< ncclScalarHostImmediate
/// ncclUniqueId: NCCL_UNIQUE_ID_BYTES (128) opaque bytes, passed by value.
struct UniqueId {
  char internal[128];
};
} // namespace nccl

/// The NCCL entry points modelrt calls, resolved by name.
struct NcclApi {
  nccl::Result (*getVersion)(int *);
  nccl::Result (*getUniqueId)(nccl::UniqueId *);
  nccl::Result (*commInitRank)(nccl::Comm *, int, nccl::UniqueId, int);
  nccl::Result (*commDestroy)(nccl::Comm);
  nccl::Result (*commAbort)(nccl::Comm);
  nccl::Result (*commGetAsyncError)(nccl::Comm, nccl::Result *);
  const char *(*getErrorString)(nccl::Result);
  nccl::Result (*allReduce)(const void *, void *, size_t, nccl::DataType, nccl::RedOp,
                            nccl::Comm, void *stream);
  nccl::Result (*redOpCreatePreMulSum)(nccl::RedOp *, void *, nccl::DataType, int, nccl::Comm);
  nccl::Result (*redOpDestroy)(nccl::RedOp, nccl::Comm);
  nccl::Result (*groupStart)();
  nccl::Result (*groupEnd)();
  int version = 0; ///< ncclGetVersion's code: 22304 is 2.23.4
};

/// The library MODELRT_NCCL names, or libnccl.so.2; "" when MODELRT_NCCL
/// is "none".
std::string ncclLibraryName();

/// Loads \p library and resolves NcclApi; an error naming the library and
/// why (cannot be loaded, lacks a function, older than 2.11).
Expected<NcclApi> loadNccl(const std::string &library);

/// "2.23.4" for a version code of 22304.
std::string ncclVersionString(int code);

/// A communicator over the ranks of a run, for sums of device buffers.
class NcclSums {
public:
  /// Joins every rank of \p ranks (collective: every rank calls it). NCCL
  /// is used only when every rank could load it: otherwise null, with
  /// \p why saying why (this rank's reason, or which rank could not). An
  /// error when the communicator cannot be made.
  static Expected<std::unique_ptr<NcclSums>> join(Collective &ranks, std::string &why);
  ~NcclSums();
  NcclSums(const NcclSums &) = delete;
  NcclSums &operator=(const NcclSums &) = delete;

  /// "NCCL 2.23.4 (libnccl.so.2)".
  std::string describe() const;
  /// Replaces every buffers[i] (device memory, sizes[i] floats) on every
  /// rank by the sum over the ranks of \p weight * buffers[i], in order
  /// after the work on the compute stream, and waits for it. After the
  /// timeout or an NCCL error the communicator is aborted and the error
  /// names \p what.
  Status sum(const std::vector<float *> &buffers, const std::vector<int64_t> &sizes,
             float weight, const char *what);

private:
  NcclSums(NcclApi api, std::string library, double timeout)
      : api(api), library(std::move(library)), timeout(timeout) {}
  Status check(nccl::Result r, const char *call);
  Status wait(const char *what);
  /// ncclCommAbort, once (the communicator is unusable afterwards).
  void abortComm();
  NcclApi api;
  std::string library;
  double timeout;
  nccl::Comm comm = nullptr;
  bool aborted = false;
};

} // namespace cuda
} // namespace modelrt

#endif // MODELRT_LIB_CUDA_NCCL_H
