# bench/gpu/bundle-libs.sh — sourced by scripts/gpu-check.sh and the
# bench/gpu scripts on the GPU machine. useBundleLibs BUNDLE_DIR OUT_DIR:
#   - unpacks the libraries scripts/gpu-bundle.sh compressed into
#     BUNDLE_DIR/lib (OpenBLAS, gfortran's), which the compiled models need,
#     into OUT_DIR/lib and puts that folder first on LD_LIBRARY_PATH;
#   - cuBLAS: the runtime opens libcublas.so.13 (then /usr/local/cuda/lib64).
#     A machine whose cuBLAS lives elsewhere (a Python package's
#     nvidia/cu13/lib, say) gets that folder on LD_LIBRARY_PATH, cuBLASLt
#     beside it included.
useBundleLibs() {
  if compgen -G "$1/lib/*.gz" >/dev/null; then
    mkdir -p "$2/lib"
    for f in "$1"/lib/*.gz; do
      gzip -dc "$f" >"$2/lib/$(basename "$f" .gz)"
    done
    export LD_LIBRARY_PATH="$2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  if [ -z "${MODELRT_CUBLAS:-}" ] && ! ldconfig -p 2>/dev/null | grep -q 'libcublas\.so\.13 ' &&
    [ ! -e /usr/local/cuda/lib64/libcublas.so.13 ]; then
    local found
    found=$(find /usr/local /opt /usr/lib -maxdepth 9 -name 'libcublas.so.13' 2>/dev/null | head -n 1)
    if [ -n "$found" ]; then
      echo "note: cuBLAS found at $found"
      export LD_LIBRARY_PATH="$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    else
      echo "note: no libcublas.so.13 found on this machine"
    fi
  fi
}
