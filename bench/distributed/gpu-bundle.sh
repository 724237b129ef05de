#!/usr/bin/env bash
# bench/distributed/gpu-bundle.sh OUT_DIR — one folder to carry to the GPU
# machine for data-parallel runs there: the Fashion-MNIST MLP and CNN
# without dropout, 5,000/1,000 images, OpenBLAS, libpng, libjpeg and libgomp
# (the GPU machine lacks them),
# Debian's Open MPI 4.1.4 as a tar (the GPU machine has none; gpu-run.sh
# unpacks it and points OPAL_PREFIX at it), and gpu-run.sh as OUT_DIR/run.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$1
mkdir -p "$B/lib" "$B/data"
python3 "$root/test/e2e/Inputs/subset_idx.py" "$B/data" --train 5000 --test 1000 > /dev/null
for m in mlp cnn; do
  sed -e '/^ *|> dropout(/d' -e 's/ |> dropout([0-9.]*)//g' \
    "$root/examples/fashion_mnist/$m.model" > "$B/$m.model"
  "${MODELC:-$root/build/bin/modelc}" "$B/$m.model" -o "$B/$m"
done
blas=$(ldconfig -p | awk '/libopenblas\.so\.0 / && !found {print $NF; found = 1}')
for lib in "$blas" $(ldd "$blas" "$B/mlp" | awk '/=> \// {print $3}'); do
  case "$(basename "$lib")" in
  libopenblas*|libgfortran*|libquadmath*|libpng*|libjpeg*|libgomp*)
    gzip -c -6 "$lib" > "$B/lib/$(basename "$lib").gz" ;;
  esac
done
for p in openmpi-bin libopenmpi3 openmpi-common libpmix2 libhwloc15 libhwloc-plugins \
  libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libucx0 libpsm2-2 libpsm-infinipath1 \
  libibverbs1 libnl-3-200 libnl-route-3-200 librdmacm1 libefa1 libxnvctrl0; do
  { dpkg -L "$p" 2>/dev/null || true; } | while read -r f; do
    if [ -f "$f" ] || [ -L "$f" ]; then echo "${f#/}"; fi
  done
done | grep -v 'usr/share/doc\|usr/share/man\|lintian\|jvm\|java' > "$B/openmpi.files"
tar -czf "$B/openmpi.tar.gz" -C / -T "$B/openmpi.files" etc/openmpi
cp "$root/bench/distributed/gpu-run.sh" "$B/run.sh"
du -sh "$B"
