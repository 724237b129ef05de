#!/usr/bin/env bash
# scripts/fuzz.sh [MINUTES] — fuzzes the modelc lexer and parser.
#
# Configures build-fuzz/ with clang-22 and -DMODELC_ENABLE_FUZZERS=ON (the
# front end is compiled with ASan + libFuzzer coverage), builds
# modelc-parser-fuzzer, and runs it for MINUTES (default 10) with a per-input
# timeout and leak detection. Seeds: examples/**/*.model and stdlib/*.model.
# Crashing inputs land in build-fuzz/fuzz-artifacts/. Exit status is the
# fuzzer's: non-zero when it found a crash, hang or leak.
set -euo pipefail

MINUTES="${1:-10}"
if ! [[ "$MINUTES" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
  echo "usage: scripts/fuzz.sh [MINUTES]" >&2
  exit 1
fi
SECONDS_TOTAL=$(awk "BEGIN { print int($MINUTES * 60) }")
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$ROOT/build-fuzz"

if [ ! -f "$BUILD/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMODELC_ENABLE_FUZZERS=ON >/dev/null
fi
ninja -C "$BUILD" -j2 modelc-parser-fuzzer

SEEDS="$BUILD/fuzz-seeds"
CORPUS="$BUILD/fuzz-corpus"
ARTIFACTS="$BUILD/fuzz-artifacts"
mkdir -p "$SEEDS" "$CORPUS" "$ARTIFACTS"
find "$ROOT/examples" "$ROOT/stdlib" -name '*.model' -exec cp {} "$SEEDS/" \;

LOG="$BUILD/fuzz.log"
set +e
"$BUILD/bin/modelc-parser-fuzzer" "$CORPUS" "$SEEDS" \
  -max_total_time="$SECONDS_TOTAL" -timeout=10 -detect_leaks=1 \
  -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
  -artifact_prefix="$ARTIFACTS/" >"$LOG" 2>&1
status=$?
set -e
grep -E 'pulse|DONE|ERROR|SUMMARY' "$LOG" | tail -n 20 || true

execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$LOG" | grep -o '[0-9]*$' || echo "?")
echo "fuzz: ${execs} executions in ${MINUTES} minute(s); exit status ${status}"
if [ "$status" -ne 0 ]; then
  echo "fuzz: FOUND A PROBLEM; inputs in $ARTIFACTS, full log in $LOG"
fi
exit "$status"
