# runtime/cuda-kernels.cmake — the CUDA optimizer kernels, built into modelrt.
#
# Compiles runtime/lib/Cuda/OptimizerKernels.cu to PTX for compute_90 with
# nvcc (no GPU needed), assembles that PTX with `ptxas -arch=sm_90` as a
# build step (proof that it is valid sm_90 code; the cubin is not used),
# and embeds the PTX text in libmodelrt as a C array behind
# `modelrt_optimizer_ptx()` (modelrt/OptimizerKernels.h). No libcudart.
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

set(_ok_src ${CMAKE_CURRENT_SOURCE_DIR}/lib/Cuda/OptimizerKernels.cu)
set(_ok_dir ${CMAKE_CURRENT_BINARY_DIR}/cuda)
set(_ok_ptx ${_ok_dir}/OptimizerKernels.ptx)
set(_ok_cubin ${_ok_dir}/OptimizerKernels.sm_90.cubin)
set(_ok_cpp ${_ok_dir}/OptimizerKernelsPtx.cpp)
set(_ok_headers
  ${CMAKE_CURRENT_SOURCE_DIR}/include/modelrt/OptimizerMath.h
  ${CMAKE_CURRENT_SOURCE_DIR}/include/modelrt/OptimizerKernels.h)

# -fmad=false: no fused multiply-adds, so that each element's update rounds
# exactly as the CPU loop's (IEEE division and sqrt are nvcc's default).
add_custom_command(OUTPUT ${_ok_ptx}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_ok_dir}
  COMMAND ${MODELRT_NVCC} -std=c++17 -O3 -fmad=false -arch=compute_90 -ptx
          -I${CMAKE_CURRENT_SOURCE_DIR}/include ${_ok_src} -o ${_ok_ptx}
  DEPENDS ${_ok_src} ${_ok_headers}
  COMMENT "nvcc: OptimizerKernels.cu -> PTX (compute_90)" VERBATIM)
add_custom_command(OUTPUT ${_ok_cubin}
  COMMAND ${MODELRT_PTXAS} -arch=sm_90 ${_ok_ptx} -o ${_ok_cubin}
  DEPENDS ${_ok_ptx}
  COMMENT "ptxas: checking the optimizer PTX assembles for sm_90" VERBATIM)
add_custom_command(OUTPUT ${_ok_cpp}
  COMMAND ${CMAKE_COMMAND} -DINPUT=${_ok_ptx} -DOUTPUT=${_ok_cpp}
          -DSYMBOL=modelrt_optimizer_ptx
          -P ${CMAKE_CURRENT_SOURCE_DIR}/lib/Cuda/EmbedPtx.cmake
  DEPENDS ${_ok_ptx} ${_ok_cubin} ${CMAKE_CURRENT_SOURCE_DIR}/lib/Cuda/EmbedPtx.cmake
  COMMENT "Embedding the optimizer PTX in modelrt" VERBATIM)
target_sources(modelrt PRIVATE ${_ok_cpp})

# The check of the kernels on a real GPU against the CPU runtime (run by
# scripts/gpu-check.sh; dlopens libcuda.so.1, so it builds without CUDA).
add_executable(modelrt-optimizer-kernel-check
  ${PROJECT_SOURCE_DIR}/bench/gpu/OptimizerKernelCheck.cpp)
target_link_libraries(modelrt-optimizer-kernel-check PRIVATE modelrt ${CMAKE_DL_LIBS})
target_compile_options(modelrt-optimizer-kernel-check PRIVATE -Wall -Wextra)
set_target_properties(modelrt-optimizer-kernel-check PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
