#!/usr/bin/env python3
"""Compares `NAME eval` output with a row of the training run's metrics.csv.

wf_check_eval.py EVAL_OUTPUT METRICS.csv [--epoch N]

EVAL_OUTPUT holds the line `eval on FILE (N samples): loss L accuracy A`
(6 decimals); METRICS.csv's row for epoch N (default: the last row) holds
val_loss and val_accuracy to 9 significant digits. They must agree to the
printed precision (|difference| <= 6e-7). Prints both; exits 1 on mismatch.
"""
import argparse
import csv
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("eval_output")
    ap.add_argument("metrics")
    ap.add_argument("--epoch", type=int, default=None)
    a = ap.parse_args()
    text = open(a.eval_output).read()
    m = re.search(r"^eval on .* \((\d+) samples\): loss (\S+) accuracy (\S+)$", text, re.M)
    if not m:
        sys.exit("FAIL: no eval line in %s:\n%s" % (a.eval_output, text))
    loss, acc = float(m.group(2)), float(m.group(3))
    with open(a.metrics) as f:
        rows = list(csv.DictReader(f))
    row = rows[-1] if a.epoch is None else next(
        (r for r in rows if int(r["epoch"]) == a.epoch), None)
    if row is None:
        sys.exit("FAIL: no epoch %s in %s" % (a.epoch, a.metrics))
    want_loss, want_acc = float(row["val_loss"]), float(row["val_accuracy"])
    print("epoch %s: eval loss %.6f accuracy %.6f, metrics.csv val_loss %.9g val_accuracy %.9g"
          % (row["epoch"], loss, acc, want_loss, want_acc))
    if abs(loss - want_loss) > 6e-7 or abs(acc - want_acc) > 6e-7:
        sys.exit("FAIL: eval differs from the training run's validation metrics")
    print("eval matches")


if __name__ == "__main__":
    main()
