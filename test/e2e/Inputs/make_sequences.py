#!/usr/bin/env python3
"""Writes a small data set of sequences for the decoding tests.

make_sequences.py DIR N T F O writes, with numpy's default_rng(5),
DIR/seq_x.npy (f32 [N, T, F], standard normal; F = 0 writes [N, T], one
number per position) and DIR/seq_y.npy (f32 [N, T, O]: the running mean of
the first feature, repeated O times, a target that depends on each
position's past only). The tests compile against the files and drive the
programs themselves; nothing here is checked.
"""
import os
import sys

import numpy as np


def main():
    out = sys.argv[1]
    n, t, f, o = (int(a) for a in sys.argv[2:6])
    rng = np.random.default_rng(5)
    x = rng.standard_normal((n, t, max(f, 1))).astype(np.float32)
    steps = np.arange(1, t + 1, dtype=np.float32)[None, :, None]
    y = np.cumsum(x[:, :, :1], axis=1) / steps
    y = np.repeat(y, o, axis=2).astype(np.float32)
    np.save(os.path.join(out, "seq_x.npy"), x if f else x[:, :, 0])
    np.save(os.path.join(out, "seq_y.npy"), y)


if __name__ == "__main__":
    main()
