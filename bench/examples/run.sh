#!/usr/bin/env bash
# bench/examples/run.sh — trains every example on its full data set and
# prints a markdown table for examples/README.md (a measurement, not a test).
#
#   bench/examples/run.sh [--epochs N] [--modelc PATH] [--work DIR] [EXAMPLE...]
#
# EXAMPLE is a path under examples/ without .model (fashion_mnist/mlp,
# resnet/resnet_small); by default every examples/*/*.model. Each one is
# compiled with modelc (default: build/bin/modelc), trained for N epochs
# (default 1) with `train --epochs N --device cpu`, and reported with its
# data, the epochs, the final metric from the last row of metrics.csv
# (val_accuracy when the model has it, else val_loss) and the wall time per
# epoch (training plus the per-epoch validation pass); the data column is
# the validation file and its size from `eval` of the final checkpoint.
# An example folder
# with a make_*.py script and no data/ folder gets its data generated first
# (resnet: make_shapes.py, 10,000 + 2,000 synthetic images). Logs and
# checkpoints go to --work (default: a fresh temporary directory).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
epochs=1
modelc="$root/build/bin/modelc"
work=""
py=${PYTHON:-/usr/bin/python3}   # needs numpy for make_shapes.py
examples=()
while [ $# -gt 0 ]; do
  case "$1" in
    --epochs) epochs="$2"; shift 2 ;;
    --modelc) modelc="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) examples+=("$1"); shift ;;
  esac
done
case "$epochs" in ''|*[!0-9]*|0) echo "run.sh: --epochs needs a positive integer" >&2; exit 2 ;; esac
[ -x "$modelc" ] || { echo "run.sh: no modelc at $modelc (build it, or pass --modelc)" >&2; exit 1; }
if [ ${#examples[@]} -eq 0 ]; then
  for f in "$root"/examples/*/*.model; do
    rel=${f#"$root/examples/"}; examples+=("${rel%.model}")
  done
fi
[ -n "$work" ] || work=$(mktemp -d /tmp/bench-examples.XXXXXX)
mkdir -p "$work"

# Generates an example's data with its make_*.py when it has no data/ yet,
# and NAME.csv with its prepare_NAME.py (tabular, regression) when missing.
prepare() {
  local dir="$1" gen name
  for gen in "$dir"/make_*.py; do
    [ -f "$gen" ] || continue
    [ -d "$dir/data" ] && continue
    echo "== generating data: $gen" >&2
    "$py" "$gen" >&2
  done
  for gen in "$dir"/prepare_*.py; do
    [ -f "$gen" ] || continue
    name=$(basename "$gen" .py); name=${name#prepare_}
    [ -f "$dir/$name.csv" ] && continue
    echo "== preparing data: $gen" >&2
    "$py" "$gen" "$dir/$name.csv" >&2
  done
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "Machine: $(nproc) cores, $cpu; load average at start:" \
  "$(cut -d' ' -f1-3 /proc/loadavg); OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset};" \
  "$(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| example | data | epochs | final metric | time per epoch |"
echo "| --- | --- | --- | --- | --- |"
for ex in "${examples[@]}"; do
  src="$root/examples/$ex.model"
  if [ ! -f "$src" ]; then echo "run.sh: no example $src" >&2; exit 1; fi
  prepare "$(dirname "$src")"
  name=$(echo "$ex" | tr '/' '_')
  out="$work/$name"; rm -rf "$out"; mkdir -p "$out"
  echo "== $ex: compiling" >&2
  "$modelc" "$src" -o "$out/exe" >"$out/compile.log" 2>&1 ||
    { echo "| $ex | | $epochs | compile failed (see $out/compile.log) | |"; continue; }
  echo "== $ex: training $epochs epoch(s)" >&2
  start=$(date +%s.%N)
  if ! "$out/exe" train --epochs "$epochs" --device cpu --checkpoint-dir "$out/ck" \
      >"$out/train.log" 2>&1; then
    echo "| $ex | | $epochs | training failed (see $out/train.log) | |"
    continue
  fi
  end=$(date +%s.%N)
  # The eval line names the validation file and its size:
  # "eval on FILE (N samples): loss L accuracy A".
  "$out/exe" eval --device cpu --checkpoint "$out/ck/last.safetensors" >"$out/eval.txt" 2>&1 ||
    { echo "| $ex | | $epochs | eval failed (see $out/eval.txt) | |"; continue; }
  "$py" - "$out/ck/metrics.csv" "$ex" "$out/eval.txt" "$epochs" "$start" "$end" <<'PY'
import csv, os, re, sys
path, ex, evalf, epochs, start, end = sys.argv[1:]
m = re.search(r"eval on (\S+) \((\d+) samples\)", open(evalf).read())
data = "%s (%s val samples)" % (os.path.basename(m.group(1)), m.group(2)) if m else "?"
row = list(csv.DictReader(open(path)))[-1]
if "val_accuracy" in row:
    metric = "val accuracy %.4f" % float(row["val_accuracy"])
elif "val_loss" in row:
    metric = "val loss %.4f" % float(row["val_loss"])
else:
    metric = "train loss %.4f" % float(row["train_loss"])
per = (float(end) - float(start)) / int(epochs)
print("| %s | %s | %s | %s | %.0f s |" % (ex, data, epochs, metric, per))
PY
done
echo
echo "(work files: $work)" >&2
