#!/usr/bin/env python3
"""Writes two small regression data sets with tensor targets, and the loss
each trained model must reach.

make_targets.py DIR writes, with numpy's default_rng(20):
  - DIR/targets-{train,test}.csv: columns x1, y1, x2, x3, y2, x4 (400 and
    100 rows); the targets y1, y2 are a linear function of x1..x4 plus
    noise of standard deviation 0.1 (the label columns sit between the
    features, so the reader must pick them by name);
  - DIR/{train,test}-{x,y}.idx: f32 inputs [N, 6] and f32 targets
    [N, 2, 3] (IDX rank 3: a target of shape [2, 3] per sample), a linear
    function of the inputs plus the same noise (400 and 100 samples);
  - DIR/{csv,idx}.threshold: the largest test MSE the trained model may
    have, FRACTION (0.1) times the mean variance of the test targets (the
    MSE of predicting every target by its mean, which ignores the inputs).
    The noise alone costs 0.01.
Prints each threshold.
"""
import os
import struct
import sys

import numpy as np

FRACTION = 0.1
NOISE = 0.1


def write_idx(path, array):
    """Writes a float32 array as a big-endian IDX file (type 0x0D)."""
    with open(path, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, 0x0D, array.ndim))
        for d in array.shape:
            f.write(struct.pack(">I", d))
        f.write(array.astype(">f4").tobytes())


def threshold(out, name, targets):
    """Writes and prints the loss bound of the test targets [N, ...]."""
    flat = targets.reshape(len(targets), -1).astype(np.float64)
    variance = float(flat.var(axis=0).mean())
    bound = FRACTION * variance
    with open(os.path.join(out, name + ".threshold"), "w") as f:
        f.write("%.9g\n" % bound)
    print("%s: threshold %.6f = %.1f x the test targets' mean variance %.6f"
          % (name, bound, FRACTION, variance))


def linear(rng, n, w, b):
    """Inputs [n, rows of w] ~ N(0, 1) and targets x @ w + b + noise."""
    x = rng.standard_normal((n, w.shape[0]))
    y = x @ w + b + NOISE * rng.standard_normal((n, w.shape[1]))
    return x.astype(np.float32), y.astype(np.float32)


def write_csv(path, x, y):
    """Columns x1, y1, x2, x3, y2, x4."""
    with open(path, "w") as f:
        f.write("x1,y1,x2,x3,y2,x4\n")
        for xi, yi in zip(x, y):
            row = [xi[0], yi[0], xi[1], xi[2], yi[1], xi[3]]
            f.write(",".join("%.7g" % v for v in row) + "\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20)
    w, b = rng.standard_normal((4, 2)), rng.standard_normal(2)
    for split, n in (("train", 400), ("test", 100)):
        x, y = linear(rng, n, w, b)
        write_csv(os.path.join(out, "targets-%s.csv" % split), x, y)
    threshold(out, "csv", y)
    w, b = rng.standard_normal((6, 6)), rng.standard_normal(6)
    for split, n in (("train", 400), ("test", 100)):
        x, y = linear(rng, n, w, b)
        write_idx(os.path.join(out, "%s-x.idx" % split), x)
        write_idx(os.path.join(out, "%s-y.idx" % split), y.reshape(n, 2, 3))
    threshold(out, "idx", y)


if __name__ == "__main__":
    main()
