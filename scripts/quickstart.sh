#!/usr/bin/env bash
# scripts/quickstart.sh — the one command that sets up a fresh Debian 12
# machine, builds modelc, compiles examples/fashion_mnist/mlp.model and trains
# it on Fashion-MNIST (from Debian's dataset-fashion-mnist package).
# Extra arguments are passed to `./mlp train` (e.g. --epochs 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MODELC_BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

model="$root/examples/fashion_mnist/mlp.model"
exe="$build/examples/mlp"
mkdir -p "$build/examples"
echo "quickstart: compiling $model"
"$build/bin/modelc" "$model" -o "$exe"
# A new run each time (train refuses to replace an earlier run's checkpoints
# without --overwrite), unless the arguments continue one with --resume.
fresh=(--overwrite)
for arg in "$@"; do
  case "$arg" in --resume|--resume=*|--overwrite) fresh=() ;; esac
done
echo "quickstart: training ($exe train ${fresh[*]} $*)"
cd "$build/examples"
"$exe" train "${fresh[@]}" "$@"
