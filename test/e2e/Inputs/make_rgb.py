"""Writes a small RGB data set for e2e/normalize-augment.test into DIR:
u8 images [N, 3, 8, 8] (x.npy, tx.npy) whose class (y.npy, ty.npy: 0 or 1)
is whether the red channel's mean exceeds the blue's, and the same images
normalised in float64 as torchvision's Normalize(ToTensor(x)) computes them,
stored as f32 (xn.npy, txn.npy).

make_rgb.py DIR
"""
import sys

import numpy as np

MEAN = np.array([0.485, 0.456, 0.406]).reshape(1, 3, 1, 1)
STD = np.array([0.229, 0.224, 0.225]).reshape(1, 3, 1, 1)


def split(rng, n):
    x = rng.integers(0, 256, size=(n, 3, 8, 8), dtype=np.uint8)
    y = (x[:, 0].mean(axis=(1, 2)) > x[:, 2].mean(axis=(1, 2))).astype(np.int64)
    xn = ((x.astype(np.float64) * (1 / 255) - MEAN) / STD).astype(np.float32)
    return x, y, xn


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(7)
    for prefix, n in (("", 96), ("t", 32)):
        x, y, xn = split(rng, n)
        np.save(f"{out}/{prefix}x.npy", x)
        np.save(f"{out}/{prefix}y.npy", y)
        np.save(f"{out}/{prefix}xn.npy", xn)


main()
