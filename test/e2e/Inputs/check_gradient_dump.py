#!/usr/bin/env python3
"""Checks a `train --dump-gradients` file of Inputs/tiny.model in float64.

check_gradient_dump.py FILE DATA_DIR RTOL: reads FILE (safetensors: json +
struct), prints its tensor names and metadata keys, checks that
`batch/inputs` are the training images at `batch.indices` (divided by 255,
as tiny.model's data block says, to f32 precision) and `batch/labels` their labels, then
recomputes the loss and every gradient of Tiny (flatten -> linear(8) ->
relu -> linear(3), mean cross-entropy) in numpy float64 from `param/NAME`
and the batch, and requires for each parameter
max|g - ref| <= RTOL * max|ref| (and the loss within RTOL relative).
Prints one line per parameter and "dump OK" at the end; exits 1 otherwise.
"""
import json
import os
import struct
import sys

import numpy as np

DTYPES = {"F32": np.float32, "F64": np.float64, "I64": np.int64, "I32": np.int32,
          "U8": np.uint8}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    body = data[8 + n:]
    tensors = {}
    for name, t in header.items():  # json keeps the file's order
        begin, end = t["data_offsets"]
        arr = np.frombuffer(body[begin:end], dtype=DTYPES[t["dtype"]])
        tensors[name] = arr.reshape(t["shape"])
    return tensors, meta


def read_idx(path):
    with open(path, "rb") as f:
        data = f.read()
    rank = data[3]
    dims = struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank])
    return np.frombuffer(data[4 + 4 * rank:], dtype=np.uint8).reshape(dims)


def reference(t, x, y):
    """Loss and gradients of Tiny in float64."""
    w0, b0 = t["param/linear_0.weight"].astype(np.float64), t["param/linear_0.bias"]
    w1, b1 = t["param/linear_1.weight"].astype(np.float64), t["param/linear_1.bias"]
    n = x.shape[0]
    h_in = x.reshape(n, -1).astype(np.float64)
    z = h_in @ w0 + b0
    h = np.maximum(z, 0)
    logits = h @ w1 + b1
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    loss = -np.log(p[np.arange(n), y]).mean()
    d = p.copy()
    d[np.arange(n), y] -= 1
    d /= n
    grads = {"linear_1.weight": h.T @ d, "linear_1.bias": d.sum(axis=0)}
    dz = (d @ w1.T) * (z > 0)
    grads["linear_0.weight"] = h_in.T @ dz
    grads["linear_0.bias"] = dz.sum(axis=0)
    return loss, grads


def main():
    path, data_dir, rtol = sys.argv[1], sys.argv[2], float(sys.argv[3])
    t, meta = read_safetensors(path)
    print("tensors", " ".join(t))
    print("metadata", " ".join(sorted(meta)))
    ok = True
    idx = np.array([int(i) for i in meta["batch.indices"].split(",")])
    images = read_idx(os.path.join(data_dir, "train-images.idx"))
    labels = read_idx(os.path.join(data_dir, "train-labels.idx"))
    x, y = t["batch/inputs"], t["batch/labels"]
    print("batch", meta["batch.size"], "indices", len(idx), "distinct", len(set(idx)))
    if not (np.allclose(x, images[idx] / 255.0, rtol=1e-6, atol=0) and
            np.array_equal(y, labels[idx].astype(np.int64))):
        print("MISMATCH: batch/inputs or batch/labels are not the samples at batch.indices")
        ok = False
    loss, grads = reference(t, x, y)
    if abs(float(meta["loss"]) - loss) > rtol * abs(loss):
        print("MISMATCH: loss %s, float64 %.9g" % (meta["loss"], loss))
        ok = False
    for name in [n for n in t if n in grads]:  # the file's order
        ref = grads[name]
        g = t[name].astype(np.float64)
        err = np.abs(g - ref).max() / max(np.abs(ref).max(), 1e-30)
        good = g.shape == ref.shape and err <= rtol
        ok = ok and good
        print("%s %s max|g - ref|/max|ref| %.2e %s" % (name, list(g.shape), err,
                                                       "ok" if good else "MISMATCH"))
    print("dump OK" if ok else "dump FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
