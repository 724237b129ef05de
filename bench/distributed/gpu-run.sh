#!/usr/bin/env bash
# bench/distributed/gpu-run.sh — on the GPU machine, from the repository
# root, with OUT set: BUNDLE/run.sh (copied there by gpu-bundle.sh) trains
# the MLP and the CNN of the bundle for one epoch on 1, 2 and 3 ranks
# sharing the GPU (--device cuda, MODELRT_NCCL=none: the gradients through
# pinned host memory and MPI)
# and compares their loss curves (test/e2e/Inputs/compare_runs.py). Uses
# the machine's mpirun, else the bundle's Open MPI (CARRIED=1 forces it).
set -u
B=$(cd "$(dirname "$0")" && pwd)
DEV=${DEV:-cuda}
mkdir -p "$B/libs" "$OUT/logs"
for f in "$B"/lib/*.gz; do gunzip -c "$f" > "$B/libs/$(basename "$f" .gz)"; done
if [ -z "${CARRIED:-}" ] && command -v mpirun > /dev/null; then
  MPIRUN=mpirun; echo "mpirun: $(command -v mpirun)"
else
  mkdir -p /tmp/ompi && tar -xzf "$B/openmpi.tar.gz" -C /tmp/ompi
  export OPAL_PREFIX=/tmp/ompi/usr PATH=/tmp/ompi/usr/bin:$PATH
  export LD_LIBRARY_PATH=/tmp/ompi/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  export MODELC_LIBMPI=/tmp/ompi/usr/lib/x86_64-linux-gnu/libmpi.so.40
  MPIRUN=/tmp/ompi/usr/bin/orterun; echo "mpirun: carried Open MPI 4.1.4"
fi
export LD_LIBRARY_PATH=$B/libs:${LD_LIBRARY_PATH:-}
# The ranks share one GPU, which NCCL refuses: their sums go through the host.
export MODELRT_NCCL=none
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
nvidia-smi -L 2>&1 | head -2; nproc; ldconfig -p | grep -c nccl
$MPIRUN --version | head -1
for m in mlp cnn; do
  a=(train --epochs 1 --device "$DEV" --log-every 1 --data-dir "$B/data")
  "$B/$m" "${a[@]}" --checkpoint-dir "$OUT/$m-1" > "$OUT/logs/$m-1.log" 2>&1 || echo "$m 1 rank failed"
  for n in 2 3; do
    timeout 300 $MPIRUN --oversubscribe -np $n "$B/$m" "${a[@]}" --checkpoint-dir "$OUT/$m-$n" \
      > "$OUT/logs/$m-$n.log" 2>&1 || echo "$m $n ranks failed"
  done
  for n in 1 3; do tail -n 2 "$OUT/logs/$m-$n.log"; done
  python3 test/e2e/Inputs/compare_runs.py "$OUT/$m-1" "$OUT/$m-2" "$OUT/$m-3" --steps 20 \
    --rtol 1e-5 --accuracy-points 0.3
done
rm -f "$OUT"/*/*.safetensors
