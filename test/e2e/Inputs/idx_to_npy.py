#!/usr/bin/env python3
"""Writes the Fashion-MNIST subset of subset_idx.py as NPY arrays.

idx_to_npy.py DIR: for each split S of DIR (train, t10k), reads
S-images-idx3-ubyte.gz and S-labels-idx1-ubyte.gz and writes S_x.npy (u8
[N, 28, 28], as in the IDX file), S_y.npy (the labels as i64) and S_t.npy
(f32 regression targets [N, 3]: the mean pixel of the image, of its top
half and of its left half, in [0, 1]). Prints, for the test split, the
mean squared error of predicting every target by its training-set mean:
the baseline a regression model must beat.
"""
import gzip
import os
import sys

import numpy as np


def read_idx(path):
    b = gzip.open(path).read()
    nd = b[3]
    dims = [int.from_bytes(b[4 + 4 * i:8 + 4 * i], "big") for i in range(nd)]
    return np.frombuffer(b[4 + 4 * nd:], np.uint8).reshape(dims)


def targets(x):
    x = x.astype(np.float64) / 255.0
    return np.stack([x.mean(axis=(1, 2)), x[:, :14].mean(axis=(1, 2)),
                     x[:, :, :14].mean(axis=(1, 2))], axis=1).astype(np.float32)


def main():
    d = sys.argv[1]
    t = {}
    for s in ("train", "t10k"):
        x = read_idx(os.path.join(d, s + "-images-idx3-ubyte.gz"))
        y = read_idx(os.path.join(d, s + "-labels-idx1-ubyte.gz"))
        np.save(os.path.join(d, s + "_x.npy"), x)
        np.save(os.path.join(d, s + "_y.npy"), y.astype(np.int64))
        t[s] = targets(x)
        np.save(os.path.join(d, s + "_t.npy"), t[s])
    base = ((t["t10k"] - t["train"].mean(axis=0)) ** 2).mean()
    print("baseline mse %.6f" % base)


if __name__ == "__main__":
    main()
