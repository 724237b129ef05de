#!/usr/bin/env python3
"""Checks a training run of examples/regression/diabetes.model.

diabetes_check.py METRICS.csv EVAL.txt --lr LR --factor F --patience P
                  --threshold T --min-lr M --stop-patience N --min-delta D
                  --max-val-loss L

- the training loss of the last epoch is below that of the first, and the
  last epoch's val_loss (mean squared error) is below L;
- the lr column equals what PyTorch's ReduceLROnPlateau (mode min,
  relative threshold T, factor F, patience P, min_lr M, no cooldown)
  gives when stepped with the val_loss column, and it drops at least once;
- early stopping (stop after N epochs in a row whose val_loss is not below
  the best so far minus D) ends the run exactly at its last row;
- EVAL.txt (`diabetes eval --checkpoint last.safetensors`) reports the
  last row's val_loss.
Prints what it checked; exits 1 with the reason on failure.
"""
import argparse
import csv
import re
import sys

import torch


def plateau_lrs(losses, a):
    """The lr of every epoch according to torch's ReduceLROnPlateau."""
    param = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([param], lr=a.lr)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(
        opt, mode="min", factor=a.factor, patience=a.patience,
        threshold=a.threshold, threshold_mode="rel", cooldown=0,
        min_lr=a.min_lr, eps=0.0)
    lrs = []
    for loss in losses:
        lrs.append(opt.param_groups[0]["lr"])
        sched.step(loss)
    return lrs


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
    for name in ("lr", "factor", "threshold", "min-lr", "min-delta", "max-val-loss"):
        ap.add_argument("--" + name, type=float, required=True)
    for name in ("patience", "stop-patience"):
        ap.add_argument("--" + name, type=int, required=True)
    a = ap.parse_args()
    with open(a.metrics) as f:
        rows = list(csv.DictReader(f))
    col = lambda name: [float(r[name]) for r in rows]
    train, val, lr = col("train_loss"), col("val_loss"), col("lr")
    print("epochs:", len(rows))
    print("val_loss:", " ".join("%.1f" % x for x in val))
    print("lr:", " ".join("%g" % x for x in lr))
    if not (len(train) >= 2 and train[-1] < train[0]):
        sys.exit("FAIL: the training loss did not decrease")
    print("final val_loss %.1f (required < %.1f)" % (val[-1], a.max_val_loss))
    if not val[-1] < a.max_val_loss:
        sys.exit("FAIL: validation loss too high")
    want = plateau_lrs(val, a)
    print("torch lr:", " ".join("%g" % x for x in want))
    for epoch, (g, w) in enumerate(zip(lr, want), 1):
        if abs(g - w) > 1e-9 * w:
            sys.exit("FAIL: epoch %d has lr %g, ReduceLROnPlateau gives %g" % (epoch, g, w))
    if not lr[-1] < lr[0]:
        sys.exit("FAIL: the learning rate never dropped")
    stop = stop_epoch(val, a.stop_patience, a.min_delta)
    print("early stopping replayed: stop after epoch", stop)
    if stop != len(rows):
        sys.exit("FAIL: the run has %d epochs, the rule stops after %s" % (len(rows), stop))
    text = open(a.eval).read()
    m = re.search(r"loss ([0-9.e+-]+)", text)
    if not m:
        sys.exit("FAIL: no loss in the eval output: " + text)
    got = float(m.group(1))
    print("eval loss %.6f, last val_loss %.6f" % (got, val[-1]))
    if abs(got - val[-1]) > 1e-5 * max(1.0, abs(val[-1])):
        sys.exit("FAIL: eval loss differs from the last epoch's")
    print("diabetes run ok")


if __name__ == "__main__":
    main()
