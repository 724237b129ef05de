#!/usr/bin/env bash
# bench/bf16/speed.sh — training speed of the Fashion-MNIST SimpleCNN and
# MLP on the first 6400 training images, one epoch each: modelc f32 and
# bf16 (executables from train.sh's OUTDIR, run with --data-dir on the
# subset) alternated twice, then PyTorch f32 and torch.autocast bf16
# (bench/compare/torch_models.py, 2 threads). Prints each run's epoch line
# and PyTorch's JSON. A measurement, not a test.
# Usage: bench/bf16/speed.sh OUTDIR   (after bench/bf16/train.sh EPOCHS OUTDIR)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
sub="$out/subset"
[ -d "$sub" ] || /usr/bin/python3 "$root/test/docs/Inputs/fmnist_subset.py" \
  /usr/share/datasets/fashion-mnist "$sub" --train 6400 --test 1000
for model in cnn mlp; do
  for round in 1 2; do
    for precision in f32 bf16; do
      echo "== $model $precision (round $round)"
      "$out/${model}_$precision" train --epochs 1 --data-dir "$sub" \
        --checkpoint-dir "$out/speed_ck" 2>&1 | grep -E "^epoch 1 [0-9]+/[0-9]+ .* in " || true
    done
  done
done
for flag in "" --autocast; do
  echo "== pytorch cnn ${flag:-f32}"
  /usr/bin/python3 "$root/bench/compare/torch_models.py" --model cnn --train-images 6400 \
    --test-images 1000 --eval-repeats 1 --batch1-images 10 $flag | \
    /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read().strip().splitlines()[-1]); print({k: r[k] for k in r if "train" in k or "samples" in k or k == "autocast"})'
done
