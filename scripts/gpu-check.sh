#!/usr/bin/env bash
# scripts/gpu-check.sh — the GPU machine's one prepared check and benchmark.
#
#   scripts/gpu-check.sh BUNDLE_DIR DATA_DIR OUT_DIR
#
# BUNDLE_DIR: what scripts/gpu-bundle.sh made here (compiled models mlp, cnn
# and, if present, benchmlp and cnn-im2col; modelrt-optimizer-kernel-check; lib/*.gz shared
# libraries they need; this script; bench/gpu/*.py). DATA_DIR: the 4 Fashion-MNIST .gz files.
# OUT_DIR: created; gets every log, OUT/modelc.jsonl, OUT/torch.jsonl and
# OUT/summary.txt. Uses only binaries built elsewhere, nvidia-smi and the
# machine's python3 with PyTorch (PYTHON=... to choose another).
#
# Sections: a. device (nvidia-smi, NET info); b. correctness (the optimizer
# kernels against the CPU runtime: modelrt-optimizer-kernel-check; NET
# check-device, also without CUDA graphs: MODELRT_CUDA_GRAPHS=0); c. modelc
# training, one epoch on the GPU per model and batch (64, 512), with and
# without CUDA graphs (variant no-graphs), and eval images/s at batch 1000;
# d. checkpoints across devices (the MLP's GPU checkpoint evaluated on both
# devices and resumed on the CPU, a CPU checkpoint resumed on the GPU);
# e. PyTorch eager and torch.compile on the same GPU (bench/gpu/torch_gpu.py);
# f. the comparison table (bench/gpu/compare.py); g. each model's slowest
# kernels by device time (one more epoch, with --profile). A failing step is
# recorded and the script goes on; the exit status is 1 if any failed.
# Every step has a timeout; the whole run keeps to GPU_CHECK_BUDGET seconds
# (default 450) as far as the timeouts allow. Other settings (environment):
# GPU_CHECK_BATCHES (default "64 512"); GPU_CHECK_DEVICE (default cuda; cpu
# runs the same steps on the CPU, a dry run of this script on a machine
# without a GPU); GPU_CHECK_TORCH_ARGS (extra torch_gpu.py options, e.g.
# --quick).
set -u

if [ $# -ne 3 ]; then
  echo "usage: $0 BUNDLE_DIR DATA_DIR OUT_DIR" >&2
  exit 2
fi
BUNDLE=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: no bundle folder '$1'" >&2; exit 2; }
DATA=$(cd "$2" 2>/dev/null && pwd) || { echo "$0: no data folder '$2'" >&2; exit 2; }
mkdir -p "$3" || { echo "$0: cannot create '$3'" >&2; exit 2; }
OUT=$(cd "$3" && pwd)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH="$HERE/../bench/gpu"
PYTHON=${PYTHON:-python3}
BUDGET=${GPU_CHECK_BUDGET:-450}
BATCHES=${GPU_CHECK_BATCHES:-"64 512"}
DEVICE=${GPU_CHECK_DEVICE:-cuda}
read -r -a TORCH_ARGS <<<"${GPU_CHECK_TORCH_ARGS:-}"
STATUS=()   # "ok|FAIL  step" lines, in order
FAILS=0

section() { printf '\n==================== %s ====================\n' "$*"; }

# record NAME RC: notes a step's result.
record() {
  if [ "$2" -eq 0 ]; then
    STATUS+=("ok    $1")
  else
    STATUS+=("FAIL  $1 (exit $2)")
    FAILS=$((FAILS + 1))
  fi
}

# step NAME TIMEOUT LOG CMD...: runs CMD under a timeout, output to the
# terminal and LOG, and records its status (124: timed out).
step() {
  local name=$1 limit=$2 log=$3 rc
  shift 3
  echo "+ $*"
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  [ "$rc" -eq 124 ] && echo "!! $name: timed out after ${limit}s"
  record "$name" "$rc"
  return "$rc"
}

# left RESERVE MAX: seconds of the budget left after RESERVE, within [20, MAX].
left() {
  local l=$((BUDGET - SECONDS - $1))
  [ "$l" -gt "$2" ] && l=$2
  [ "$l" -lt 20 ] && l=20
  echo "$l"
}

# The compiled models' libraries (OpenBLAS, gfortran's; the bundle carries
# them compressed) and cuBLAS's and cuDNN's folders on LD_LIBRARY_PATH.
. "$BENCH/bundle-libs.sh"
useBundleLibs "$BUNDLE" "$OUT"

# MODELS: what is timed; TORCH_MODELS: those PyTorch also trains (not the
# CNN with its convolutions as im2col, timed beside cuDNN's).
MODELS=()
TORCH_MODELS=()
for m in mlp benchmlp cnn cnn-im2col; do
  [ -x "$BUNDLE/$m" ] || continue
  MODELS+=("$m")
  [ "$m" = cnn-im2col ] || TORCH_MODELS+=("$m")
done
[ ${#MODELS[@]} -eq 0 ] && { echo "$0: no compiled model (mlp, cnn) in $BUNDLE" >&2; exit 2; }

# dataArgs NET COMMAND: sets DARGS to the option naming the data folder when
# NET COMMAND has one (--data-dir); otherwise the models read
# /usr/share/datasets/fashion-mnist (their `root`), linked to DATA_DIR below.
DARGS=()
dataArgs() {
  DARGS=()
  if "$BUNDLE/$1" "$2" --help 2>&1 | grep -q -- '--data-dir'; then
    DARGS=(--data-dir "$DATA")
  fi
}
FMNIST=/usr/share/datasets/fashion-mnist
if ! "$BUNDLE/${MODELS[0]}" train --help 2>&1 | grep -q -- '--data-dir' &&
  [ ! -e "$FMNIST/train-images-idx3-ubyte.gz" ]; then
  echo "note: '${MODELS[0]} train' has no --data-dir option; linking $FMNIST -> $DATA"
  mkdir -p "$(dirname "$FMNIST")" 2>/dev/null && ln -sfn "$DATA" "$FMNIST" ||
    echo "note: cannot create $FMNIST: the models will not find their data"
fi

section "a. device"
step "nvidia-smi" 30 "$OUT/nvidia-smi.log" nvidia-smi
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit \
  --format=csv 2>&1 | tee -a "$OUT/nvidia-smi.log"
{
  echo "host: $(uname -srm); $(grep -m1 PRETTY_NAME /etc/os-release 2>/dev/null)"
  echo "nproc: $(nproc)"
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  ldconfig -p 2>/dev/null | grep -E 'libcuda\.so|libcublas(Lt)?\.so|libcudnn\.so' || echo "(ldconfig: no libcuda/libcublas/libcudnn)"
  ls /usr/local/cuda/lib64/libcublas* /usr/local/cuda/lib64/libcudnn.so* 2>/dev/null || echo "(no /usr/local/cuda/lib64/libcublas* or libcudnn*)"
  command -v nvcc >/dev/null && nvcc --version | tail -n 2
  "$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1
} 2>&1 | tee "$OUT/host.log"
for m in "${MODELS[@]}"; do
  step "$m info" 30 "$OUT/$m-info.log" "$BUNDLE/$m" info
done

section "b. correctness: CPU against GPU (optimizer kernels, check-device)"
if [ -x "$BUNDLE/CudaGpuCheck" ]; then
  step "runtime CUDA layer (driver, mgpu, sgemm, pool)" 120 "$OUT/cuda-layer.log" \
    "$BUNDLE/CudaGpuCheck"
else
  record "runtime CUDA layer (no CudaGpuCheck in the bundle)" 1
fi
if [ -x "$BUNDLE/modelrt-optimizer-kernel-check" ]; then
  step "optimizer kernels against the CPU" 60 "$OUT/optimizer-kernels.log" \
    "$BUNDLE/modelrt-optimizer-kernel-check"
else
  record "optimizer kernels (no modelrt-optimizer-kernel-check in the bundle)" 1
fi
for m in mlp cnn; do
  [ -x "$BUNDLE/$m" ] || continue
  dataArgs "$m" check-device
  if ! step "$m check-device" "$(left 300 90)" "$OUT/$m-check-device.log" "$BUNDLE/$m" \
    check-device "${DARGS[@]}" && [ "$DEVICE" = cuda ] && command -v compute-sanitizer >/dev/null; then
    # A failure on the GPU: the memory checker names the kernel and address
    # of a bad access (a diagnosis, not a step of its own).
    echo "+ compute-sanitizer $m check-device --steps 1"
    timeout --kill-after=10 "$(left 300 90)" compute-sanitizer --tool memcheck \
      --print-limit 20 "$BUNDLE/$m" check-device --steps 1 "${DARGS[@]}" 2>&1 |
      tail -n 80 | tee "$OUT/$m-sanitizer.log"
  fi
  # The same comparison with eager steps (the default replays CUDA graphs).
  step "$m check-device, no CUDA graphs" "$(left 300 90)" "$OUT/$m-check-device-nographs.log" \
    env MODELRT_CUDA_GRAPHS=0 "$BUNDLE/$m" check-device "${DARGS[@]}"
done

section "c. modelc on the GPU: one epoch per model and batch, with and without CUDA graphs"
: >"$OUT/modelc.jsonl"
for m in "${MODELS[@]}"; do
  for b in $BATCHES; do
    for variant in "" no-graphs; do
      dir="$OUT/modelc/$m-b$b${variant:+-$variant}"
      mkdir -p "$dir"
      dataArgs "$m" train
      step "$m train --batch $b${variant:+ ($variant)}" "$(left 240 120)" "$dir/train.log" \
        env MODELRT_CUDA_GRAPHS="$([ -n "$variant" ] && echo 0 || echo 1)" "$BUNDLE/$m" train \
        --epochs 1 --batch "$b" --device "$DEVICE" --out "$dir" --overwrite --log-every 10 \
        "${DARGS[@]}"
      "$PYTHON" "$BENCH/modelc_figures.py" train --model "$m" --batch "$b" --log "$dir/train.log" \
        --log-dir "$dir" ${variant:+--variant "$variant"} | tee -a "$OUT/modelc.jsonl"
    done
  done
  first=$(echo "$BATCHES" | awk '{print $1}')
  ck="$OUT/modelc/$m-b$first/last.safetensors"
  if [ -f "$ck" ]; then
    dataArgs "$m" eval
    step "$m eval --batch 1000" "$(left 240 60)" "$OUT/modelc/$m-eval.log" "$BUNDLE/$m" eval \
      --checkpoint "$ck" --batch 1000 --device "$DEVICE" --profile "${DARGS[@]}"
    "$PYTHON" "$BENCH/modelc_figures.py" eval --model "$m" --batch 1000 \
      --log "$OUT/modelc/$m-eval.log" | tee -a "$OUT/modelc.jsonl"
  else
    record "$m eval --batch 1000 (no checkpoint from training)" 1
  fi
done

section "d. checkpoints across devices (mlp): written on one, read on the other"
# The GPU's checkpoint from section c evaluates to the same loss on both
# devices, and resumes on the CPU; a CPU checkpoint resumes on the GPU.
first=$(echo "$BATCHES" | awk '{print $1}')
ck="$OUT/modelc/mlp-b$first/last.safetensors"
if [ -x "$BUNDLE/mlp" ] && [ -f "$ck" ] && [ "$DEVICE" = cuda ]; then
  dataArgs mlp eval
  for d in cpu cuda; do
    step "mlp eval of the GPU checkpoint on $d" 60 "$OUT/xdev-eval-$d.log" "$BUNDLE/mlp" eval \
      --checkpoint "$ck" --batch 1000 --device "$d" "${DARGS[@]}"
  done
  "$PYTHON" - "$OUT/xdev-eval-cpu.log" "$OUT/xdev-eval-cuda.log" <<'PY' 2>&1 | tee "$OUT/xdev-eval.log"
import re, sys
vals = []
for path in sys.argv[1:]:
    m = re.search(r"loss ([-0-9.e+naninf]+) accuracy ([0-9.]+)", open(path).read())
    vals.append((float(m.group(1)), float(m.group(2))) if m else None)
print("cpu", vals[0], "cuda", vals[1])
ok = None not in vals and abs(vals[0][0] - vals[1][0]) <= 1e-4 * max(1.0, abs(vals[0][0])) \
    and abs(vals[0][1] - vals[1][1]) <= 2e-4
print("same loss and accuracy on both devices" if ok else "MISMATCH between the devices")
sys.exit(0 if ok else 1)
PY
  record "mlp: GPU checkpoint evaluates alike on CPU and GPU" "${PIPESTATUS[0]}"
  dataArgs mlp train
  step "mlp: GPU checkpoint resumes on the CPU" 90 "$OUT/xdev-resume-cpu.log" "$BUNDLE/mlp" \
    train --resume "$ck" --epochs 2 --batch "$first" --device cpu --out "$OUT/xdev-cpu" \
    --log-every 0 "${DARGS[@]}"
  step "mlp: a CPU checkpoint resumes on the GPU" 90 "$OUT/xdev-resume-cuda.log" "$BUNDLE/mlp" \
    train --resume "$OUT/xdev-cpu/last.safetensors" --epochs 3 --batch "$first" --device cuda \
    --out "$OUT/xdev-cuda" --log-every 0 "${DARGS[@]}"
fi

section "e. PyTorch on the same GPU: eager and torch.compile"
models=$(IFS=,; echo "${TORCH_MODELS[*]}")
step "torch_gpu.py" "$(left 15 400)" "$OUT/torch.jsonl" "$PYTHON" "$BENCH/torch_gpu.py" \
  --data "$DATA" --device "$DEVICE" --models "$models" --batches "${BATCHES// /,}" \
  "${TORCH_ARGS[@]}"

section "f. modelc against PyTorch (samples/s; ratio targets: >= 2 eager, >= 1 compile)"
"$PYTHON" "$BENCH/compare.py" "$OUT/modelc.jsonl" "$OUT/torch.jsonl" | tee "$OUT/compare.md"
record "compare.py" "${PIPESTATUS[0]}"

section "g. where the device time goes (train --profile, batch $first)"
for m in "${MODELS[@]}"; do
  dir="$OUT/modelc/$m-b$first-profile"
  mkdir -p "$dir"
  dataArgs "$m" train
  step "$m train --batch $first --profile" "$(left 10 120)" "$dir/train.log" "$BUNDLE/$m" \
    train --epochs 1 --batch "$first" --device "$DEVICE" --out "$dir" --profile "${DARGS[@]}" \
    >/dev/null
  echo "-- $m"
  grep -A 14 '^profile: kernels' "$dir/train.log"
  grep '^profile: GPU kernels' "$dir/train.log"
done

section "summary (${SECONDS}s)"
printf '%s\n' "${STATUS[@]}" | tee "$OUT/summary.txt"
if [ "$FAILS" -gt 0 ]; then
  echo "$FAILS step(s) failed" | tee -a "$OUT/summary.txt"
  exit 1
fi
echo "all steps passed" | tee -a "$OUT/summary.txt"
