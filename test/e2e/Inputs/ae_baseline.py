#!/usr/bin/env python3
"""Checks an autoencoder's reconstruction MSE against the per-pixel mean.

ae_baseline.py DIR EVAL_OUTPUT [--max-ratio R]

DIR holds Fashion-MNIST subsets as written by subset_idx.py
(train-images-idx3-ubyte.gz, t10k-images-idx3-ubyte.gz). The baseline is
the MSE, over the test images scaled to [0, 1], of predicting every pixel
by its mean over the training images: the error of a model that ignores
its input (close to the pixels' variance). EVAL_OUTPUT holds the line
`eval on FILE (N samples): loss L` of the trained model; L must be below
R times the baseline (default 0.5). Prints both; exits 1 on failure.
"""
import argparse
import gzip
import os
import re
import sys

import numpy as np


def readImages(path):
    """The images of a gzip IDX file of unsigned bytes, as [N, 784] in [0, 1]."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    rank = data[3]
    dims = np.frombuffer(data[4:4 + 4 * rank], dtype=">u4")
    pixels = np.frombuffer(data[4 + 4 * rank:], dtype=np.uint8)
    return pixels.reshape(int(dims[0]), -1).astype(np.float64) / 255


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("eval_output")
    ap.add_argument("--max-ratio", type=float, default=0.5)
    a = ap.parse_args()
    train = readImages(os.path.join(a.dir, "train-images-idx3-ubyte.gz"))
    test = readImages(os.path.join(a.dir, "t10k-images-idx3-ubyte.gz"))
    baseline = float(np.mean((test - train.mean(axis=0)) ** 2))
    text = open(a.eval_output).read()
    m = re.search(r"^eval on .* \((\d+) samples\): loss (\S+)$", text, re.M)
    if not m or int(m.group(1)) != len(test):
        sys.exit("FAIL: no eval line for %d samples in %s:\n%s"
                 % (len(test), a.eval_output, text))
    loss = float(m.group(2))
    print("per-pixel-mean MSE %.5f, model MSE %.5f (ratio %.3f, required < %.2f)"
          % (baseline, loss, loss / baseline, a.max_ratio))
    if not loss < a.max_ratio * baseline:
        sys.exit("FAIL: the reconstruction is not clearly better than the mean image")
    print("reconstruction ok")


if __name__ == "__main__":
    main()
