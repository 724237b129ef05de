#!/usr/bin/env bash
# bench/lsp/run.sh [MODELC] [RUNS] — the language server's re-analysis after a
# keystroke (`modelc lsp --bench`) on every example, RUNS keystrokes each
# (default 200), printed one line per example.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
modelc="${1:-$root/build/bin/modelc}"
runs="${2:-200}"
for f in "$root"/examples/*/*.model; do
  (cd "$(dirname "$f")" && "$modelc" lsp --bench "$(basename "$f")" --bench-runs "$runs")
done
