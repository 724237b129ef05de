#!/usr/bin/env bash
# bench/numerics/bn_output.sh — batch-norm output error against float64 at
# batch 256 on 28x28x32 maps, modelc's compiled kernel beside PyTorch float32
# (issue 20's target: at most 2x PyTorch's). Needs build/ (scripts/build.sh).
# Writes ~150 MB of cases to a temporary directory; about 20 s on 2 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build="${MODELC_BUILD_DIR:-$here/../../build}"
work=$(mktemp -d "${TMPDIR:-/tmp}/modelc-bn-XXXXXX")
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/bn_output.py" "$work/cases.txt"
"$build/bin/modelc-opt" "$here/bn_output.mlir" --convert-mdl-to-linalg -o "$work/bn.mlir"
"$build/bin/modelc-backend-test" "$work/bn.mlir" --emit=exe --link-arg=-rdynamic \
  --link-arg=-ldl --link-input="$here/../../test/Conversion/Execution/Inputs/runner.cpp" \
  -o "$work/bn.exe"
echo "modelc: $("$work/bn.exe" "$work/cases.txt" | head -n 1)"
