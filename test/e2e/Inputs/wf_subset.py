#!/usr/bin/env python3
"""Writes small Fashion-MNIST subsets (plain IDX) and test images as PNG.

wf_subset.py OUTDIR [--train N] [--test M] [--flip-train] [--png K]
                    [--debian-names] [--src DIR]

Reads Debian's dataset-fashion-mnist (gzip IDX, or --src) and writes
OUTDIR/{train,test}-{images,labels}.idx (uncompressed) holding the first N
training and the first M test samples; the workflow models
(wf_*.model) read them from the directory they are copied into.

  --flip-train  mirror every training image left-right (the test images
                stay as they are): training on these without augmentation
                must equal training on the originals with random_hflip(1.0).
  --debian-names  write gzip files under the Debian package's names
                (train-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz, ...)
                instead, so an example whose data block says
                `root = "..."` reads them once its root is OUTDIR.
  --png K       also write test sample K as OUTDIR/test-K.png (8-bit grey)
                and OUTDIR/test-K-rgb.png (8-bit RGB, the grey value in all
                three channels), encoded here with zlib + struct, and print
                "png K label L".

Prints the class counts of each subset. Exits 1 naming the file when a
source file is missing or malformed, or when N, M or K is out of range.
"""
import argparse
import gzip
import os
import struct
import sys
import zlib

SRC = "/usr/share/datasets/fashion-mnist"


def read_idx(path, rank):
    """Returns (dims, payload) of a gzip IDX file of unsigned bytes."""
    try:
        with gzip.open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit("%s: cannot read: %s" % (path, e))
    if len(data) < 4 + 4 * rank or data[:3] != b"\0\0\x08" or data[3] != rank:
        sys.exit("%s: not a rank-%d IDX file of unsigned bytes" % (path, rank))
    dims = struct.unpack(">%dI" % rank, data[4:4 + 4 * rank])
    return dims, data[4 + 4 * rank:]


def write_idx(path, dims, payload, compress):
    header = bytes([0, 0, 0x08, len(dims)]) + struct.pack(">%dI" % len(dims), *dims)
    with (gzip.open(path, "wb", compresslevel=1) if compress else open(path, "wb")) as f:
        f.write(header + payload)


def flip_rows(images, n, h, w):
    """Mirrors each of n h x w images left-right."""
    out = bytearray(len(images))
    for r in range(n * h):
        row = images[r * w:(r + 1) * w]
        out[r * w:(r + 1) * w] = row[::-1]
    return bytes(out)


def png_chunk(kind, body):
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def write_png(path, pixels, h, w, channels):
    """8-bit grey (channels 1) or RGB (3) PNG, filter type 0 on every row."""
    colour = {1: 0, 3: 2}[channels]
    stride = w * channels
    raw = b"".join(b"\0" + pixels[y * stride:(y + 1) * stride] for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0)))
        f.write(png_chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(png_chunk(b"IEND", b""))


def split(a, prefix, name, count, flip):
    """Writes the first `count` samples of one split; returns (images, labels, h, w)."""
    img_path = os.path.join(a.src, prefix + "-images-idx3-ubyte.gz")
    lbl_path = os.path.join(a.src, prefix + "-labels-idx1-ubyte.gz")
    (total, h, w), images = read_idx(img_path, 3)
    (nlabels,), labels = read_idx(lbl_path, 1)
    if nlabels != total:
        sys.exit("%s: %d labels for %d images" % (lbl_path, nlabels, total))
    if not 1 <= count <= total:
        sys.exit("%s: asked for %d samples, the file has %d" % (img_path, count, total))
    images, labels = images[:count * h * w], labels[:count]
    if flip:
        images = flip_rows(images, count, h, w)
    if a.debian_names:
        img_out, lbl_out = prefix + "-images-idx3-ubyte.gz", prefix + "-labels-idx1-ubyte.gz"
    else:
        img_out, lbl_out = name + "-images.idx", name + "-labels.idx"
    write_idx(os.path.join(a.out, img_out), (count, h, w), images, a.debian_names)
    write_idx(os.path.join(a.out, lbl_out), (count,), labels, a.debian_names)
    print("%s: %d samples, per class %s%s" % (name, count,
          [labels.count(c) for c in range(10)], " (flipped)" if flip else ""))
    return images, labels, h, w


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--train", type=int, default=1000)
    ap.add_argument("--test", type=int, default=500)
    ap.add_argument("--flip-train", action="store_true")
    ap.add_argument("--png", type=int, default=None)
    ap.add_argument("--debian-names", action="store_true")
    ap.add_argument("--src", default=SRC)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    split(a, "train", "train", a.train, a.flip_train)
    images, labels, h, w = split(a, "t10k", "test", a.test, False)
    if a.png is not None:
        k = a.png
        if not 0 <= k < a.test:
            sys.exit("--png %d: the test subset has %d samples" % (k, a.test))
        grey = images[k * h * w:(k + 1) * h * w]
        write_png(os.path.join(a.out, "test-%d.png" % k), grey, h, w, 1)
        rgb = bytes(v for p in grey for v in (p, p, p))
        write_png(os.path.join(a.out, "test-%d-rgb.png" % k), rgb, h, w, 3)
        print("png %d label %d" % (k, labels[k]))


if __name__ == "__main__":
    main()
