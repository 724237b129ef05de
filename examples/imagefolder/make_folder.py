#!/usr/bin/env python3
"""Writes an image-folder data set from Fashion-MNIST: OUT/train/<class>/
and OUT/test/<class>/, one folder per class named by the Fashion-MNIST
class names, the images alternately PNG (lossless) and JPEG (quality 95).

usage: make_folder.py OUT [--train N] [--test M] [--source DIR]
The first N training and M test images are written (2,000 and 500 by
default) from the IDX files in DIR (/usr/share/datasets/fashion-mnist,
Debian's dataset-fashion-mnist). Needs python3-pil and numpy."""
import argparse
import gzip
import os

import numpy as np
from PIL import Image

CLASSES = ["T-shirt_top", "Trouser", "Pullover", "Dress", "Coat",
           "Sandal", "Shirt", "Sneaker", "Bag", "Ankle_boot"]


def read_idx(path):
    """An IDX file (gzip) as a numpy array."""
    data = gzip.open(path, "rb").read()
    rank = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(rank)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * rank).reshape(dims)


def write_split(out, images, labels, count):
    for name in CLASSES:
        os.makedirs(os.path.join(out, name), exist_ok=True)
    for i in range(count):
        ext = "png" if i % 2 == 0 else "jpg"
        path = os.path.join(out, CLASSES[labels[i]], "%05d.%s" % (i, ext))
        img = Image.fromarray(images[i], mode="L")
        if ext == "png":
            img.save(path)
        else:
            img.save(path, quality=95)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--train", type=int, default=2000)
    p.add_argument("--test", type=int, default=500)
    p.add_argument("--source", default="/usr/share/datasets/fashion-mnist")
    a = p.parse_args()
    for split, prefix, count in (("train", "train", a.train), ("test", "t10k", a.test)):
        images = read_idx(os.path.join(a.source, prefix + "-images-idx3-ubyte.gz"))
        labels = read_idx(os.path.join(a.source, prefix + "-labels-idx1-ubyte.gz"))
        write_split(os.path.join(a.out, split), images, labels, count)


if __name__ == "__main__":
    main()
