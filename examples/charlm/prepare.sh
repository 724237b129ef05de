#!/usr/bin/env bash
# examples/charlm/prepare.sh [OUT] [BYTES] — joins the fortune files of
# Debian's `fortunes` package (/usr/share/games/fortunes, without their .dat
# indexes and .u8 links), in name order, into OUT (default fortunes.txt
# beside this script); with BYTES, only the first BYTES bytes, cut at a line
# end. scripts/setup.sh installs the package.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="${1:-$here/fortunes.txt}"
bytes="${2:-0}"
dir=/usr/share/games/fortunes
if [ ! -d "$dir" ]; then
  echo "prepare.sh: $dir is missing: install Debian's 'fortunes' package (scripts/setup.sh does)" >&2
  exit 1
fi
files=$(find "$dir" -maxdepth 1 -type f ! -name '*.dat' ! -name '*.u8' | LC_ALL=C sort)
if [ "$bytes" -gt 0 ]; then
  # shellcheck disable=SC2086
  (cat $files || true) | head -c "$bytes" | sed '$d' > "$out"
else
  # shellcheck disable=SC2086
  cat $files > "$out"
fi
echo "prepare.sh: wrote $out ($(wc -c < "$out") bytes)"
