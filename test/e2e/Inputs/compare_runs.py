#!/usr/bin/env python3
"""Compares the logs of training runs that must agree (data parallelism).

compare_runs.py REF_DIR OTHER_DIR... --steps K --rtol X [--accuracy-points P]
                [--distinct]

Reads each directory's steps.csv (written with --log-every 1, one row per
step) and metrics.csv. Prints, for every OTHER_DIR, the largest relative
difference of the loss over the first K steps against REF_DIR's and, with
--accuracy-points, the difference of the last epoch's val_accuracy in
percentage points. Exits 1 when a directory has fewer than K steps, a loss
differs by more than X relative (or is not finite), or the accuracy by more
than P points; with --distinct, also when a directory's K losses are all
exactly REF_DIR's (runs in another precision must not compute the same).
"""
import argparse
import csv
import math
import sys


def column(path, name):
    with open(path) as f:
        return [float(row[name]) for row in csv.DictReader(f)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ref")
    ap.add_argument("others", nargs="+")
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--rtol", type=float, required=True)
    ap.add_argument("--accuracy-points", type=float)
    ap.add_argument("--distinct", action="store_true")
    a = ap.parse_args()
    ref = column(a.ref + "/steps.csv", "train_loss")
    ok = len(ref) >= a.steps
    if not ok:
        print("%s: %d steps, fewer than %d" % (a.ref, len(ref), a.steps))
    for d in a.others:
        loss = column(d + "/steps.csv", "train_loss")
        if len(loss) < a.steps:
            print("%s: %d steps, fewer than %d" % (d, len(loss), a.steps))
            ok = False
            continue
        worst = max(abs(x - y) / abs(x) for x, y in zip(ref[:a.steps], loss[:a.steps]))
        finite = all(math.isfinite(v) for v in ref[:a.steps] + loss[:a.steps])
        good = finite and worst <= a.rtol
        print("%s: loss of steps 1-%d: max relative difference %.2g %s"
              % (d, a.steps, worst, "ok" if good else "MISMATCH"))
        ok = ok and good
        if a.distinct and ref[:a.steps] == loss[:a.steps]:
            print("%s: the same losses as %s: NOT DISTINCT" % (d, a.ref))
            ok = False
        if a.accuracy_points is not None:
            acc = [column(x + "/metrics.csv", "val_accuracy")[-1] for x in (a.ref, d)]
            points = abs(acc[0] - acc[1]) * 100
            good = points <= a.accuracy_points
            print("%s: val_accuracy %.4f against %.4f: %.2f points %s"
                  % (d, acc[1], acc[0], points, "ok" if good else "MISMATCH"))
            ok = ok and good
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
