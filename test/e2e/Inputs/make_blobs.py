#!/usr/bin/env python3
"""Writes a small synthetic classification set as IDX files (uncompressed).

make_blobs.py DIR: DIR/{train,test}-{images,labels}.idx with 4x4 u8 images
of 3 classes (600 train, 150 test). Class k has a bright bar in row k (and
row 3 for k == 2 fainter), plus uniform noise; a linear model separates
them well, chance is 1/3. Deterministic (random.Random(1234)).
"""
import os
import random
import struct
import sys


def write_idx(path, dims, data, code=0x08):
    with open(path, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, code, len(dims)))
        for d in dims:
            f.write(struct.pack(">I", d))
        f.write(bytes(data))


def sample(rng, k):
    img = [rng.randint(0, 90) for _ in range(16)]
    for c in range(4):
        img[k * 4 + c] = min(255, img[k * 4 + c] + 150)
    return img


def make(rng, n):
    images, labels = [], []
    for i in range(n):
        k = rng.randrange(3)
        images += sample(rng, k)
        labels.append(k)
    return images, labels


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(1234)
    for name, n in (("train", 600), ("test", 150)):
        images, labels = make(rng, n)
        write_idx(os.path.join(out, name + "-images.idx"), [n, 4, 4], images)
        write_idx(os.path.join(out, name + "-labels.idx"), [n], labels)


if __name__ == "__main__":
    main()
