#!/usr/bin/env bash
# scripts/update-tutorial.sh — regenerates the figures of docs/tutorial.md
# from a run: every `<!-- tutorial: run -->` step runs as the tutorial says,
# on the full Fashion-MNIST data (Debian's dataset-fashion-mnist), with the
# modelc of build/ (scripts/build.sh first), and each output block gets the
# lines the run printed (test/docs/Inputs/doccheck.py tutorial --update).
# The docs test (test/docs/tutorial.test) runs the same steps on a subset and
# checks that only figures differ. About two minutes on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MODELC_BUILD_DIR:-$root/build}"
work=$(mktemp -d "${TMPDIR:-/tmp}/modelc-tutorial-XXXXXX")
trap 'rm -rf "$work"' EXIT

test -x "$build/bin/modelc" || { echo "update-tutorial: build modelc first (scripts/build.sh)" >&2; exit 1; }
mkdir -p "$work/repo/build/bin" "$work/repo/examples/fashion_mnist" "$work/home"
ln -s "$build/bin/modelc" "$work/repo/build/bin/modelc"
cp "$root/examples/fashion_mnist/cnn.model" "$root/examples/fashion_mnist/mlp.model" \
   "$work/repo/examples/fashion_mnist/"
/usr/bin/python3 "$root/test/docs/Inputs/doccheck.py" tutorial "$root/docs/tutorial.md" \
  --root "$work/repo" --home "$work/home" --logdir "$work/logs" \
  --update "$work/tutorial.md" > "$work/run.log" || { cat "$work/run.log" >&2; exit 1; }
tail -n 2 "$work/run.log"
cp "$work/tutorial.md" "$root/docs/tutorial.md"
git -C "$root" diff --stat -- docs/tutorial.md
