#!/usr/bin/env python3
"""Writes the first samples of Fashion-MNIST under the original file names.

fmnist_subset.py SRC OUT --train N --test M

Reads SRC/{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz (Debian's
dataset-fashion-mnist) and writes the first N training and M test samples,
gzip-compressed, to the same names in OUT, so that a model whose data block
reads SRC reads the subset when SRC is replaced by OUT. Exits 1 naming the
file when a source file is missing, is not the expected IDX type, or holds
fewer samples than asked for.
"""
import argparse
import gzip
import os
import struct
import sys


def subset(src, out, name, rank, count):
    path = os.path.join(src, name)
    try:
        with gzip.open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit("%s: %s" % (path, e))
    if len(data) < 4 + 4 * rank or data[:4] != bytes([0, 0, 8, rank]):
        sys.exit("%s: not an IDX file of u8 with rank %d" % (path, rank))
    dims = list(struct.unpack(">%dI" % rank, data[4:4 + 4 * rank]))
    if dims[0] < count:
        sys.exit("%s: holds %d samples, %d asked for" % (path, dims[0], count))
    per = 1
    for d in dims[1:]:
        per *= d
    body = data[4 + 4 * rank:4 + 4 * rank + count * per]
    dims[0] = count
    with gzip.open(os.path.join(out, name), "wb", compresslevel=1) as f:
        f.write(data[:4] + struct.pack(">%dI" % rank, *dims) + body)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--train", type=int, required=True)
    ap.add_argument("--test", type=int, required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for split, n in (("train", a.train), ("t10k", a.test)):
        subset(a.src, a.out, split + "-images-idx3-ubyte.gz", 3, n)
        subset(a.src, a.out, split + "-labels-idx1-ubyte.gz", 1, n)
    print("subset: %d training and %d test samples in %s" % (a.train, a.test, a.out))


if __name__ == "__main__":
    main()
