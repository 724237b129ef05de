#!/usr/bin/env python3
"""Writes "shapes", a synthetic 32x32 RGB image set of 10 classes, as IDX.

make_shapes.py [OUTDIR] [--train N] [--test M] [--seed S]

OUTDIR (default: data/ next to this script) receives
{train,test}-{images,labels}.idx.gz: images u8 [N, 3, 32, 32] (NCHW, the
layout resnet_small.model reads), labels u8 [N]. Classes:

  0 horizontal stripes   1 vertical stripes   2 '/' stripes   3 '\\' stripes
  4 checkerboard         5 disc               6 ring          7 filled square
  8 plus sign            9 X (diagonal cross)

Each image draws a random foreground and background colour (at least 80
apart in brightness, so colour says nothing about the class), a random
period and phase for the periodic patterns, a random centre and size for
the shapes, and Gaussian pixel noise (sigma 24). Classes are balanced and
shuffled. Deterministic for a given --seed (numpy's default_rng). Chance
accuracy is 0.1.
"""
import argparse
import gzip
import os
import struct
import sys

import numpy as np

SIZE = 32
CLASSES = 10


def periodic(k, rng, yy, xx):
    """Boolean mask of the stripe/checker classes 0-4."""
    period = rng.integers(4, 9)
    phase = rng.uniform(0, period)
    if k == 0:
        t = yy
    elif k == 1:
        t = xx
    elif k == 2:
        t = (xx + yy) / np.sqrt(2)
    elif k == 3:
        t = (xx - yy) / np.sqrt(2)
    else:
        a = ((xx + phase) // (period / 2)).astype(int)
        b = ((yy + phase) // (period / 2)).astype(int)
        return (a + b) % 2 == 0
    return ((t + phase) % period) < period / 2


def shape(k, rng, yy, xx):
    """Boolean mask of the shape classes 5-9."""
    r = rng.uniform(7, 12)
    cy, cx = rng.uniform(r, SIZE - 1 - r, size=2)
    dy, dx = yy - cy, xx - cx
    w = rng.uniform(2, 3.5)                 # stroke half-width
    if k == 5:
        return dy * dy + dx * dx <= r * r
    if k == 6:
        d = np.sqrt(dy * dy + dx * dx)
        return np.abs(d - r) <= w * 0.8
    if k == 7:
        return (np.abs(dy) <= r * 0.8) & (np.abs(dx) <= r * 0.8)
    if k == 8:
        inside = (np.abs(dy) <= r) & (np.abs(dx) <= r)
        return inside & ((np.abs(dy) <= w) | (np.abs(dx) <= w))
    inside = (np.abs(dy) <= r) & (np.abs(dx) <= r)
    return inside & ((np.abs(dy - dx) <= w * 1.2) | (np.abs(dy + dx) <= w * 1.2))


def colours(rng):
    """Two RGB colours whose mean brightness differs by >= 80."""
    while True:
        fg, bg = rng.integers(0, 256, size=(2, 3))
        if abs(fg.mean() - bg.mean()) >= 80:
            return fg, bg


def image(k, rng):
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    mask = periodic(k, rng, yy, xx) if k < 5 else shape(k, rng, yy, xx)
    fg, bg = colours(rng)
    img = np.where(mask[None, :, :], fg[:, None, None], bg[:, None, None])
    img = img + rng.normal(0, 24, size=img.shape)
    return np.clip(np.rint(img), 0, 255).astype(np.uint8)


def make(n, rng):
    labels = np.arange(n) % CLASSES
    rng.shuffle(labels)
    images = np.stack([image(int(k), rng) for k in labels]) if n else \
        np.zeros((0, 3, SIZE, SIZE), np.uint8)
    return images, labels.astype(np.uint8)


def write_idx(path, array):
    header = struct.pack(">BBBB", 0, 0, 0x08, array.ndim)
    header += struct.pack(">%dI" % array.ndim, *array.shape)
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(header + array.tobytes())


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", default=os.path.join(here, "data"))
    ap.add_argument("--train", type=int, default=10000)
    ap.add_argument("--test", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2024)
    a = ap.parse_args()
    if a.train < 1 or a.test < 1:
        sys.exit("make_shapes.py: --train and --test must be >= 1")
    os.makedirs(a.out, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    for split, n in (("train", a.train), ("test", a.test)):
        images, labels = make(n, rng)
        write_idx(os.path.join(a.out, split + "-images.idx.gz"), images)
        write_idx(os.path.join(a.out, split + "-labels.idx.gz"), labels)
        counts = np.bincount(labels, minlength=CLASSES)
        print("%s: %d images %s, %d-%d per class" %
              (split, n, "x".join(map(str, images.shape[1:])), counts.min(),
               counts.max()))


if __name__ == "__main__":
    main()
