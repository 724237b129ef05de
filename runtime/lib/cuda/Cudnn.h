//===- Cudnn.h - cuDNN 9 loaded at run time, the GPU convolutions ---------===//
//
// Declares what the runtime's GPU convolutions need from cuDNN (internal to
// modelrt): `loadCudnn` opens libcudnn.so.9 (or MODELRT_CUDNN;
// MODELRT_CUDNN=none turns it off) with dlopen and resolves the few
// functions of cuDNN 9's legacy convolution API the runtime calls, declared
// here with the cuDNN 9 ABI (cudnn_graph.h, cudnn_ops.h and cudnn_cnn.h of
// cuDNN 9.x; no cudnn.h is needed to build). `runCudnnConvolution` runs one
// NCHW convolution or adjoint on the compute stream (CudnnConv.cpp wraps it
// as the modelrt_cuda_conv2d_* entry points of GpuAbi.h).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_LIB_CUDA_CUDNN_H
#define MODELRT_LIB_CUDA_CUDNN_H

#include "modelrt/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace modelrt {
namespace cuda {

/// The cuDNN 9 types and values used, as cudnn_graph.h, cudnn_ops.h and
/// cudnn_cnn.h (cuDNN 9) declare them. Descriptors and handles are opaque
/// pointers; the enumerations are ints.
namespace cudnn {
using Status = int;       ///< cudnnStatus_t
using Handle = void *;    ///< cudnnHandle_t
using TensorDesc = void *; ///< cudnnTensorDescriptor_t
using FilterDesc = void *; ///< cudnnFilterDescriptor_t
using ConvDesc = void *;  ///< cudnnConvolutionDescriptor_t
constexpr Status kSuccess = 0;             ///< CUDNN_STATUS_SUCCESS
constexpr Status kBadParam = 2000;         ///< CUDNN_STATUS_BAD_PARAM
constexpr Status kNotSupported = 3000;     ///< CUDNN_STATUS_NOT_SUPPORTED
constexpr int kDataFloat = 0;              ///< CUDNN_DATA_FLOAT
constexpr int kDataBfloat16 = 9;           ///< CUDNN_DATA_BFLOAT16
constexpr int kTensorNchw = 0;             ///< CUDNN_TENSOR_NCHW
constexpr int kCrossCorrelation = 1;       ///< CUDNN_CROSS_CORRELATION
constexpr int kDefaultMath = 0;            ///< CUDNN_DEFAULT_MATH
constexpr int kTensorOpMath = 1;           ///< CUDNN_TENSOR_OP_MATH
constexpr int kFmaMath = 3;                ///< CUDNN_FMA_MATH
/// cudnnConvolution{Fwd,BwdData,BwdFilter}AlgoPerf_t (one layout for the
/// three).
struct AlgoPerf {
  int algo;
  Status status;
  float time;
  size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
};
} // namespace cudnn

/// The cuDNN entry points modelrt calls, resolved by name.
struct CudnnApi {
  size_t (*getVersion)();
  const char *(*getErrorString)(cudnn::Status);
  cudnn::Status (*create)(cudnn::Handle *);
  cudnn::Status (*destroy)(cudnn::Handle);
  cudnn::Status (*setStream)(cudnn::Handle, void *stream);
  cudnn::Status (*createTensorDescriptor)(cudnn::TensorDesc *);
  cudnn::Status (*setTensor4dDescriptor)(cudnn::TensorDesc, int format, int type, int n, int c,
                                         int h, int w);
  cudnn::Status (*destroyTensorDescriptor)(cudnn::TensorDesc);
  cudnn::Status (*createFilterDescriptor)(cudnn::FilterDesc *);
  cudnn::Status (*setFilter4dDescriptor)(cudnn::FilterDesc, int type, int format, int k, int c,
                                         int h, int w);
  cudnn::Status (*destroyFilterDescriptor)(cudnn::FilterDesc);
  cudnn::Status (*createConvolutionDescriptor)(cudnn::ConvDesc *);
  cudnn::Status (*setConvolution2dDescriptor)(cudnn::ConvDesc, int padH, int padW, int u, int v,
                                              int dilH, int dilW, int mode, int computeType);
  cudnn::Status (*setConvolutionMathType)(cudnn::ConvDesc, int mathType);
  cudnn::Status (*destroyConvolutionDescriptor)(cudnn::ConvDesc);
  cudnn::Status (*getForwardAlgorithm)(cudnn::Handle, cudnn::TensorDesc, cudnn::FilterDesc,
                                       cudnn::ConvDesc, cudnn::TensorDesc, int, int *,
                                       cudnn::AlgoPerf *);
  cudnn::Status (*getBackwardDataAlgorithm)(cudnn::Handle, cudnn::FilterDesc, cudnn::TensorDesc,
                                            cudnn::ConvDesc, cudnn::TensorDesc, int, int *,
                                            cudnn::AlgoPerf *);
  cudnn::Status (*getBackwardFilterAlgorithm)(cudnn::Handle, cudnn::TensorDesc,
                                              cudnn::TensorDesc, cudnn::ConvDesc,
                                              cudnn::FilterDesc, int, int *, cudnn::AlgoPerf *);
  cudnn::Status (*forward)(cudnn::Handle, const void *alpha, cudnn::TensorDesc, const void *x,
                           cudnn::FilterDesc, const void *w, cudnn::ConvDesc, int algo,
                           void *workspace, size_t workspaceBytes, const void *beta,
                           cudnn::TensorDesc, void *y);
  cudnn::Status (*backwardData)(cudnn::Handle, const void *alpha, cudnn::FilterDesc,
                                const void *w, cudnn::TensorDesc, const void *dy,
                                cudnn::ConvDesc, int algo, void *workspace,
                                size_t workspaceBytes, const void *beta, cudnn::TensorDesc,
                                void *dx);
  cudnn::Status (*backwardFilter)(cudnn::Handle, const void *alpha, cudnn::TensorDesc,
                                  const void *x, cudnn::TensorDesc, const void *dy,
                                  cudnn::ConvDesc, int algo, void *workspace,
                                  size_t workspaceBytes, const void *beta, cudnn::FilterDesc,
                                  void *dw);
  size_t version = 0; ///< cudnnGetVersion's code: 91900 is 9.19.0
};

/// The library MODELRT_CUDNN names, or libcudnn.so.9; "" when MODELRT_CUDNN
/// is "none".
std::string cudnnLibraryName();

/// Loads \p library and resolves CudnnApi; an error naming the library and
/// why (cannot be loaded, lacks a function, not cuDNN 9).
Expected<CudnnApi> loadCudnn(const std::string &library);

/// "9.19.0" for a version code of 91900.
std::string cudnnVersionString(size_t code);

/// What the three convolutions compute.
enum class ConvDirection { Forward, BackwardData, BackwardWeights };

/// The arithmetic of a GPU convolution on f32 operands: f32 (FMA only), TF32
/// tensor cores (operands rounded to 10 mantissa bits), or bf16 (operands
/// and result converted to bf16, f32 accumulation).
enum class ConvMath { F32, Tf32, Bf16 };

/// One convolution's sizes: x [n,c,h,w], w [o,c,kh,kw], y [n,o,oh,ow].
struct GpuConvShape {
  int64_t n, c, h, w, o, kh, kw, oh, ow, strideH, strideW, padH, padW, dilH, dilW;
};

/// Runs \p dir of \p shape in \p math on the compute stream: out = the
/// convolution of \p a and \p b (x and w, dy and w, or x and dy), device
/// pointers to f32 (or, in ConvMath::Bf16, bf16) NCHW / OIHW buffers. On
/// failure, records a sticky error naming \p caller and returns false.
bool runCudnnConvolution(const char *caller, ConvDirection dir, ConvMath math,
                         const GpuConvShape &shape, const void *a, const void *b, void *out);

} // namespace cuda
} // namespace modelrt

#endif // MODELRT_LIB_CUDA_CUDNN_H
