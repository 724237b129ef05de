#!/usr/bin/env bash
# bench/gpu/charlm.sh — the char-LM on the GPU machine: modelc against PyTorch.
#
#   bench/gpu/charlm.sh BUNDLE OUT          (on the GPU machine)
#
# BUNDLE (made here; nothing on the GPU machine compiles):
#   bin/charlm-new    examples/charlm/charlm.model compiled by this tree
#                     (attention in the fused GPU kernels)
#   bin/charlm-old    optional: the same model compiled by an older modelc
#   bin/CudaGpuCheck  build/bin/CudaGpuCheck (checks the kernels against the
#                     CPU's and times them)
#   lib/              shared libraries the GPU machine lacks (libopenblas,
#                     libgfortran, libquadmath, libpng16, libjpeg, libgomp)
#   data/fortunes.txt the text the models were compiled with
#                     (examples/charlm/prepare.sh data/fortunes.txt 2000000)
# Writes OUT/check.txt, OUT/train-*.log, OUT/profile-new.txt and
# OUT/torch.jsonl (bench/gpu/charlm_gpu.py: eager, SDPA, torch.compile).
# Each step has a timeout; a failing step is reported and the rest goes on.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 BUNDLE OUT" >&2
  exit 2
fi
B=$(cd "$1" && pwd)
mkdir -p "$2" && OUT=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$B/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
lscpu | grep -E "Model name|^CPU\(s\)" | tee -a "$OUT/gpu.txt"
echo "== CudaGpuCheck"
timeout 120 "$B/bin/CudaGpuCheck" 2>&1 | tee "$OUT/check.txt"
cd "$B/data" || exit 1
for batch in 32 128; do
  for v in new old; do
    [ -x "$B/bin/charlm-$v" ] || continue
    echo "== charlm-$v batch $batch"
    /usr/bin/time -f "wall %e s" timeout 150 "$B/bin/charlm-$v" train --device cuda --epochs 1 \
      --batch "$batch" --data-dir "$B/data" --log-every 10 --out "$OUT/ck-$v-$batch" \
      > "$OUT/train-$v-$batch.log" 2>&1
    echo "rc=$?"
    tail -3 "$OUT/train-$v-$batch.log"
  done
done
echo "== profile (new, batch 32)"
timeout 100 "$B/bin/charlm-new" train --device cuda --epochs 1 --batch 32 --data-dir "$B/data" \
  --profile --out "$OUT/ck-prof" > "$OUT/profile-new.txt" 2>&1
tail -45 "$OUT/profile-new.txt"
echo "== pytorch"
timeout 300 python3 "$HERE/charlm_gpu.py" --text "$B/data/fortunes.txt" --batches 32,128 \
  --steps 200 --out "$OUT/torch.jsonl" 2>&1 | tail -12
