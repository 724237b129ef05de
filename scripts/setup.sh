#!/usr/bin/env bash
# scripts/setup.sh — installs every Debian package modelc needs to build,
# test and run its examples, and the editor extension's npm packages.
# Idempotent: what is already present is skipped, so a second run costs one
# dpkg query.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache git pkg-config
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  libclang-rt-22-dev
  libopenblas-dev libdnnl2 libdnnl-dev zlib1g-dev libpng-dev libjpeg-dev libgtest-dev
  python3 python3-numpy python3-torch python3-sklearn python3-pil
  dataset-fashion-mnist
  fortunes  # /usr/share/games/fortunes: the text of the language-model example
  # ONNX export: protobuf and onnx.proto (python3-onnx) to write models,
  # the ONNX checker to test them.
  libprotobuf-dev protobuf-compiler python3-onnx
  openmpi-bin  # mpirun and libmpi.so.40 (libopenmpi3), which data-parallel runs load at run time
)

# CUDA 13 is not a Debian package: the project expects its toolkit at
# /usr/local/cuda (MODELC_CUDA_ROOT), for cuda.h, nvcc and ptxas (building
# the runtime's CUDA layer and optimizer kernels, and the tests that assemble
# the generated PTX). No GPU is needed.
CUDA_ROOT=${MODELC_CUDA_ROOT:-/usr/local/cuda}
for f in include/cuda.h bin/nvcc bin/ptxas; do
  if [ ! -e "$CUDA_ROOT/$f" ]; then
    echo "setup: error: the CUDA 13 toolkit is missing ($CUDA_ROOT/$f not found);" \
         "install it at $CUDA_ROOT or set MODELC_CUDA_ROOT" >&2
    exit 1
  fi
done

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node.js and npm, for the editor extension (editors/vscode) and its grammar
# test: Debian's, unless a node and npm are already installed.
if ! command -v npm > /dev/null; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  echo "setup: done"
fi

# The editor extension's npm packages (vscode-languageclient; the grammar
# test's vscode-tmgrammar-test; @vscode/vsce to package it), as its
# package-lock.json pins them; skipped when already installed.
root=$(cd "$(dirname "$0")/.." && pwd)
vscode="$root/editors/vscode"
if [ ! -f "$vscode/node_modules/.package-lock.json" ] ||
   [ "$vscode/package-lock.json" -nt "$vscode/node_modules/.package-lock.json" ]; then
  echo "setup: npm ci in editors/vscode"
  npm ci --prefix "$vscode" --no-audit --no-fund
fi

# ONNX Runtime, which the ONNX export tests compare against: the npm package
# onnxruntime-node carries the Linux x64 libonnxruntime.so.1. Installed into
# third_party/onnxruntime (git-ignored); --ignore-scripts skips its install
# script, which only downloads the optional CUDA provider.
ORT_VERSION=1.30.0
ORT_DIR="$root/third_party/onnxruntime"
if [ ! -f "$ORT_DIR/node_modules/onnxruntime-node/package.json" ] ||
   ! grep -q "\"version\": \"$ORT_VERSION\"" \
     "$ORT_DIR/node_modules/onnxruntime-node/package.json"; then
  echo "setup: installing onnxruntime-node $ORT_VERSION into $ORT_DIR"
  mkdir -p "$ORT_DIR"
  npm install --prefix "$ORT_DIR" --no-audit --no-fund --no-save \
    --ignore-scripts "onnxruntime-node@$ORT_VERSION" >/dev/null
fi
