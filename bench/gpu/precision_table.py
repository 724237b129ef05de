#!/usr/bin/env python3
"""bench/gpu/precision_table.py — modelc's precisions beside PyTorch's, as one table.

    precision_table.py FILE.jsonl...

Reads the JSON lines that bench/gpu/bf16.sh collects (compare.readRecords):
modelc training figures whose "variant" is a precision (f32, tf32, bf16:
`modelc --precision=`) and PyTorch's whose "mode" is f32 (eager, TF32 off),
tf32 (eager, TF32 on) or autocast (eager under torch.autocast bfloat16).
Prints a Markdown table, one row per (model, batch):

  model | batch | modelc f32 /s | modelc tf32 /s | modelc bf16 /s |
  torch f32 /s | torch tf32 /s | torch autocast bf16 /s |
  modelc bf16 / modelc f32 | modelc bf16 / torch autocast | modelc tf32 / torch tf32

(`-` where a figure is missing), then every recorded error. Exit status 0
(a benchmark, not a test), 1 when no figure was read.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import fmtRate, readRecords  # noqa: E402

MODELC = ("f32", "tf32", "bf16")
TORCH = ("f32", "tf32", "autocast")
RATIOS = (("modelc", "bf16", "modelc", "f32"), ("modelc", "bf16", "torch", "autocast"),
          ("modelc", "tf32", "torch", "tf32"))


def collect(records):
    """{(model, batch): {(source, precision): samples/s}} and the errors."""
    rows, errors = {}, []
    for rec in records:
        if rec.get("kind") != "train":
            continue
        source = rec["source"]
        precision = rec.get("variant") if source == "modelc" else rec.get("mode")
        if precision not in (MODELC if source == "modelc" else TORCH):
            continue
        if "error" in rec:
            errors.append("%s %s %s batch %s: %s" % (source, precision, rec.get("model", "?"),
                                                     rec.get("batch", "?"), rec["error"]))
        elif "samples_per_s" in rec:
            key = (rec.get("model", "?"), int(rec.get("batch", 0)))
            rows.setdefault(key, {})[(source, precision)] = float(rec["samples_per_s"])
    return rows, errors


def table(rows):
    head = (["model", "batch"] + ["modelc %s /s" % p for p in MODELC] +
            ["torch %s /s" % ("autocast bf16" if p == "autocast" else p) for p in TORCH] +
            ["%s %s / %s %s" % r for r in RATIOS])
    lines = ["| " + " | ".join(head) + " |", "| --- | ---: |" + " ---: |" * (len(head) - 2)]
    for (model, batch), cols in rows.items():
        cells = [model, str(batch)]
        cells += [fmtRate(cols.get(("modelc", p))) for p in MODELC]
        cells += [fmtRate(cols.get(("torch", p))) for p in TORCH]
        for a, pa, b, pb in RATIOS:
            x, y = cols.get((a, pa)), cols.get((b, pb))
            cells.append("%.2fx" % (x / y) if x and y else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main(argv):
    if not argv:
        sys.stderr.write("usage: precision_table.py FILE.jsonl...\n")
        return 2
    try:
        rows, errors = collect(readRecords(argv))
    except OSError as e:
        sys.stderr.write("precision_table.py: %s: %s\n" % (e.filename, e.strerror))
        return 1
    if not rows:
        sys.stderr.write("precision_table.py: no figures in %s\n" % " ".join(argv))
        return 1
    print("\n".join(table(rows)))
    if errors:
        print("\nerrors:")
        for e in errors:
            print("  " + e)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
