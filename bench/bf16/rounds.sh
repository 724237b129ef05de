#!/usr/bin/env bash
# bench/bf16/rounds.sh — a before/after comparison of compiled models: each
# executable trains one epoch on DATA with --profile, the executables
# alternated, ROUNDS times. Per run, one line: the round, the executable,
# its last epoch line, the kernel count and time, then each kernel whose
# name matches PATTERN (an extended regex) as "ms name". A measurement, not
# a test; take medians over the rounds.
# Usage: bench/bf16/rounds.sh DATA ROUNDS PATTERN EXE...
#   e.g. bench/bf16/rounds.sh subset 5 'train_step.*(conv2d|max_pool2d)\.' ./cnn_base ./cnn_new
set -euo pipefail
[ $# -ge 4 ] || { sed -n '8,9p' "$0" >&2; exit 2; }
data=$1 rounds=$2 pattern=$3
shift 3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for round in $(seq 1 "$rounds"); do
  for exe in "$@"; do
    log="$scratch/log"
    "$exe" train --epochs 1 --data-dir "$data" --checkpoint-dir "$scratch/ck" --profile \
      >"$log" 2>&1 || { echo "$exe failed:" >&2; tail -5 "$log" >&2; exit 1; }
    rm -rf "$scratch/ck"
    epoch=$(grep -E '^epoch [0-9]+ [0-9]+/[0-9]+ .* in ' "$log" | tail -1)
    total=$(sed -nE 's/^profile: kernels \(([0-9]+), ([0-9.]+) ms.*/kernels \1 \2 ms/p' "$log")
    kernels=$(awk -v p="$pattern" '$NF ~ p || $0 ~ p { for (i = 1; i <= NF; ++i) if ($i ~ p) { printf "%s %s | ", $1, $i; break } }' "$log")
    echo "$round $(basename "$exe") $epoch $total | $kernels"
  done
done
