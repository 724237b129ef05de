#!/usr/bin/env bash
# bench/distributed/gpu-check.sh — on a GPU machine, from the repository
# root: the device check of the gradients' sums through NCCL
# (runtime/lib/cuda/Nccl.h), with one rank, against the NCCL of the pip
# wheels (nvidia-nccl-cu13, which PyTorch brings:
# site-packages/nvidia/nccl/lib/libnccl.so.2) or MODELRT_NCCL if set.
#
#   bench/distributed/gpu-check.sh [NCCL_CHECK]
#
# NCCL_CHECK: the NcclGpuCheck binary built here (default
# build/bin/NcclGpuCheck; carry it to the device machine). Runs it once
# with NCCL (the ABI as Nccl.h declares it, the communicator, weighted sums
# against hand-worked values, the time of a 25 MiB sum), once with
# MODELRT_NCCL=none and once with a missing library (both must say why and
# exit 2: the trainer then stages through pinned host memory). Exit status:
# 0 when all three behave, 1 otherwise. Needs no MPI (one rank).
set -u
CHECK=${1:-build/bin/NcclGpuCheck}
PYTHON=${PYTHON:-python3}
if [ -z "${MODELRT_NCCL:-}" ]; then
  MODELRT_NCCL=$("$PYTHON" - <<'PY' 2>/dev/null
import glob, site, sys
dirs = site.getsitepackages() + [site.getusersitepackages()] + sys.path
for d in dirs:
    for f in glob.glob(d + "/nvidia/nccl/lib/libnccl.so.2"):
        print(f)
        raise SystemExit
PY
)
fi
if [ -z "${MODELRT_NCCL:-}" ]; then
  echo "no libnccl.so.2 from the nvidia-nccl-cu13 wheel found; set MODELRT_NCCL=PATH" >&2
  exit 1
fi
export MODELRT_NCCL
echo "MODELRT_NCCL=$MODELRT_NCCL"
nvidia-smi -L 2>&1 | head -2
fails=0
"$CHECK" || fails=$((fails + 1))
for lib in none /nonexistent/libnccl.so.2; do
  out=$(MODELRT_NCCL=$lib "$CHECK" --no-timing)
  rc=$?
  echo "MODELRT_NCCL=$lib: exit $rc: $out"
  [ "$rc" -eq 2 ] || fails=$((fails + 1))
done
echo "gpu-check: $fails failure(s)"
[ "$fails" -eq 0 ]
