#!/usr/bin/env python3
"""Writes the first N images and labels of Fashion-MNIST's splits as IDX files.

subset_idx.py OUTDIR [--train N] [--test M] [--src DIR] [--plain]

Reads the gzip IDX files of Debian's dataset-fashion-mnist (or --src), keeps
the first N training and the first M test samples (0 = all of that split) and
writes them to OUTDIR under the same names (train-images-idx3-ubyte.gz, ...),
gzip-compressed at level 1, or uncompressed with --plain (the names then lose
the .gz). A .model whose data block says `root = "OUTDIR"` then reads them.
Prints the class counts of each subset; exits 1 naming the file when a source
file is missing or is not the IDX type it should be, or when N/M exceed the
split's size.
"""
import argparse
import gzip
import os
import struct
import sys

SRC = "/usr/share/datasets/fashion-mnist"
SPLITS = {"train": "train", "test": "t10k"}


def readIdx(path, wantRank):
    """Returns (dims, payload bytes) of an IDX file of unsigned bytes."""
    try:
        with gzip.open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit("%s: cannot read: %s" % (path, e))
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] != 0x08:
        sys.exit("%s: not an IDX file of unsigned bytes" % path)
    rank = data[3]
    if rank != wantRank:
        sys.exit("%s: rank %d, expected %d" % (path, rank, wantRank))
    dims = struct.unpack(">%dI" % rank, data[4:4 + 4 * rank])
    return dims, data[4 + 4 * rank:]


def writeIdx(path, dims, payload, plain):
    header = bytes([0, 0, 0x08, len(dims)]) + struct.pack(">%dI" % len(dims), *dims)
    if plain:
        with open(path, "wb") as f:
            f.write(header + payload)
    else:
        with gzip.open(path, "wb", compresslevel=1) as f:
            f.write(header + payload)


def writeSplit(src, out, prefix, count, plain):
    """Writes the first `count` samples of one split; returns the labels."""
    imgPath = os.path.join(src, prefix + "-images-idx3-ubyte.gz")
    lblPath = os.path.join(src, prefix + "-labels-idx1-ubyte.gz")
    imgDims, images = readIdx(imgPath, 3)
    lblDims, labels = readIdx(lblPath, 1)
    total = imgDims[0]
    if lblDims[0] != total:
        sys.exit("%s: %d labels for %d images" % (lblPath, lblDims[0], total))
    n = total if count == 0 else count
    if n > total:
        sys.exit("%s: asked for %d samples, the file has %d" % (imgPath, n, total))
    per = imgDims[1] * imgDims[2]
    suffix = "" if plain else ".gz"
    writeIdx(os.path.join(out, prefix + "-images-idx3-ubyte" + suffix),
             (n, imgDims[1], imgDims[2]), images[:n * per], plain)
    writeIdx(os.path.join(out, prefix + "-labels-idx1-ubyte" + suffix), (n,),
             labels[:n], plain)
    return labels[:n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--train", type=int, default=5000)
    ap.add_argument("--test", type=int, default=0)
    ap.add_argument("--src", default=SRC)
    ap.add_argument("--plain", action="store_true")
    a = ap.parse_args()
    if a.train < 0 or a.test < 0:
        sys.exit("--train and --test must be >= 0")
    os.makedirs(a.out, exist_ok=True)
    for split, count in (("train", a.train), ("test", a.test)):
        labels = writeSplit(a.src, a.out, SPLITS[split], count, a.plain)
        counts = [labels.count(c) for c in range(10)]
        print("%s: %d samples, per class %s" % (split, len(labels), counts))


if __name__ == "__main__":
    main()
