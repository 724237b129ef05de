#!/usr/bin/python3
"""Compares a train_step compiled with `precision = bf16` with PyTorch.

torch_bf16_grads.py MODEL DUMPGRADS DIR SCALE BATCH: runs the dumpgrads
executable (Inputs/dumpgrads.cpp: BATCH, offset 0, DIR/<model>, SCALE) on
Inputs/grads/MODEL.model (mlp or cnn) compiled with --precision=bf16, then
recomputes the loss and every gradient three ways on the same weights and
batch:
  - bf16 reference: float64, with the operands of every product and
    convolution (forward, and both backward products) rounded to bf16 as
    modelc's semantics say (docs/precision.md), everything else exact;
  - exact: float64, no rounding;
  - autocast: PyTorch's torch.autocast("cpu", dtype=torch.bfloat16) in
    float32 (PyTorch's own mixed precision: products in bf16, their
    results bf16 too).
Errors are max|g - ref| / max|ref| per tensor. A tensor passes when:
  - against the bf16 reference, modelc is within 2^-8 (bf16's unit
    roundoff, 8 significant bits): f32 and f64 accumulation only differ
    in which values land on the other side of a bf16 rounding boundary,
    each such flip moving one operand by at most one bf16 unit;
  - against the exact gradients, modelc is no worse than autocast (times
    1.5, for the ties between two roundings of the same size), i.e. it is
    as accurate as PyTorch's mixed precision.
Prints one row per tensor and exits 1 when any fails.
"""
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_grads  # noqa: E402  (load, the models)

U16 = 2.0 ** -8  # bf16's unit roundoff


def bf16(x):
    """x rounded to bf16 (to nearest even, through float32), as float64."""
    return x.to(torch.float32).to(torch.bfloat16).to(torch.float64)


class Matmul(torch.autograd.Function):
    """a @ b with both operands rounded to bf16, forwards and backwards."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return bf16(a) @ bf16(b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return bf16(g) @ bf16(b).T, bf16(a).T @ bf16(g)


# A weight gradient over fewer input channels than this stays f32 (modelc's
# mdl-assign-precision, kF32WeightGradientChannels).
F32_WEIGHT_GRADIENT_CHANNELS = 4


class Conv(torch.autograd.Function):
    """conv2d (stride 1, padding 1, no bias) with bf16-rounded operands,
    but for the weight gradient over fewer than 4 input channels."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return F.conv2d(bf16(x), bf16(w), padding=1)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        gx = torch.nn.grad.conv2d_input(x.shape, bf16(w), bf16(g), padding=1)
        wide = x.shape[1] >= F32_WEIGHT_GRADIENT_CHANNELS
        gw = torch.nn.grad.conv2d_weight(bf16(x) if wide else x, w.shape,
                                         bf16(g) if wide else g, padding=1)
        return gx, gw


def linear(h, t, k):
    return Matmul.apply(h, t[k]) + t[k + 1]


def conv(h, t, k):
    return Conv.apply(h, t[k]) + t[k + 1].view(1, -1, 1, 1)


def mlp(x, t):
    h = F.relu(linear(torch.flatten(x, 1), t, 0))
    return linear(F.relu(linear(h, t, 2)), t, 4)


def cnn(x, t):
    h = F.max_pool2d(F.relu(conv(x, t, 0)), 2)
    h = F.max_pool2d(F.relu(conv(h, t, 2)), 2)
    return linear(torch.flatten(h, 1), t, 4)


ROUNDED = {"mlp": mlp, "cnn": cnn}


def grads(forward, params, x, labels, dtype, autocast=False):
    t = [torch.tensor(p.astype(np.float64), dtype=dtype, requires_grad=True)
         for _, p, _ in params]
    inputs = torch.tensor(x.astype(np.float64), dtype=dtype)
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        logits = forward(inputs, t)
    loss = F.cross_entropy(logits.float().to(dtype), torch.tensor(labels))
    loss.backward()
    return loss.item(), [p.grad.to(torch.float64).numpy() for p in t]


def main():
    model, dumpgrads, directory, scale, batch = sys.argv[1:6]
    dump = os.path.join(directory, model)
    os.makedirs(dump, exist_ok=True)
    subprocess.run([dumpgrads, batch, "0", dump, scale], check=True)
    loss, params, x, labels = torch_grads.load(dump)
    ref_loss, ref = grads(ROUNDED[model], params, x, labels, torch.float64)
    _, exact = grads(torch_grads.MODELS[model], params, x, labels, torch.float64)
    _, auto = grads(torch_grads.MODELS[model], params, x, labels, torch.float32, True)
    print("%s bf16 batch %s loss %.6f bf16 reference %.6f" % (model, batch, loss, ref_loss))
    failed = []
    for (name, _, g), r, e, a in zip(params, ref, exact, auto):
        ours_ref = np.abs(g - r).max() / np.abs(r).max()
        ours = np.abs(g - e).max() / np.abs(e).max()
        autocast = np.abs(a - e).max() / np.abs(e).max()
        ok = ours_ref <= U16 and ours <= 1.5 * autocast
        print("%-16s vs bf16 reference %.2e  vs exact %.2e  autocast vs exact %.2e  %s" % (
            name, ours_ref, ours, autocast, "ok" if ok else "FAIL"))
        if not ok:
            failed.append(name)
    print("bf16 %s: %s" % (model, "OK" if not failed else "FAIL " + " ".join(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
