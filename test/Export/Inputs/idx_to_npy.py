#!/usr/bin/env python3
"""Writes the first 200 images of a gzip IDX file of u8 images as f32 .npy.

idx_to_npy.py IMAGES.idx.gz OUT.npy

Shape [N, 1, H, W] for a rank-3 file ([N, H, W]), else the file's shape;
the values stay 0-255 (the samples as stored, which `predict` and the
exported graph with its input transform both take).
"""
import gzip
import struct
import sys

import numpy as np


def main():
    data = gzip.open(sys.argv[1], "rb").read()
    rank = data[3]
    dims = struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank])
    x = np.frombuffer(data[4 + 4 * rank:], dtype=np.uint8).reshape(dims)
    if rank == 3:
        x = x.reshape(dims[0], 1, dims[1], dims[2])
    np.save(sys.argv[2], x[:200].astype(np.float32))


if __name__ == "__main__":
    main()
