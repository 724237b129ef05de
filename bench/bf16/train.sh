#!/usr/bin/env bash
# bench/bf16/train.sh — f32 vs bf16 training of the Fashion-MNIST MLP and
# SimpleCNN (examples/fashion_mnist), compiled from the same file with
# --precision=f32 and --precision=bf16 (--no-gpu), each run for EPOCHS
# epochs (default 3) with the example's settings: prints each run's last
# epoch line (samples/s) and its test accuracy, plus the CPU and the bf16
# path (--profile's summary). Extra environment (MODELRT_BF16=avx512_bf16
# to measure without AMX) passes through. A measurement, not a test.
# Usage: bench/bf16/train.sh [EPOCHS] [OUTDIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
epochs=${1:-3}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
for model in mlp cnn; do
  for precision in f32 bf16; do
    exe="$out/${model}_$precision"
    "$root/build/bin/modelc" --no-gpu --precision=$precision \
      "$root/examples/fashion_mnist/$model.model" -o "$exe"
    log="$out/${model}_$precision.log"
    "$exe" train --epochs "$epochs" --checkpoint-dir "$out/ck_${model}_$precision" \
      --profile > "$log" 2>&1
    echo "== $model $precision"
    grep -E "^epoch $epochs " "$log" | tail -1 || true
    grep -iE "accuracy|bf16 products|matrix products|profile: CPU" "$log" | tail -5
    "$exe" eval --checkpoint "$out/ck_${model}_$precision/last.safetensors" 2>&1 | tail -2
  done
done
