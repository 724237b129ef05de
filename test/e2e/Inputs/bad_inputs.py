#!/usr/bin/env python3
"""Writes inputs that `predict` and `eval` must refuse (predict-bad-inputs.test).

bad_inputs.py DIR: next to make_blobs.py's files in DIR, writes
  wide.png        an 8x2 gray PNG (16 pixels, as a 4x4 image, but not 4x4)
  rows.npy        f4 (2, 8): 16 values, not one 4x4 sample
  empty.npy       f4 (0, 4, 4): no samples
  huge.npy        a header claiming shape (999999999999,) over 64 data bytes
  badlabels/      the test set with label 7 for sample 37 (3 classes)
  swapped/        the test set with the images file as the labels file
"""
import os
import shutil
import struct
import sys
import zlib


def npy(path, shape, data=b""):
    dims = "(" + "".join(f"{d}," for d in shape) + ")"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % dims
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)


def png(path, w, h):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    raw = b"".join(b"\x00" + bytes(range(y * w, y * w + w)) for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    out = sys.argv[1]
    png(os.path.join(out, "wide.png"), 8, 2)
    npy(os.path.join(out, "rows.npy"), (2, 8), struct.pack("<16f", *range(16)))
    npy(os.path.join(out, "empty.npy"), (0, 4, 4))
    npy(os.path.join(out, "huge.npy"), (999999999999,), bytes(64))
    for sub in ("badlabels", "swapped"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
        for name in ("train-images.idx", "train-labels.idx", "test-images.idx"):
            shutil.copy(os.path.join(out, name), os.path.join(out, sub, name))
    labels = bytearray(open(os.path.join(out, "test-labels.idx"), "rb").read())
    labels[8 + 37] = 7
    open(os.path.join(out, "badlabels", "test-labels.idx"), "wb").write(labels)
    shutil.copy(os.path.join(out, "test-images.idx"),
                os.path.join(out, "swapped", "test-labels.idx"))


if __name__ == "__main__":
    main()
