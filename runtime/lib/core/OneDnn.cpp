//===- OneDnn.cpp - Opening oneDNN once, capped at the runtime's level -----===//
//
// Implements OneDnn.h: opens MODELRT_ONEDNN or libdnnl.so.2 with dlopen,
// checks that it is oneDNN 2.x (dnnl_sgemm, dnnl_set_max_cpu_isa,
// dnnl_get_effective_cpu_isa, dnnl_version), caps its instruction set with
// dnnl_set_max_cpu_isa when MODELRT_CPU_ISA narrows what the CPU has (before
// any primitive, as oneDNN fixes its instruction set at the first one),
// and resolves the convolution functions, whose absence only disables
// convolution primitives. Threads are OpenMP's (oneDNN is built on
// libgomp); a user's OMP_NUM_THREADS is left alone.
//
//===----------------------------------------------------------------------===//
#include "OneDnn.h"
#include "BlasBackends.h"
#include "modelrt/core/Bf16.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Parallel.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace modelrt {
namespace {

/// oneDNN's name for an instruction set (as ONEDNN_VERBOSE spells it).
const char *isaName(dnnl_cpu_isa_t isa) {
  switch (isa) {
  case dnnl_cpu_isa_sse41:
    return "sse41";
  case dnnl_cpu_isa_avx:
    return "avx";
  case dnnl_cpu_isa_avx2:
    return "avx2";
  case dnnl_cpu_isa_avx2_vnni:
    return "avx2_vnni";
  case dnnl_cpu_isa_avx512_core:
    return "avx512_core";
  case dnnl_cpu_isa_avx512_core_vnni:
    return "avx512_core_vnni";
  case dnnl_cpu_isa_avx512_core_bf16:
    return "avx512_core_bf16";
  case dnnl_cpu_isa_avx512_core_amx:
    return "avx512_core_amx";
  default:
    return "unknown";
  }
}

/// The widest oneDNN instruction set allowed at \p level.
dnnl_cpu_isa_t maxIsaFor(CpuLevel level) {
  switch (level) {
  case CpuLevel::Avx512:
    return dnnl_cpu_isa_all;
  case CpuLevel::Avx2:
    return dnnl_cpu_isa_avx2;
  case CpuLevel::Baseline:
    break;
  }
  return dnnl_cpu_isa_sse41;
}

/// Sets \p fn to the symbol \p name of \p handle; returns whether it exists.
template <typename Fn> bool resolve(void *handle, const char *name, Fn &fn) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  return fn != nullptr;
}

/// Resolves the convolution functions; the first missing one is an error.
Status resolveConv(void *handle, const char *path, OneDnnConvApi &c) {
#define MODELRT_RESOLVE(FIELD, NAME)                                                         \
  if (!resolve(handle, #NAME, c.FIELD))                                                      \
    return errorf("%s has no " #NAME, path);
  MODELRT_RESOLVE(engineCreate, dnnl_engine_create)
  MODELRT_RESOLVE(streamCreate, dnnl_stream_create)
  MODELRT_RESOLVE(streamWait, dnnl_stream_wait)
  MODELRT_RESOLVE(streamDestroy, dnnl_stream_destroy)
  MODELRT_RESOLVE(memoryDescInitByTag, dnnl_memory_desc_init_by_tag)
  MODELRT_RESOLVE(memoryDescEqual, dnnl_memory_desc_equal)
  MODELRT_RESOLVE(memoryDescGetSize, dnnl_memory_desc_get_size)
  MODELRT_RESOLVE(forwardDescInit, dnnl_dilated_convolution_forward_desc_init)
  MODELRT_RESOLVE(backwardDataDescInit, dnnl_dilated_convolution_backward_data_desc_init)
  MODELRT_RESOLVE(backwardWeightsDescInit, dnnl_dilated_convolution_backward_weights_desc_init)
  MODELRT_RESOLVE(attrCreate, dnnl_primitive_attr_create)
  MODELRT_RESOLVE(attrDestroy, dnnl_primitive_attr_destroy)
  MODELRT_RESOLVE(attrSetScratchpadMode, dnnl_primitive_attr_set_scratchpad_mode)
  MODELRT_RESOLVE(primitiveDescCreate, dnnl_primitive_desc_create)
  MODELRT_RESOLVE(primitiveDescDestroy, dnnl_primitive_desc_destroy)
  MODELRT_RESOLVE(primitiveDescQuery, dnnl_primitive_desc_query)
  MODELRT_RESOLVE(primitiveDescQueryMd, dnnl_primitive_desc_query_md)
  MODELRT_RESOLVE(reorderDescCreate, dnnl_reorder_primitive_desc_create)
  MODELRT_RESOLVE(primitiveCreate, dnnl_primitive_create)
  MODELRT_RESOLVE(primitiveDestroy, dnnl_primitive_destroy)
  MODELRT_RESOLVE(primitiveExecute, dnnl_primitive_execute)
  MODELRT_RESOLVE(memoryCreate, dnnl_memory_create)
  MODELRT_RESOLVE(memoryDestroy, dnnl_memory_destroy)
  MODELRT_RESOLVE(memorySetDataHandle, dnnl_memory_set_data_handle)
  MODELRT_RESOLVE(memoryGetDataHandle, dnnl_memory_get_data_handle)
#undef MODELRT_RESOLVE
  return Status::ok();
}

/// Resolves the bf16 matmul's functions; the first missing one is an error.
Status resolveMatmul(void *handle, const char *path, OneDnnMatmulApi &m) {
#define MODELRT_RESOLVE(FIELD, NAME)                                                         \
  if (!resolve(handle, #NAME, m.FIELD))                                                      \
    return errorf("%s has no " #NAME, path);
  MODELRT_RESOLVE(memoryDescInitByStrides, dnnl_memory_desc_init_by_strides)
  MODELRT_RESOLVE(matmulDescInit, dnnl_matmul_desc_init)
  MODELRT_RESOLVE(attrSetOutputScales, dnnl_primitive_attr_set_output_scales)
  MODELRT_RESOLVE(attrSetPostOps, dnnl_primitive_attr_set_post_ops)
  MODELRT_RESOLVE(postOpsCreate, dnnl_post_ops_create)
  MODELRT_RESOLVE(postOpsAppendSum, dnnl_post_ops_append_sum)
  MODELRT_RESOLVE(postOpsDestroy, dnnl_post_ops_destroy)
#undef MODELRT_RESOLVE
  return Status::ok();
}

/// The instruction set oneDNN is capped at: the runtime's level, and below
/// AMX when MODELRT_BF16 asks for avx512_bf16 (dnnl_cpu_isa_all: no cap).
dnnl_cpu_isa_t isaCap() {
  CpuLevel level = hostKernels().level;
  if (level < supportedLevel(hostCpuFeatures()))
    return maxIsaFor(level);
  Expected<Bf16Path> bf16 = bf16PathCap();
  if (bf16 && *bf16 == Bf16Path::Avx512Bf16 && level == CpuLevel::Avx512)
    return dnnl_cpu_isa_avx512_core_bf16;
  return dnnl_cpu_isa_all;
}

/// Checks that \p handle is oneDNN 2.x, caps its instruction set and
/// records its version; sets d.status and returns false when it cannot.
bool configure(void *handle, const char *path, OneDnnLibrary &d) {
  decltype(&dnnl_set_max_cpu_isa) setMaxIsa;
  decltype(&dnnl_get_effective_cpu_isa) effective;
  decltype(&dnnl_version) version;
  bool found = resolve(handle, "dnnl_sgemm", d.sgemm);
  found &= resolve(handle, "dnnl_set_max_cpu_isa", setMaxIsa);
  found &= resolve(handle, "dnnl_get_effective_cpu_isa", effective);
  found &= resolve(handle, "dnnl_version", version);
  if (!found) {
    d.status = errorf("%s has no dnnl_sgemm, dnnl_set_max_cpu_isa, dnnl_get_effective_cpu_isa "
                      "or dnnl_version: it is not oneDNN 2.x", path);
    return false;
  }
  // Only when MODELRT_CPU_ISA or MODELRT_BF16 narrows what the CPU has:
  // otherwise oneDNN's own choice (and a user's ONEDNN_MAX_CPU_ISA) stands.
  dnnl_cpu_isa_t cap = isaCap();
  if (cap != dnnl_cpu_isa_all && setMaxIsa(cap) != dnnl_success) {
    d.status = errorf("%s refused to limit its kernels to %s (MODELRT_CPU_ISA=%s)", path,
                      isaName(cap), cpuLevelName(hostKernels().level));
    return false;
  }
  const dnnl_version_t *v = version();
  d.version = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
              std::to_string(v->patch);
  d.isa = isaName(effective());
  return true;
}

/// Opens oneDNN (MODELRT_ONEDNN or libdnnl.so.2) and configures it.
OneDnnLibrary open() {
  OneDnnLibrary d;
  const char *path = std::getenv("MODELRT_ONEDNN");
  if (!path || !*path)
    path = "libdnnl.so.2";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    d.status = errorf("cannot open oneDNN (%s): %s; install Debian's libdnnl2 (or set "
                      "MODELRT_ONEDNN to the library's path)", path, why ? why : "unknown error");
    return d;
  }
  if (!configure(handle, path, d)) {
    d.sgemm = nullptr;
    return d;
  }
  d.convStatus = resolveConv(handle, path, d.conv);
  d.matmulStatus = d.convStatus.isOk() ? resolveMatmul(handle, path, d.matmul) : d.convStatus;
  resolve(handle, "omp_set_num_threads", d.ompSetNumThreads);
  resolve(handle, "omp_get_max_threads", d.ompGetMaxThreads);
  if (d.ompSetNumThreads && !std::getenv("OMP_NUM_THREADS")) {
    d.choosesThreads = true;
    d.cores = usableCores();
  }
  return d;
}

} // namespace

const OneDnnLibrary &oneDnnLibrary() {
  static std::once_flag once;
  static OneDnnLibrary d;
  std::call_once(once, [] { d = open(); });
  return d;
}

int oneDnnThreadsForWork(double macs, double allCores) {
  const OneDnnLibrary &d = oneDnnLibrary();
  if (!d.choosesThreads)
    return 0;
  return macs >= allCores ? d.cores : 1;
}

void setOneDnnThreads(int threads) {
  thread_local int last = 0; // omp_set_num_threads is per calling thread
  const OneDnnLibrary &d = oneDnnLibrary();
  if (threads <= 0 || threads == last || !d.ompSetNumThreads)
    return;
  d.ompSetNumThreads(threads);
  last = threads;
}

} // namespace modelrt
