//===- GpuAbi.h - The C functions that compiled GPU code calls ------------===//
//
// Declares the C ABI between the code modelc's GPU pipeline generates and
// the runtime's CUDA layer:
//   - the `modelrt_cuda_*` helpers of the compiled entry adapters
//     (compiler/lib/Codegen/Adapters.cpp): the products (f32, bf16, TF32),
//     the convolutions (cuDNN), scratch cells, the seed cell, allocations,
//     copies, the sticky status;
//   - the `mgpu*` functions that MLIR 22's `gpu-to-llvm` host code and
//     gpu.binary translation call (see docs/gpu.md).
// Nothing here links against CUDA (the driver is opened at run time, see
// Cuda.h). Errors inside these functions are sticky: the first one is kept
// (with the function and the CUresult name), `modelrt_cuda_status()`
// reports it, and later launches are skipped. The C++ API of the layer
// (probe, context, pool, buffers, graphs) is Cuda.h; it is not declared here.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CUDA_GPUABI_H
#define MODELRT_CUDA_GPUABI_H

#include <cstddef>
#include <cstdint>

extern "C" {
/// cblas_sgemm on the GPU (device pointers), ordered on the compute stream.
/// \p order is 101 (row-major) or 102 (column-major); \p transA / \p transB
/// are 111 (no transpose) or 112 (transpose). Errors are sticky.
/// The integer arguments are 32-bit, exactly as cblas_sgemm's: the GPU
/// pipeline rewrites matrix products into calls with that signature.
void modelrt_cuda_sgemm(int32_t order, int32_t transA, int32_t transB,
                        int32_t M, int32_t N, int32_t K, float alpha,
                        const float *A, int32_t lda, const float *B,
                        int32_t ldb, float beta, float *C, int32_t ldc);
/// modelrt_cuda_sgemm's arguments and semantics (f32 matrices in and out) on
/// the tensor cores: the operands rounded to bf16 (resp. to TF32, 10
/// mantissa bits) and the products accumulated in f32 (cublasGemmEx with
/// CUBLAS_COMPUTE_32F_FAST_16BF resp. _FAST_TF32). The GPU code of a
/// `precision = bf16` (resp. `tf32`) program calls them for its products
/// (docs/precision.md). Errors are sticky.
void modelrt_cuda_gemm_bf16(int32_t order, int32_t transA, int32_t transB,
                            int32_t M, int32_t N, int32_t K, float alpha,
                            const float *A, int32_t lda, const float *B,
                            int32_t ldb, float beta, float *C, int32_t ldc);
void modelrt_cuda_gemm_tf32(int32_t order, int32_t transA, int32_t transB,
                            int32_t M, int32_t N, int32_t K, float alpha,
                            const float *A, int32_t lda, const float *B,
                            int32_t ldb, float beta, float *C, int32_t ldc);
/// Fused attention on the GPU (device pointers, the compute stream): the
/// same arguments and results as modelrt_attention_forward / _backward /
/// _packed_forward / _packed_backward of modelrt/core/Attention.h, for
/// heads of width at most kAttentionGpuMaxWidth (AttentionKernels.h).
/// Errors are sticky.
void modelrt_cuda_attention_forward(const float *q, const float *k, const float *v,
                                    float *out, int64_t batch, int64_t heads,
                                    int64_t queries, int64_t keys, int64_t width,
                                    int64_t causal);
void modelrt_cuda_attention_backward(const float *q, const float *k, const float *v,
                                     const float *out, const float *dout, float *dqkv,
                                     int64_t batch, int64_t heads, int64_t queries,
                                     int64_t keys, int64_t width, int64_t causal);
void modelrt_cuda_attention_packed_forward(const float *qkv, float *out, int64_t batch,
                                           int64_t heads, int64_t length, int64_t width,
                                           int64_t causal);
void modelrt_cuda_attention_packed_backward(const float *qkv, const float *out,
                                            const float *dout, float *dqkv, int64_t batch,
                                            int64_t heads, int64_t length, int64_t width,
                                            int64_t causal);
/// The 2-D convolutions of modelrt/core/Conv.h (the same arguments and
/// results: NCHW x, OIHW w, one group) on device buffers, through cuDNN 9
/// on the compute stream: f32 (FMA only, no tensor cores), _tf32 (the
/// tensor cores, operands rounded to TF32) and _bf16 (the operands
/// converted to bf16, f32 accumulation, the result rounded to bf16 and
/// returned as f32). The GPU code of a program compiled with
/// `--gpu-conv=cudnn` calls them by its precision. Errors are sticky and
/// name the entry point (and the cuDNN function).
#define MODELRT_CUDA_CONV_DECL(NAME, A, B, OUT)                                \
  void NAME(const float *A, const float *B, float *OUT, int64_t n, int64_t c,  \
            int64_t h, int64_t w_, int64_t o, int64_t kh, int64_t kw,          \
            int64_t oh, int64_t ow, int64_t strideH, int64_t strideW,          \
            int64_t padH, int64_t padW, int64_t dilH, int64_t dilW);
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_forward, x, w, y)
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_backward_data, dy, w, dx)
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_backward_weights, x, dy, dw)
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_forward_tf32, x, w, y)
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_backward_data_tf32, dy, w, dx)
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_backward_weights_tf32, x, dy, dw)
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_forward_bf16, x, w, y)
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_backward_data_bf16, dy, w, dx)
MODELRT_CUDA_CONV_DECL(modelrt_cuda_conv2d_backward_weights_bf16, x, dy, dw)
#undef MODELRT_CUDA_CONV_DECL

/// A device pointer to the persistent, zero-initialised 64-byte cell \p slot
/// (0..63), for scalars (seed, loss, counts). Null (and a sticky error) when
/// the GPU is not usable or the slot is out of range.
void *modelrt_cuda_scratch(int32_t slot);
/// The device cell of the training seed (scratch cell 63; results use the
/// cells from 0 up), with \p seed written into it on the compute stream
/// (except while a graph is being captured: the replay's caller writes it).
/// Null (and a sticky error) when the GPU is not usable.
void *modelrt_cuda_seed_cell(uint64_t seed);
/// Copies the scratch cells (all 64, 4 KiB: the program's \p cells, 1..64,
/// and the runtime's cuda::kRuntimeScratchCell of Cuda.h) to their pinned
/// host mirror with one copy and one wait for the compute stream; returns
/// the mirror (cell i at byte i * 64). After an error (sticky), a block of
/// zeros.
const void *modelrt_cuda_fetch_scratch(int32_t cells);
/// A device allocation of \p bytes (at least 1) from the device pool that
/// also serves mgpuMemAlloc: the scratch buffer of a state output.
void *modelrt_cuda_alloc(int64_t bytes);
/// Returns \p ptr (from modelrt_cuda_alloc) to the device pool.
void modelrt_cuda_free(void *ptr);
/// Copies \p bytes from host to device on the compute stream; \p host may be
/// reused when this returns (pageable memory is staged by the driver).
void modelrt_cuda_upload(void *dev, const void *host, int64_t bytes);
/// Copies \p bytes from device to host; waits for the compute stream, so the
/// host data is valid when this returns.
void modelrt_cuda_download(void *host, const void *dev, int64_t bytes);
/// Copies \p bytes from device to device on the compute stream.
void modelrt_cuda_copy(void *dst, const void *src, int64_t bytes);

// ---- The mgpu ABI of MLIR 22 (CUmodule/CUfunction/CUstream/CUevent as void*).
// A null stream means the compute stream. The module loads run in global
// constructors and touch no CUDA: the image is loaded on the first
// mgpuModuleGetFunction.
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount);
/// Returns the runtime's compute stream; mgpuStreamDestroy of it is a no-op.
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
/// From the caching device pool (managed memory when \p isHostShared).
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream);
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostUnregister(void *ptr);
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);
/// Accepted only for the device modelrt uses (MODELRT_CUDA_DEVICE).
void mgpuSetDefaultDevice(int32_t device);

/// 0 when no CUDA error happened so far; else the CUresult of the first error
/// (or -1 for an error that has none, e.g. "the GPU is not usable").
int32_t modelrt_cuda_status(void);
/// The first error's message ("" when none); the pointer stays valid.
const char *modelrt_cuda_error_message(void);
}

#endif // MODELRT_CUDA_GPUABI_H
