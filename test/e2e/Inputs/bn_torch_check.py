#!/usr/bin/python3
"""Compares one compiled train_step's gradients with PyTorch float64 autograd.

bn_torch_check.py --write-idx DIR: writes DIR/train-{images,labels}.idx (a
few 28x28 images, only so that bn_cnn.model's data block compiles).
bn_torch_check.py DUMP TOL: reads what dumpgrads.cpp wrote into DUMP (the
float32 parameters, inputs, labels and compiled gradients of bn_cnn.model),
recomputes the loss and gradients in float64 with PyTorch (batch norm in
training mode with the biased batch variance, eps 1e-5) and prints, per
tensor, the worst error relative to the tensor's largest reference
magnitude, max|g - ref| / max|ref|. Exits 1 when any exceeds TOL.
"""
import os
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F


def write_idx(directory):
    n = 16
    with open(os.path.join(directory, "train-images.idx"), "wb") as f:
        f.write(struct.pack(">BBBBIII", 0, 0, 8, 3, n, 28, 28))
        f.write(bytes((i * 7) % 256 for i in range(n * 28 * 28)))
    with open(os.path.join(directory, "train-labels.idx"), "wb") as f:
        f.write(struct.pack(">BBBBI", 0, 0, 8, 1, n))
        f.write(bytes(i % 10 for i in range(n)))


def load(dump):
    with open(os.path.join(dump, "manifest.txt")) as f:
        lines = f.read().split("\n")
    loss = float(lines[0].split()[1])
    params = []
    for i, line in enumerate(l for l in lines[1:] if l):
        fields = line.split()
        shape = tuple(int(v) for v in fields[2:2 + int(fields[1])])
        value = np.fromfile(os.path.join(dump, "param%d.f32" % i), np.float32)
        grad = np.fromfile(os.path.join(dump, "grad%d.f32" % i), np.float32)
        params.append((fields[0], value.reshape(shape), grad.reshape(shape)))
    labels = np.fromfile(os.path.join(dump, "labels.i64"), np.int64)
    x = np.fromfile(os.path.join(dump, "x.f32"), np.float32)
    return loss, params, x.reshape(len(labels), 1, 28, 28), labels


def reference(params, x, labels):
    """The float64 loss and gradients, parameters in the manifest's order:
    conv, batch norm, conv, batch norm (weight then bias each), linear."""
    t = [torch.tensor(p.astype(np.float64), requires_grad=True)
         for _, p, _ in params]
    h = torch.tensor(x.astype(np.float64))
    for k in (0, 4):
        h = F.conv2d(h, t[k], t[k + 1], padding=1)
        h = F.batch_norm(h, None, None, t[k + 2], t[k + 3], training=True,
                         eps=1e-5)
        h = F.max_pool2d(F.relu(h), 2)
    logits = torch.flatten(h, 1) @ t[8] + t[9]
    loss = F.cross_entropy(logits, torch.tensor(labels))
    loss.backward()
    return loss.item(), [p.grad.numpy() for p in t]


def main():
    if sys.argv[1] == "--write-idx":
        return write_idx(sys.argv[2])
    loss, params, x, labels = load(sys.argv[1])
    tol = float(sys.argv[2])
    assert len(params) == 10, [name for name, _, _ in params]
    ref_loss, ref_grads = reference(params, x, labels)
    print("batch %d loss %.6f reference %.6f" % (len(labels), loss, ref_loss))
    worst = abs(loss - ref_loss) / abs(ref_loss)
    floor = 1e-2 * max(np.abs(ref).max() for ref in ref_grads)
    for (name, _, grad), ref in zip(params, ref_grads):
        err = np.abs(grad - ref).max() / max(np.abs(ref).max(), floor)
        print("%-22s %.2e" % (name, err))
        worst = max(worst, err)
    print("worst %.2e: %s" % (worst, "OK" if worst <= tol else "TOO LARGE"))
    return 0 if worst <= tol else 1


if __name__ == "__main__":
    sys.exit(main())
