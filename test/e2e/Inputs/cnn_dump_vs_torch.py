#!/usr/bin/env python3
"""Compares a `train --dump-gradients` file of the Fashion-MNIST CNN
without dropout with PyTorch float64 autograd, element by element.

cnn_dump_vs_torch.py FILE RTOL: reads FILE (safetensors), runs
conv(32)-relu-maxpool-conv(64)-relu-maxpool-linear(128)-relu-linear(10)
with mean cross-entropy in float64 from `param/NAME` and the batch, and
measures each element's error |g - ref| / max(|ref|, 1e-3 * max|ref|) (the
floor keeps elements near zero from dominating), and requires its largest
value per tensor to be <= max(RTOL, 3x PyTorch float32's own on the same
measure). Prints one line per parameter and "dump OK" at the end; exits 1
otherwise.
"""
import json
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F

NAMES = ["conv2d_0.weight", "conv2d_0.bias", "conv2d_1.weight", "conv2d_1.bias",
         "linear_0.weight", "linear_0.bias", "linear_1.weight", "linear_1.bias"]
DTYPES = {"F32": np.float32, "I64": np.int64, "I32": np.int32}


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    header.pop("__metadata__", None)
    out = {}
    for name, e in header.items():
        lo, hi = e["data_offsets"]
        out[name] = np.frombuffer(data[8 + n + lo:8 + n + hi],
                                  DTYPES[e["dtype"]]).reshape(e["shape"])
    return out


def gradients(tensors, dtype):
    """Every parameter's gradient, computed by PyTorch in dtype."""
    t = [torch.tensor(tensors["param/" + k].astype(np.float64), dtype=dtype,
                      requires_grad=True) for k in NAMES]
    x = torch.tensor(tensors["batch/inputs"].astype(np.float64), dtype=dtype)
    y = torch.tensor(tensors["batch/labels"].astype(np.int64))
    h = F.max_pool2d(F.relu(F.conv2d(x, t[0], t[1], padding=1)), 2)
    h = F.max_pool2d(F.relu(F.conv2d(h, t[2], t[3], padding=1)), 2)
    h = F.relu(torch.flatten(h, 1) @ t[4] + t[5])
    F.cross_entropy(h @ t[6] + t[7], y).backward()
    return [p.grad.to(torch.float64).numpy() for p in t]


def main():
    tensors, rtol = read(sys.argv[1]), float(sys.argv[2])
    ok = True
    for name, ref, g32 in zip(NAMES, gradients(tensors, torch.float64),
                              gradients(tensors, torch.float32)):
        scale = np.maximum(np.abs(ref), 1e-3 * np.abs(ref).max())
        ours = (np.abs(tensors[name] - ref) / scale).max()
        torch32 = (np.abs(g32 - ref) / scale).max()
        good = ours <= max(rtol, 3 * torch32)
        ok &= good
        print("%s %s max element rel %.1e (torch f32 %.1e) %s" % (
            name, list(ref.shape), ours, torch32, "ok" if good else "FAIL"))
    print("dump OK" if ok else "dump FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
