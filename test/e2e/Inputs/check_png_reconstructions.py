#!/usr/bin/env python3
"""Checks the PNG images `predict --png DIR` wrote for an autoencoder.

check_png_reconstructions.py DIR STEM OUT.npy IMAGES.idx.gz MAX_MSE: decodes
DIR/STEM-<i>.png for every sample i of OUT.npy (the same run's outputs, in
[0, 1] for a model whose data block says image / 255) with a decoder written
here from the PNG specification (zlib, the five row filters; independent of
libpng and of the runtime's reader), and requires each image to be 28x28
8-bit gray with pixels round(clip(255 * output)), and the mean squared error
of pixels / 255 against the original images to be below MAX_MSE. Prints a
summary and "png OK"; exits 1 otherwise.
"""
import gzip
import struct
import sys
import zlib

import numpy as np


def decode_png(path):
    """(height, width, colour type, pixels as uint8 [h, w * channels])."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    at, idat, ihdr = 8, b"", None
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n:at + 12 + n])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, (path, kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    assert depth == 8 and interlace == 0, (path, ihdr)
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return h, w, ctype, np.frombuffer(b"".join(rows), np.uint8).reshape(h, stride)


def main():
    directory, stem, out_path, images_path, max_mse = sys.argv[1:6]
    out = np.load(out_path).reshape(-1, 28, 28)
    with gzip.open(images_path, "rb") as f:
        raw = f.read()
    images = np.frombuffer(raw[16:], np.uint8).reshape(-1, 28, 28)[:len(out)]
    expected = np.round(np.clip(out.astype(np.float64) * 255, 0, 255)).astype(np.uint8)
    mse, mismatched = 0.0, 0
    for i in range(len(out)):
        h, w, ctype, px = decode_png("%s/%s-%d.png" % (directory, stem, i))
        assert (h, w, ctype) == (28, 28, 0), (i, h, w, ctype)
        mismatched += int((px != expected[i]).sum())
        mse += float(((px / 255.0 - images[i] / 255.0) ** 2).mean())
    mse /= len(out)
    print("%d images 28x28 gray, %d pixels differ from round(255 * output), MSE %.4f"
          % (len(out), mismatched, mse))
    ok = mismatched == 0 and mse < float(max_mse)
    print("png OK" if ok else "png FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
