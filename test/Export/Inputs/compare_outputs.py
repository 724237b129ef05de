#!/usr/bin/env python3
"""Compares a model's outputs from two sources.

compare_outputs.py GOT REFERENCE [--softmax] [--rtol X]

GOT and REFERENCE: .npy arrays, or text with one sample's values per line
(the C host's output). With --softmax, GOT holds outputs (logits) and
REFERENCE `predict`'s probabilities: the softmax of GOT's rows is compared.
Per sample, the largest difference over the largest reference magnitude
must be at most --rtol (default 1e-5). Prints the worst relative
difference and MATCH, or MISMATCH and exits 1.
"""
import argparse
import sys

import numpy as np


def load(path):
    if path.endswith(".npy"):
        return np.load(path).astype(np.float64)
    # Text holds float32 values (printed with 9 digits: they read back exactly).
    return np.loadtxt(path, dtype=np.float32, ndmin=2).astype(np.float64)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("got")
    ap.add_argument("reference")
    ap.add_argument("--softmax", action="store_true")
    ap.add_argument("--rtol", type=float, default=1e-5)
    args = ap.parse_args()
    got, ref = load(args.got), load(args.reference)
    got = got.reshape(got.shape[0], -1)
    ref = ref.reshape(ref.shape[0], -1)
    if got.shape != ref.shape:
        print(f"MISMATCH: shapes {got.shape} and {ref.shape}")
        return 1
    if args.softmax:
        e = np.exp(got - got.max(axis=1, keepdims=True))
        got = e / e.sum(axis=1, keepdims=True)
    worst = (np.abs(got - ref).max(axis=1) /
             np.maximum(np.abs(ref).max(axis=1), 1e-30)).max()
    print(f"{got.shape[0]} samples: max relative difference {worst:.2e}")
    if not worst <= args.rtol:
        print("MISMATCH")
        return 1
    print("MATCH")
    return 0


if __name__ == "__main__":
    sys.exit(main())
