//===- OneDnn.h - The one oneDNN library behind products and convolutions --===//
//
// Declares, for the runtime's two users of oneDNN (the products of
// BlasOneDnn.cpp and the convolutions of ConvOneDnn.cpp), the library
// itself: libdnnl.so.2 (Debian's libdnnl2, oneDNN 2.x) opened once with
// dlopen, its instruction set capped at the runtime's level
// (MODELRT_CPU_ISA, CpuFeatures.h) before any primitive is made, its version,
// the OpenMP thread setting it runs under, and every function either user
// (and the bf16 products of GemmBf16OneDnn.cpp) calls, each resolved with
// dlsym. The instruction set is capped at avx512_core_bf16 as well when
// MODELRT_BF16 rules out AMX (Bf16.h). The types and signatures come from
// oneDNN's own header (<oneapi/dnnl/dnnl.h>, Debian's libdnnl-dev); no dnnl
// function is called directly, so executables do not link oneDNN.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CORE_ONEDNN_H
#define MODELRT_LIB_CORE_ONEDNN_H

#include "modelrt/core/Status.h"

#include <oneapi/dnnl/dnnl.h>

#include <string>

namespace modelrt {

/// The functions the convolution primitives need (all resolved, or none).
struct OneDnnConvApi {
  decltype(&dnnl_engine_create) engineCreate = nullptr;
  decltype(&dnnl_stream_create) streamCreate = nullptr;
  decltype(&dnnl_stream_wait) streamWait = nullptr;
  decltype(&dnnl_stream_destroy) streamDestroy = nullptr;
  decltype(&dnnl_memory_desc_init_by_tag) memoryDescInitByTag = nullptr;
  decltype(&dnnl_memory_desc_equal) memoryDescEqual = nullptr;
  decltype(&dnnl_memory_desc_get_size) memoryDescGetSize = nullptr;
  decltype(&dnnl_dilated_convolution_forward_desc_init) forwardDescInit = nullptr;
  decltype(&dnnl_dilated_convolution_backward_data_desc_init) backwardDataDescInit = nullptr;
  decltype(&dnnl_dilated_convolution_backward_weights_desc_init) backwardWeightsDescInit =
      nullptr;
  decltype(&dnnl_primitive_attr_create) attrCreate = nullptr;
  decltype(&dnnl_primitive_attr_destroy) attrDestroy = nullptr;
  decltype(&dnnl_primitive_attr_set_scratchpad_mode) attrSetScratchpadMode = nullptr;
  decltype(&dnnl_primitive_desc_create) primitiveDescCreate = nullptr;
  decltype(&dnnl_primitive_desc_destroy) primitiveDescDestroy = nullptr;
  decltype(&dnnl_primitive_desc_query) primitiveDescQuery = nullptr;
  decltype(&dnnl_primitive_desc_query_md) primitiveDescQueryMd = nullptr;
  decltype(&dnnl_reorder_primitive_desc_create) reorderDescCreate = nullptr;
  decltype(&dnnl_primitive_create) primitiveCreate = nullptr;
  decltype(&dnnl_primitive_destroy) primitiveDestroy = nullptr;
  decltype(&dnnl_primitive_execute) primitiveExecute = nullptr;
  decltype(&dnnl_memory_create) memoryCreate = nullptr;
  decltype(&dnnl_memory_destroy) memoryDestroy = nullptr;
  decltype(&dnnl_memory_set_data_handle) memorySetDataHandle = nullptr;
  decltype(&dnnl_memory_get_data_handle) memoryGetDataHandle = nullptr;
};

/// The functions the bf16 matmul primitive needs beyond the convolutions'
/// (all resolved, or none).
struct OneDnnMatmulApi {
  decltype(&dnnl_memory_desc_init_by_strides) memoryDescInitByStrides = nullptr;
  decltype(&dnnl_matmul_desc_init) matmulDescInit = nullptr;
  decltype(&dnnl_primitive_attr_set_output_scales) attrSetOutputScales = nullptr;
  decltype(&dnnl_primitive_attr_set_post_ops) attrSetPostOps = nullptr;
  decltype(&dnnl_post_ops_create) postOpsCreate = nullptr;
  decltype(&dnnl_post_ops_append_sum) postOpsAppendSum = nullptr;
  decltype(&dnnl_post_ops_destroy) postOpsDestroy = nullptr;
};

/// The opened library.
struct OneDnnLibrary {
  /// Ok when the library opened, is oneDNN 2.x and took the cap; the same
  /// error otherwise ("cannot open oneDNN (...)", naming the package).
  Status status = Status::ok();
  decltype(&dnnl_sgemm) sgemm = nullptr;
  /// Ok when every function of `conv` resolved; otherwise names the first
  /// one missing (convolutions then run as im2col + sgemm).
  Status convStatus = Status::ok();
  OneDnnConvApi conv;
  /// Ok when convStatus is and every function of `matmul` resolved
  /// (bf16 products then run by the emulation).
  Status matmulStatus = Status::ok();
  OneDnnMatmulApi matmul;
  /// "oneDNN 2.6.3".
  std::string version;
  /// The instruction set oneDNN's kernels use, as ONEDNN_VERBOSE names it
  /// ("avx512_core", "avx2", ...).
  std::string isa;
  /// omp_set_num_threads and omp_get_max_threads of the OpenMP runtime
  /// oneDNN runs on (null when it exports neither).
  void (*ompSetNumThreads)(int) = nullptr;
  int (*ompGetMaxThreads)() = nullptr;
  /// False when the user's OMP_NUM_THREADS decides the threads.
  bool choosesThreads = false;
  /// The cores a large product or convolution runs on.
  int cores = 1;
};

/// The library, opened and configured on first use (thread-safe).
const OneDnnLibrary &oneDnnLibrary();

/// The OpenMP threads the runtime gives oneDNN work of \p macs
/// multiply-adds: every core from \p allCores on (kMacsForAllCores or
/// kConvMacsForAllCores, BlasBackends.h), one below; 0 when the user's
/// OMP_NUM_THREADS decides.
int oneDnnThreadsForWork(double macs, double allCores);

/// Sets the calling thread's OpenMP thread count to \p threads (nothing for
/// 0, or when it is the count this thread set last). Products and
/// convolutions both set it through here, so that they agree on the last.
void setOneDnnThreads(int threads);

} // namespace modelrt

#endif // MODELRT_LIB_CORE_ONEDNN_H
