#!/usr/bin/env bash
# bench/gpu/bf16.sh — modelc's f32, tf32 and bf16 GPU training beside PyTorch's, on a GPU.
#
#   bench/gpu/bf16.sh BUNDLE_DIR DATA_DIR OUT_DIR
#
# BUNDLE_DIR: what scripts/gpu-bundle.sh made here (it compiles the CNN and
# the benchmark MLP also with --precision=bf16 and tf32, as cnn-bf16,
# cnn-tf32, benchmlp-bf16, benchmlp-tf32, and copies this script to
# BUNDLE_DIR/bench/gpu); nothing is built on the GPU machine. Trains one
# epoch of the CNN (examples/fashion_mnist/cnn.model) at batch 512 and of
# the benchmark MLP (bench/compare/mlp.model) at batch 64 with --device cuda
# in each precision, then PyTorch's same models (torch_gpu.py: eager f32 with
# TF32 off, eager with TF32 on, eager under torch.autocast bf16; python3 with
# torch on the GPU machine), and prints samples/s side by side
# (precision_table.py) and each modelc run's last progress line (its loss).
# Every log goes to OUT_DIR. Uses the bundle's libraries as gpu-check.sh.
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 BUNDLE_DIR DATA_DIR OUT_DIR" >&2
  exit 2
fi
BUNDLE=$(cd "$1" && pwd) || exit 2
DATA=$(cd "$2" && pwd) || exit 2
mkdir -p "$3" && OUT=$(cd "$3" && pwd) || exit 2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PYTHON=${PYTHON:-python3}
. "$HERE/bundle-libs.sh"
useBundleLibs "$BUNDLE" "$OUT"

: >"$OUT/modelc.jsonl"
for run in "cnn 512" "benchmlp 64"; do
  set -- $run
  model=$1 batch=$2
  for p in f32 tf32 bf16; do
    exe="$BUNDLE/$model-$p"
    [ "$p" = f32 ] && exe="$BUNDLE/$model"
    dir="$OUT/$model-b$batch-$p"
    mkdir -p "$dir"
    "$exe" train --epochs 1 --batch "$batch" --device cuda --out "$dir" --log-every 10 \
      --data-dir "$DATA" >"$dir/train.log" 2>&1
    echo "$model batch $batch $p: exit $?; $(grep -a ' loss' "$dir/train.log" | tail -1)"
    "$PYTHON" "$HERE/modelc_figures.py" train --model "$model" --batch "$batch" \
      --log "$dir/train.log" --log-dir "$dir" --variant "$p" >>"$OUT/modelc.jsonl"
  done
done
: >"$OUT/torch.jsonl"
"$PYTHON" "$HERE/torch_gpu.py" --data "$DATA" --models cnn --batches 512 \
  --modes f32,tf32,autocast >>"$OUT/torch.jsonl"
"$PYTHON" "$HERE/torch_gpu.py" --data "$DATA" --models benchmlp --batches 64 \
  --modes f32,tf32,autocast >>"$OUT/torch.jsonl"
"$PYTHON" "$HERE/precision_table.py" "$OUT/modelc.jsonl" "$OUT/torch.jsonl" | tee "$OUT/table.md"
