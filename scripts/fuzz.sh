#!/usr/bin/env bash
# scripts/fuzz.sh [MINUTES] [TARGET] — fuzzes the modelc front end or the
# runtime's data readers.
#
# TARGET (default parser): parser (the lexer and parser,
# modelc-parser-fuzzer), idx, npy, png, safetensors, csv (the runtime
# readers, modelrt-TARGET-fuzzer), or all (each of them for MINUTES).
# Configures build-fuzz/ with clang-22 and -DMODELC_ENABLE_FUZZERS=ON (the
# fuzzed code is compiled with ASan + libFuzzer coverage), builds the
# target(s) and runs each for MINUTES (default 10) with a per-input timeout,
# leak detection and a 2 GiB memory limit (a reader that allocates what a
# header claims without checking it fails). Seeds: examples/**/*.model and
# stdlib/*.model for the parser; the test inputs of each format for the
# readers (the PNG and safetensors seeds are generated). Crashing inputs
# land in build-fuzz/fuzz-artifacts/TARGET/. Exit status: non-zero when a
# fuzzer found a crash, hang or leak.
set -euo pipefail

MINUTES="${1:-10}"
TARGET="${2:-parser}"
TARGETS="parser idx npy png safetensors csv"
usage() {
  echo "usage: scripts/fuzz.sh [MINUTES] [parser|idx|npy|png|safetensors|csv|all]" >&2
  exit 1
}
[[ "$MINUTES" =~ ^[0-9]+([.][0-9]+)?$ ]] || usage
if [ "$TARGET" = all ]; then
  RUN="$TARGETS"
elif [[ " $TARGETS " == *" $TARGET "* ]]; then
  RUN="$TARGET"
else
  usage
fi
SECONDS_TOTAL=$(awk "BEGIN { print int($MINUTES * 60) }")
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$ROOT/build-fuzz"

binary() { [ "$1" = parser ] && echo modelc-parser-fuzzer || echo "modelrt-$1-fuzzer"; }

if [ ! -f "$BUILD/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMODELC_ENABLE_FUZZERS=ON >/dev/null
fi
bins=()
for t in $RUN; do bins+=("$(binary "$t")"); done
ninja -C "$BUILD" -j2 "${bins[@]}"

# Copies (or writes) the seed inputs of target $1 into directory $2.
seeds() {
  case "$1" in
  parser) find "$ROOT/examples" "$ROOT/stdlib" -name '*.model' -exec cp {} "$2/" \; ;;
  idx) find "$ROOT/test" -name '*.idx' -o -name '*.idx.gz' | while read -r f; do
         case "$f" in *.gz) gzip -dc "$f" >"$2/$(basename "$f" .gz)" ;; *) cp "$f" "$2/" ;; esac
       done ;;
  npy) find "$ROOT/test" -name '*.npy' -exec cp {} "$2/" \; ;;
  csv) find "$ROOT/test" "$ROOT/examples" -name '*.csv' -size -64k -exec cp {} "$2/" \; ;;
  png | safetensors) python3 - "$1" "$2" <<'PY' ;;
import json, struct, sys, zlib
kind, out = sys.argv[1], sys.argv[2]
if kind == "png":
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    for w, h, ctype, ch in [(2, 2, 0, 1), (3, 2, 2, 3), (2, 3, 4, 2), (1, 1, 6, 4)]:
        raw = b"".join(bytes([y % 5]) + bytes((x * 7 + y) % 256 for x in range(w * ch))
                       for y in range(h))
        ihdr = struct.pack(">IIBBBBB", w, h, 8, ctype, 0, 0, 0)
        png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
               chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
        open(f"{out}/seed-{w}x{h}-{ctype}.png", "wb").write(png)
else:
    header = {"__metadata__": {"model": "m"},
              "param/w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
              "state/n": {"dtype": "I64", "shape": [1], "data_offsets": [16, 24]}}
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    data = struct.pack("<4f", 1, -2, 0.5, 3) + struct.pack("<q", 7)
    open(f"{out}/seed.safetensors", "wb").write(struct.pack("<Q", len(text)) + text + data)
PY
  esac
}

overall=0
for t in $RUN; do
  SEEDS="$BUILD/fuzz-seeds/$t"
  CORPUS="$BUILD/fuzz-corpus/$t"
  ARTIFACTS="$BUILD/fuzz-artifacts/$t"
  mkdir -p "$SEEDS" "$CORPUS" "$ARTIFACTS"
  seeds "$t" "$SEEDS"
  LOG="$BUILD/fuzz-$t.log"
  set +e
  "$BUILD/bin/$(binary "$t")" "$CORPUS" "$SEEDS" \
    -max_total_time="$SECONDS_TOTAL" -timeout=10 -detect_leaks=1 \
    -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$ARTIFACTS/" >"$LOG" 2>&1
  status=$?
  set -e
  grep -E 'pulse|DONE|ERROR|SUMMARY' "$LOG" | tail -n 20 || true
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$LOG" | grep -o '[0-9]*$' || echo "?")
  echo "fuzz $t: ${execs} executions in ${MINUTES} minute(s); exit status ${status}"
  if [ "$status" -ne 0 ]; then
    echo "fuzz $t: FOUND A PROBLEM; inputs in $ARTIFACTS, full log in $LOG"
    overall=$status
  fi
done
exit "$overall"
