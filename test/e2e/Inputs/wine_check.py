#!/usr/bin/env python3
"""Checks a training run of examples/tabular/wine.model.

wine_check.py METRICS.csv EVAL.txt --patience N --min-delta D
              --max-epochs E --min-val-accuracy A

- the training loss of the last epoch is below that of the first;
- the last epoch's val_accuracy is at least A;
- early stopping: replaying the rule (stop after N epochs in a row whose
  val_loss is not below the best so far minus D) on the val_loss column
  stops exactly at the last row, before E epochs;
- EVAL.txt (the output of `wine eval --checkpoint last.safetensors`)
  reports the last row's val_loss and val_accuracy.
Prints what it checked; exits 1 with the reason on failure.
"""
import argparse
import csv
import re
import sys


def stop_epoch(losses, patience, min_delta):
    """The 1-based epoch after which early stopping ends the run, or None."""
    best, bad = None, 0
    for epoch, loss in enumerate(losses, 1):
        if best is None or loss < best - min_delta:
            best, bad = loss, 0
        else:
            bad += 1
            if bad >= patience:
                return epoch
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("metrics")
    ap.add_argument("eval")
    ap.add_argument("--patience", type=int, required=True)
    ap.add_argument("--min-delta", type=float, required=True)
    ap.add_argument("--max-epochs", type=int, required=True)
    ap.add_argument("--min-val-accuracy", type=float, required=True)
    a = ap.parse_args()
    with open(a.metrics) as f:
        rows = list(csv.DictReader(f))
    col = lambda name: [float(r[name]) for r in rows]
    train, val = col("train_loss"), col("val_loss")
    print("epochs:", len(rows))
    print("train_loss:", " ".join("%.4f" % x for x in train))
    print("val_loss:", " ".join("%.4f" % x for x in val))
    if not (len(train) >= 2 and train[-1] < train[0]):
        sys.exit("FAIL: the training loss did not decrease")
    acc = col("val_accuracy")[-1]
    print("val_accuracy %.4f (required >= %.2f)" % (acc, a.min_val_accuracy))
    if acc < a.min_val_accuracy:
        sys.exit("FAIL: validation accuracy too low")
    stop = stop_epoch(val, a.patience, a.min_delta)
    print("early stopping replayed: stop after epoch", stop)
    if stop != len(rows) or len(rows) >= a.max_epochs:
        sys.exit("FAIL: the run has %d epochs, the rule stops after %s" % (len(rows), stop))
    text = open(a.eval).read()
    m = re.search(r"loss ([0-9.e+-]+) accuracy ([0-9.e+-]+)", text)
    if not m:
        sys.exit("FAIL: no loss/accuracy in the eval output: " + text)
    for name, got, want in (("loss", float(m.group(1)), val[-1]),
                            ("accuracy", float(m.group(2)), acc)):
        print("eval %s %.6f, last val_%s %.6f" % (name, got, name, want))
        if abs(got - want) > 1e-5 * max(1.0, abs(want)):
            sys.exit("FAIL: eval %s differs from the last epoch's" % name)
    print("wine run ok")


if __name__ == "__main__":
    main()
