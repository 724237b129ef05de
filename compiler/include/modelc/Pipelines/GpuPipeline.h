//===- GpuPipeline.h - The named GPU (CUDA) lowering pipeline ---*- C++ -*-===//
//
// Declares the GPU lowering pipeline: the same linalg-on-tensors module as
// the CPU pipeline -> fusion and bufferization (shared) -> matrix products
// as calls to the runtime's cuBLAS sgemm -> one kernel per remaining linalg
// op (scf.parallel -> gpu.launch -> outlined gpu.func) -> NVVM -> PTX for
// sm_90, embedded as gpu.binary -> host code calling the runtime's mgpu*
// functions. Public functions get the prefix `gpu_`, so the CPU and the GPU
// versions of a model link into one executable. Registered as
// `modelc-gpu-lowering`; see docs/gpu.md. Its passes are declared in
// modelc/Transforms/GPU/Passes.h.
//
//===----------------------------------------------------------------------===//
#ifndef MODELC_PIPELINES_GPUPIPELINE_H
#define MODELC_PIPELINES_GPUPIPELINE_H

#include "mlir/Pass/PassManager.h"

#include <memory>
#include <string>

namespace modelc {

/// The last stage the GPU pipeline runs.
enum class GpuStage {
  Kernels, ///< host functions launching outlined gpu.func kernels.
  LLVM,    ///< the LLVM dialect with the PTX embedded as gpu.binary.
};

/// Options of the GPU lowering pipeline.
struct GpuPipelineOptions {
  /// The GPU architecture of the PTX (the driver JIT-compiles it for the
  /// device; it runs on this architecture and newer ones).
  std::string chip = "sm_90";
  /// PTX ISA features; sm_90 needs PTX 8.0 or later.
  std::string features = "+ptx80";
  /// Threads per block of the generated kernels.
  int64_t blockSize = 256;
  /// Prefix of the public functions (`gpu_train_step`, ...).
  std::string symbolPrefix = "gpu_";
  /// The last stage to run.
  GpuStage stopAfter = GpuStage::LLVM;
  /// Run only the stages after `Kernels` (the module already went through
  /// the pipeline with stopAfter = Kernels).
  bool resumeAfterKernels = false;
  /// The emulation's products call the GPU's functions (kCudaSgemmName...).
  bool emulateCudaProducts = false;
  /// The convolutions call cuDNN (modelrt_cuda_conv2d_*, `--gpu-conv=cudnn`);
  /// otherwise they become im2col + the products (`--gpu-conv=im2col`).
  bool cudnnConvolutions = true;
};

/// The runtime functions the GPU pipeline calls for matrix products (and
/// the convolutions' im2col products), by the module's precision
/// (cblas_sgemm's signature, device pointers;
/// runtime/include/modelrt/cuda/GpuAbi.h): f32, bf16 and TF32 operands.
inline constexpr const char *kCudaSgemmName = "modelrt_cuda_sgemm";
inline constexpr const char *kCudaGemmBf16Name = "modelrt_cuda_gemm_bf16";
inline constexpr const char *kCudaGemmTf32Name = "modelrt_cuda_gemm_tf32";

/// The functions products call (cblas_sgemm's signature) in a module of
/// each precision (modelc-matmul-to-blas's options; an empty tf32: f32's).
struct GemmCallees {
  std::string f32, bf16, tf32;
};

/// Appends the passes from linalg on memrefs to one `gpu.launch` per op:
/// matrix products as calls to \p gemm's functions, scalar work in
/// one-iteration loops, loops collapsed, tiled and mapped. Shared by the GPU
/// pipeline and its CPU emulation.
void addLaunchStage(mlir::OpPassManager &pm, const GpuPipelineOptions &options,
                    const GemmCallees &gemm);

/// Appends the GPU lowering pipeline to `pm` (anchored on builtin.module).
void buildGpuLoweringPipeline(mlir::OpPassManager &pm,
                              const GpuPipelineOptions &options);

/// Appends the GPU pipeline up to the launches, then runs the launches as
/// loops on the CPU (modelc-gpu-emulate-launches): the CPU pipeline's LLVM
/// stage (CpuPipelineOptions::resumeAfterKernels) finishes the module. For
/// tests of the GPU kernels' code on machines without a GPU. The products
/// call the CPU's functions (cblas_sgemm, modelrt_gemm_bf16; tf32 as f32),
/// or with `emulateCudaProducts` the GPU's (the runtime's cuBLAS layer on
/// host memory: the fake driver's), the convolutions then cuDNN's unless
/// `cudnnConvolutions` is off.
void buildGpuEmulationPipeline(mlir::OpPassManager &pm,
                               const GpuPipelineOptions &options);

/// Registers the `modelc-gpu-lowering` pipeline and the GPU passes
/// (compiler/include/modelc/Transforms/GPU/Passes.td).
void registerGpuPipelines();

/// Adds what the GPU pipeline and the translation of its output need: the
/// NVVM target, the GPU/NVVM to LLVM IR translations.
void registerGpuPipelineDependencies(mlir::DialectRegistry &registry);

} // namespace modelc

#endif // MODELC_PIPELINES_GPUPIPELINE_H
