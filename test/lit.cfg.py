# test/lit.cfg.py — lit configuration for the compiler's regression tests.
# Tests are .model sources and .mlir files checked with FileCheck.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "modelc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".model", ".mlir", ".test"]
config.excludes = ["Unit", "Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.modelc_obj_root, "test")

config.substitutions.append(("%stdlib", config.modelc_stdlib_dir))
config.substitutions.append(("%srcroot", config.modelc_src_root))
config.substitutions.append(("%examples", os.path.join(config.modelc_src_root, "examples")))
# The runtime archive, for tests that link generated objects themselves
# (generated code allocates from the runtime's buffer pool).
config.substitutions.append(("%modelrt", os.path.join(config.modelc_obj_root, "lib", "libmodelrt.a")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Our own tools come first on PATH.
llvm_config.with_environment("PATH", config.modelc_tools_dir, append_path=True)
tool_dirs = [config.modelc_tools_dir, config.llvm_tools_dir]
tools = ["modelc", "modelc-opt", "FileCheck", "not", "count"]
llvm_config.add_tool_substitutions(
    [t for t in tools if os.path.exists(os.path.join(config.modelc_tools_dir, t))
     or t in ("FileCheck", "not", "count")], tool_dirs)

# CUDA's PTX assembler (a fixed project dependency: CUDA 13 at
# /usr/local/cuda, or MODELC_CUDA_ROOT): the GPU tests check that every
# generated kernel assembles for sm_90. No fallback: a missing ptxas fails
# those tests instead of skipping them.
cuda_root = os.environ.get("MODELC_CUDA_ROOT", "/usr/local/cuda")
config.substitutions.append(("%ptxas", os.path.join(cuda_root, "bin", "ptxas")))

# The fake libcuda + cuBLAS over host memory (test/runtime/cuda), built when
# the CUDA headers are there: compiled models' GPU host code runs on it.
fake_cuda = os.path.join(config.modelc_obj_root, "test", "Unit", "lib", "libFakeCudaDriver.so")
config.substitutions.append(("%fakecuda", fake_cuda))
# Its fake libnccl (shared memory between the ranks of one machine).
config.substitutions.append(("%fakenccl", os.path.join(
    config.modelc_obj_root, "test", "Unit", "lib", "libFakeNccl.so")))
config.substitutions.append(("%modelc_bindir", config.modelc_tools_dir))
if os.path.exists(fake_cuda):
    config.available_features.add("fake-cuda")

# MLIR's C runner utilities (printF32, ...) for mlir-runner tests.
config.substitutions.append(("%mlir_c_runner_utils", os.path.join(
    os.path.dirname(config.llvm_tools_dir), "lib", "libmlir_c_runner_utils.so")))

# ONNX Runtime from npm (onnxruntime-node), installed by scripts/setup.sh
# into third_party/onnxruntime: the ONNX export tests run exported models
# with it. No fallback: when it is missing those tests fail.
config.substitutions.append(("%ort_modules", os.path.join(
    config.modelc_src_root, "third_party", "onnxruntime", "node_modules")))

# Open MPI's launcher for the data-parallel tests (test/e2e/distributed-*):
# `%mpirun N prog ...` runs N ranks on this machine, more ranks than cores
# allowed, as root in containers, idle ranks yielding the CPU. scripts/setup.sh
# installs openmpi-bin; no fallback: without mpirun those tests fail.
config.substitutions.append(("%mpirun", "mpirun --oversubscribe -np"))
for name, value in {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                    "OMPI_MCA_rmaps_base_oversubscribe": "1",
                    "OMPI_MCA_mpi_yield_when_idle": "1",
                    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
                    "OMPI_MCA_btl": "self,vader"}.items():
    config.environment[name] = value
