#!/usr/bin/env bash
# bench/gpu/splitk.sh — split-K's slice count measured on the CNN, on a GPU.
#
#   bench/gpu/splitk.sh BUNDLE_DIR DATA_DIR OUT_DIR [SLICES...]
#
# BUNDLE_DIR: what scripts/gpu-bundle.sh made (it copies this script to
# BUNDLE_DIR/bench/gpu). Trains the CNN (one epoch, batch 64 and 512) with
# each MODELRT_SPLITK_SLICES (default: 0 64 1024; the runtime's default, 256,
# is the run without the variable), times PyTorch on the same GPU
# (torch_gpu.py, cnn only) and prints the comparison table (compare.py):
# one row per setting. Then one epoch at batch 512 with --profile, whose
# kernel table gives the split products' device time (each product's
# slices and sum under one "cuBLAS sgemm MxNxK" label). Uses the bundle's
# libraries as gpu-check.sh does.
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 BUNDLE_DIR DATA_DIR OUT_DIR [SLICES...]" >&2
  exit 2
fi
BUNDLE=$(cd "$1" && pwd) || exit 2
DATA=$(cd "$2" && pwd) || exit 2
mkdir -p "$3" && OUT=$(cd "$3" && pwd) || exit 2
shift 3
SETTINGS=${*:-"0 64 1024"}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PYTHON=${PYTHON:-python3}
. "$HERE/bundle-libs.sh"
useBundleLibs "$BUNDLE" "$OUT"
: >"$OUT/modelc.jsonl"
for b in 64 512; do
  for s in default $SETTINGS; do
    dir="$OUT/cnn-b$b-$s"
    mkdir -p "$dir"
    if [ "$s" = default ]; then
      env -u MODELRT_SPLITK_SLICES "$BUNDLE/cnn" train --epochs 1 --batch "$b" --device cuda \
        --out "$dir" --log-every 10 --data-dir "$DATA" >"$dir/train.log" 2>&1
    else
      MODELRT_SPLITK_SLICES=$s "$BUNDLE/cnn" train --epochs 1 --batch "$b" --device cuda \
        --out "$dir" --log-every 10 --data-dir "$DATA" >"$dir/train.log" 2>&1
    fi
    echo "cnn batch $b slices $s: exit $?"
    variant=()
    [ "$s" = default ] || variant=(--variant "splitk $s")
    "$PYTHON" "$HERE/modelc_figures.py" train --model cnn --batch "$b" --log "$dir/train.log" \
      --log-dir "$dir" ${variant[@]+"${variant[@]}"} >>"$OUT/modelc.jsonl"
  done
done
"$PYTHON" "$HERE/torch_gpu.py" --data "$DATA" --models cnn --batches 64,512 >"$OUT/torch.jsonl"
"$PYTHON" "$HERE/compare.py" "$OUT/modelc.jsonl" "$OUT/torch.jsonl" | tee "$OUT/compare.md"
"$BUNDLE/cnn" train --epochs 1 --batch 512 --device cuda --out "$OUT/profile" --profile \
  --data-dir "$DATA" >"$OUT/profile.log" 2>&1
grep -A 12 '^profile: kernels' "$OUT/profile.log"
