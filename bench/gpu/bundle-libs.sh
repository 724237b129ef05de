# bench/gpu/bundle-libs.sh — sourced by scripts/gpu-check.sh and the
# bench/gpu scripts on the GPU machine. useBundleLibs BUNDLE_DIR OUT_DIR:
#   - unpacks the libraries scripts/gpu-bundle.sh compressed into
#     BUNDLE_DIR/lib (OpenBLAS, gfortran's), which the compiled models need,
#     into OUT_DIR/lib and puts that folder first on LD_LIBRARY_PATH;
#   - cuBLAS and cuDNN: the runtime opens libcublas.so.13 and libcudnn.so.9
#     (then /usr/local/cuda/lib64). A machine whose library lives elsewhere
#     (a Python package's nvidia/cu13/lib or nvidia/cudnn/lib, say) gets
#     that folder on LD_LIBRARY_PATH, the libraries beside it (cuBLASLt,
#     cuDNN's engines) included.
useBundleLibs() {
  if compgen -G "$1/lib/*.gz" >/dev/null; then
    mkdir -p "$2/lib"
    for f in "$1"/lib/*.gz; do
      gzip -dc "$f" >"$2/lib/$(basename "$f" .gz)"
    done
    export LD_LIBRARY_PATH="$2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  [ -n "${MODELRT_CUBLAS:-}" ] || findGpuLibrary libcublas.so.13 cuBLAS
  [ -n "${MODELRT_CUDNN:-}" ] || findGpuLibrary libcudnn.so.9 cuDNN
}

# findGpuLibrary FILE NAME: puts the folder of FILE on LD_LIBRARY_PATH when
# neither the loader nor /usr/local/cuda/lib64 has it.
findGpuLibrary() {
  if ldconfig -p 2>/dev/null | grep -q "${1//./\\.} " || [ -e "/usr/local/cuda/lib64/$1" ]; then
    return
  fi
  local found
  found=$(find /usr/local /opt /usr/lib -maxdepth 9 -name "$1" 2>/dev/null | head -n 1)
  if [ -n "$found" ]; then
    echo "note: $2 found at $found"
    export LD_LIBRARY_PATH="$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  else
    echo "note: no $1 found on this machine"
  fi
}
