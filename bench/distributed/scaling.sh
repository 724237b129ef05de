#!/usr/bin/env bash
# bench/distributed/scaling.sh — data parallelism on this machine: the
# Fashion-MNIST CNN and MLP (examples/fashion_mnist, dropout removed so
# that every run takes the same steps) trained for one epoch on 3,000
# images, as 1 rank x 1 thread, 1 rank x 2 threads and 2 ranks x 1 thread
# (mpirun, each rank bound to a core; the 1-thread rank bound to core 0 with
# taskset, since --threads sets only the data loader's threads and the
# products use every core the process may run on), the three interleaved, REPEATS
# times each (default 3), keeping each one's best: the machine may be
# shared, and other load only ever lowers a rate. Prints the training
# throughput (samples/s, the mean of steps.csv's rows after the first 10
# steps), the ratio 2 ranks x 1 thread / 1 rank x 2 threads, the gradient
# bytes each rank sends per step and the load average, then the scaling
# model of docs/distributed.md from those measurements (model.py).
# Usage: [REPEATS=N] bench/distributed/scaling.sh [BUILD_DIR]   (default ./build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none
echo "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}; $(nproc) cores: $(lscpu | sed -n 's/^Model name: *//p')"
python3 "$root/test/e2e/Inputs/subset_idx.py" "$work" --train 3000 --test 500 > /dev/null

# Samples per second over the steps after the 10th (steps.csv, one row per
# 10 steps).
best() { python3 -c 'import sys; print(max(sys.argv[1:], key=float))' "$@"; }
rate() { python3 -c 'import csv,sys; r=[float(x["samples_per_s"]) for x in csv.DictReader(open(sys.argv[1]))][1:]; print("%.0f" % (sum(r)/len(r)))' "$1/steps.csv"; }

for m in cnn mlp; do
  sed -e '/^ *|> dropout(/d' -e 's/ |> dropout([0-9.]*)//g' \
    -e "s#^\\( *root *= *\\)\"[^\"]*\"#\\1\"$work\"#" \
    "$root/examples/fashion_mnist/$m.model" > "$work/$m.model"
  "$build/bin/modelc" "$work/$m.model" -o "$work/$m"
  args=(train --epochs 1 --device cpu --log-every 10)
  one=0 two=0 dist=0
  for ((i = 0; i < ${REPEATS:-3}; ++i)); do
    rm -rf "$work/$m-1x1" "$work/$m-1x2" "$work/$m-2x1"
    taskset -c 0 "$work/$m" "${args[@]}" --threads 1 --checkpoint-dir "$work/$m-1x1" > /dev/null
    "$work/$m" "${args[@]}" --threads 2 --checkpoint-dir "$work/$m-1x2" > /dev/null
    mpirun -np 2 --bind-to core --map-by core "$work/$m" "${args[@]}" --threads 1 \
      --checkpoint-dir "$work/$m-2x1" > /dev/null
    one=$(best "$one" "$(rate "$work/$m-1x1")"); two=$(best "$two" "$(rate "$work/$m-1x2")")
    dist=$(best "$dist" "$(rate "$work/$m-2x1")")
    echo "  $m run $((i + 1)): 1x1 $(rate "$work/$m-1x1"), 1x2 $(rate "$work/$m-1x2")," \
         "2x1 $(rate "$work/$m-2x1") samples/s; load $(cut -d' ' -f1 /proc/loadavg)"
  done
  batch=$(sed -n 's/.*batch *= *\([0-9]*\).*/\1/p' "$work/$m.model")
  bytes=$(python3 -c 'import json,struct,sys
b=open(sys.argv[1],"rb").read(); n=struct.unpack("<Q",b[:8])[0]; h=json.loads(b[8:8+n])
print(sum(v["data_offsets"][1]-v["data_offsets"][0] for k,v in h.items() if k.startswith("param/")))' \
    "$work/$m-1x1/last.safetensors")
  echo "$m: batch $batch; 1x1 $one/s; 1 rank x 2 threads $two/s; 2 ranks x 1 thread $dist/s;" \
       "ratio $(python3 -c "print('%.2f' % ($dist / $two))"); gradient bytes per step $bytes"
  python3 "$root/bench/distributed/model.py" --name "$m" --bytes "$bytes" \
    --step-seconds "$(python3 -c "print($batch / $two)")" --batch "$batch"
done
