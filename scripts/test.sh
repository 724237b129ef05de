#!/usr/bin/env bash
# scripts/test.sh — the one command that sets up a fresh Debian 12 machine,
# builds modelc and runs every test (lit regression tests + unit tests).
# `.ci/run` calls this and nothing else.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MODELC_BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

log="$build/check.log"
set +e
ninja -C "$build" check 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# One plain closing line that any CI reader understands.
passed=$(awk -F: '/^ *Passed *:/ {split($2, a, " "); s += a[1]} END {print s + 0}' "$log")
failed=$(awk -F: '/^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ {split($2, a, " "); s += a[1]} END {print s + 0}' "$log")
[ -n "$passed" ] || passed=0
[ -n "$failed" ] || failed=0
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "check: $passed passed, $failed failed"
exit "$status"
