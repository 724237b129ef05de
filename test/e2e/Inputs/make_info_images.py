#!/usr/bin/env python3
"""Writes 8x8 u8 IDX images and labels for info_cnn.model.

make_info_images.py DIR: DIR/{train,test}-{images,labels}.idx, 20 images of
noise with labels 0..9 (the `info` tests read only the files' headers).
Deterministic (random.Random(7)).
"""
import os
import random
import struct
import sys


def write_idx(path, dims, data):
    with open(path, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, 0x08, len(dims)))
        for d in dims:
            f.write(struct.pack(">I", d))
        f.write(bytes(data))


def main():
    out, rng, n = sys.argv[1], random.Random(7), 20
    for split in ("train", "test"):
        pixels = [rng.randint(0, 255) for _ in range(n * 64)]
        write_idx(os.path.join(out, split + "-images.idx"), [n, 8, 8], pixels)
        write_idx(os.path.join(out, split + "-labels.idx"), [n],
                  [i % 10 for i in range(n)])


if __name__ == "__main__":
    main()
