# runtime/cuda-kernels.cmake — the runtime's CUDA kernels, built into modelrt.
#
# Compiles runtime/lib/cuda/OptimizerKernels.cu (and BlasKernels.cu,
# AttentionKernels.cu and ConvertKernels.cu, the same way, behind
# `modelrt_blas_ptx()`, `modelrt_attention_ptx()` and `modelrt_convert_ptx()`)
# to PTX for compute_90 with nvcc (no GPU needed), assembles that PTX with `ptxas -arch=sm_90` as a
# build step (proof that it is valid sm_90 code; the cubin is not used),
# and embeds the PTX text in libmodelrt as a C array behind
# `modelrt_optimizer_ptx()` (modelrt/cuda/OptimizerKernels.h). No libcudart.
# The CUDA 13 toolkit at /usr/local/cuda is a fixed project decision.
set(MODELRT_CUDA_ROOT /usr/local/cuda CACHE PATH "CUDA 13 toolkit (nvcc, ptxas)")
find_program(MODELRT_NVCC nvcc PATHS ${MODELRT_CUDA_ROOT}/bin NO_DEFAULT_PATH)
find_program(MODELRT_PTXAS ptxas PATHS ${MODELRT_CUDA_ROOT}/bin NO_DEFAULT_PATH)
if(NOT MODELRT_NVCC OR NOT MODELRT_PTXAS)
  message(FATAL_ERROR
    "modelrt: nvcc and ptxas of the CUDA 13 toolkit were not found in "
    "${MODELRT_CUDA_ROOT}/bin (needed to build the optimizer kernels' PTX; "
    "no GPU is needed). Install the CUDA 13 toolkit there, or pass "
    "-DMODELRT_CUDA_ROOT=<toolkit dir>.")
endif()

# modelrt_embed_kernels(NAME SYMBOL HEADERS...): runtime/lib/cuda/NAME.cu ->
# PTX -> (ptxas check) -> a C array behind SYMBOL(), a source of modelrt.
# -fmad=false: no fused multiply-adds, so that each optimizer element's
# update rounds exactly as the CPU loop's (IEEE division and sqrt are nvcc's
# default).
function(modelrt_embed_kernels name symbol)
  set(src ${CMAKE_CURRENT_SOURCE_DIR}/lib/cuda/${name}.cu)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/cuda)
  set(ptx ${dir}/${name}.ptx)
  set(cubin ${dir}/${name}.sm_90.cubin)
  set(cpp ${dir}/${name}Ptx.cpp)
  add_custom_command(OUTPUT ${ptx}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${MODELRT_NVCC} -std=c++17 -O3 -fmad=false -arch=compute_90 -ptx
            -I${CMAKE_CURRENT_SOURCE_DIR}/include ${src} -o ${ptx}
    DEPENDS ${src} ${ARGN}
    COMMENT "nvcc: ${name}.cu -> PTX (compute_90)" VERBATIM)
  add_custom_command(OUTPUT ${cubin}
    COMMAND ${MODELRT_PTXAS} -arch=sm_90 ${ptx} -o ${cubin}
    DEPENDS ${ptx}
    COMMENT "ptxas: checking ${name}'s PTX assembles for sm_90" VERBATIM)
  add_custom_command(OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${ptx} -DOUTPUT=${cpp} -DSYMBOL=${symbol}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/lib/cuda/EmbedPtx.cmake
    DEPENDS ${ptx} ${cubin} ${CMAKE_CURRENT_SOURCE_DIR}/lib/cuda/EmbedPtx.cmake
    COMMENT "Embedding ${name}'s PTX in modelrt" VERBATIM)
  target_sources(modelrt PRIVATE ${cpp})
endfunction()

modelrt_embed_kernels(OptimizerKernels modelrt_optimizer_ptx
  ${CMAKE_CURRENT_SOURCE_DIR}/include/modelrt/train/OptimizerMath.h
  ${CMAKE_CURRENT_SOURCE_DIR}/include/modelrt/cuda/OptimizerKernels.h)
modelrt_embed_kernels(BlasKernels modelrt_blas_ptx
  ${CMAKE_CURRENT_SOURCE_DIR}/include/modelrt/cuda/BlasKernels.h)
modelrt_embed_kernels(AttentionKernels modelrt_attention_ptx
  ${CMAKE_CURRENT_SOURCE_DIR}/include/modelrt/cuda/AttentionKernels.h)
modelrt_embed_kernels(ConvertKernels modelrt_convert_ptx
  ${CMAKE_CURRENT_SOURCE_DIR}/include/modelrt/cuda/ConvertKernels.h)

# The check of the kernels on a real GPU against the CPU runtime (run by
# scripts/gpu-check.sh; dlopens libcuda.so.1, so it builds without CUDA).
add_executable(modelrt-optimizer-kernel-check
  ${PROJECT_SOURCE_DIR}/bench/gpu/OptimizerKernelCheck.cpp)
target_link_libraries(modelrt-optimizer-kernel-check PRIVATE modelrt ${CMAKE_DL_LIBS})
target_compile_options(modelrt-optimizer-kernel-check PRIVATE -Wall -Wextra)
set_target_properties(modelrt-optimizer-kernel-check PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
