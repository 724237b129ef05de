#!/usr/bin/env python3
"""Checks a training run's metrics.csv (written by the compiled executable).

check_metrics.py METRICS.csv [--decreasing] [--min-val-accuracy X]
  --decreasing          train_loss of the last epoch < that of the first
                        (needs >= 2 epochs), and the first epoch's loss is
                        below log(classes) chance level given by --chance-loss
  --min-val-accuracy X  the last epoch's val_accuracy >= X
Prints what it checked; exits 1 with the reason on failure.
"""
import argparse
import csv
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("metrics")
    ap.add_argument("--decreasing", action="store_true")
    ap.add_argument("--chance-loss", type=float, default=None)
    ap.add_argument("--min-val-accuracy", type=float, default=None)
    a = ap.parse_args()
    with open(a.metrics) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("no epochs in " + a.metrics)
    losses = [float(r["train_loss"]) for r in rows]
    print("train_loss per epoch:", " ".join("%.4f" % l for l in losses))
    if a.decreasing:
        if len(losses) < 2 or not losses[-1] < losses[0]:
            sys.exit("FAIL: the training loss did not decrease")
        print("loss decreases: ok")
    if a.chance_loss is not None and not losses[-1] < a.chance_loss:
        sys.exit("FAIL: final loss %.4f is not below chance %.4f" % (losses[-1], a.chance_loss))
    if a.min_val_accuracy is not None:
        acc = float(rows[-1]["val_accuracy"])
        print("val_accuracy %.4f (required >= %.2f)" % (acc, a.min_val_accuracy))
        if acc < a.min_val_accuracy:
            sys.exit("FAIL: validation accuracy too low")
    print("metrics ok")


if __name__ == "__main__":
    main()
