#!/usr/bin/env bash
# scripts/gpu-bundle.sh — one folder to carry to the GPU machine.
#
#   scripts/gpu-bundle.sh OUT_DIR        (run here, from any folder)
#
# Uses the lead's build (build/bin/modelc; BUILD=DIR or MODELC=... to
# choose another) to compile examples/fashion_mnist/{mlp,cnn}.model and bench/compare/mlp.model
# (the issue's 784-256-128-10 benchmark MLP) into OUT_DIR/{mlp,cnn,benchmlp},
# the last two also with --precision=bf16 and tf32 (OUT_DIR/cnn-bf16, ...),
# the CNN also with --gpu-conv=im2col (OUT_DIR/cnn-im2col),
# and copies BUILD/bin/modelrt-optimizer-kernel-check (the optimizer
# kernels' check) and BUILD/bin/CudaGpuCheck (the runtime's CUDA layer
# against the real driver and cuBLAS; a warning when the build lacks one);
# copies the shared libraries those executables need that the GPU machine
# lacks (OpenBLAS and gfortran's, gzip-compressed into OUT_DIR/lib; the
# check unpacks them), the 4 Fashion-MNIST files into OUT_DIR/data,
# scripts/gpu-check.sh and bench/gpu/*.py, *.sh (with bench/compare/tfevents.py).
# Fails when the folder exceeds 64 MiB (the device tool's carry limit).
# Then, on the GPU machine:
#   OUT_DIR/scripts/gpu-check.sh OUT_DIR OUT_DIR/data RESULTS_DIR
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
MODELC=${MODELC:-$BUILD/bin/modelc}
FMNIST=${FMNIST:-/usr/share/datasets/fashion-mnist}
LIMIT=$((64 * 1024 * 1024))
[ -x "$MODELC" ] || { echo "$0: no compiler at $MODELC (build it, or set MODELC)" >&2; exit 1; }

mkdir -p "$1"
OUT=$(cd "$1" && pwd)
mkdir -p "$OUT/data" "$OUT/lib" "$OUT/scripts" "$OUT/bench/gpu" "$OUT/bench/compare"

echo "compiling models with $MODELC"
"$MODELC" "$ROOT/examples/fashion_mnist/mlp.model" -o "$OUT/mlp"
"$MODELC" "$ROOT/examples/fashion_mnist/cnn.model" -o "$OUT/cnn"
"$MODELC" "$ROOT/bench/compare/mlp.model" -o "$OUT/benchmlp"
# The CNN's convolutions as im2col + cuBLAS products, timed beside cuDNN's.
"$MODELC" --gpu-conv=im2col "$ROOT/examples/fashion_mnist/cnn.model" -o "$OUT/cnn-im2col"
# bench/gpu/bf16.sh's: the CNN and the benchmark MLP in the GPU's other
# precisions (PRECISIONS="" leaves them out).
for p in ${PRECISIONS-bf16 tf32}; do
  "$MODELC" --precision="$p" "$ROOT/examples/fashion_mnist/cnn.model" -o "$OUT/cnn-$p"
  "$MODELC" --precision="$p" "$ROOT/bench/compare/mlp.model" -o "$OUT/benchmlp-$p"
done

for tool in modelrt-optimizer-kernel-check CudaGpuCheck; do
  check=$BUILD/bin/$tool
  if [ -x "$check" ]; then
    cp "$check" "$OUT/"
  else
    echo "warning: no $check (build the target $tool):" \
      "gpu-check.sh will report its check as failed" >&2
  fi
done

# Libraries outside the C/C++ base system (libc, libm, libstdc++, libgcc_s,
# zlib are expected on the GPU machine): OpenBLAS, which the executables
# open at start-up (runtime/include/modelrt/core/Blas.h), and what it pulls in.
blas=$(ldconfig -p | awk '/libopenblas\.so\.0 / {print $NF; exit}')
if [ -z "$blas" ]; then
  echo "$0: libopenblas.so.0 not found (install libopenblas0)" >&2
  exit 1
fi
for lib in "$blas" $(ldd "$blas" "$OUT/mlp" "$OUT/cnn" | awk '/=> \// {print $3}' | sort -u); do
  case "$(basename "$lib")" in
  libopenblas*|libgfortran*|libquadmath*|libblas*|liblapack*)
    gzip -c -6 "$lib" >"$OUT/lib/$(basename "$lib").gz" ;;
  esac
done

for f in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz \
  t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
  cp "$FMNIST/$f" "$OUT/data/$f"
done
cp "$ROOT/scripts/gpu-check.sh" "$OUT/scripts/"
cp "$ROOT"/bench/gpu/*.py "$ROOT"/bench/gpu/*.sh "$OUT/bench/gpu/"
cp "$ROOT/bench/compare/tfevents.py" "$OUT/bench/compare/"

size=$(du -sb "$OUT" | awk '{print $1}')
echo "bundle: $OUT, $((size / 1024 / 1024)) MiB ($size bytes)"
ls -la "$OUT" "$OUT/lib"
if [ "$size" -gt "$LIMIT" ]; then
  echo "$0: the bundle is over 64 MiB" >&2
  exit 1
fi
echo "on the GPU machine: $(basename "$OUT")/scripts/gpu-check.sh $(basename "$OUT") $(basename "$OUT")/data RESULTS_DIR"
