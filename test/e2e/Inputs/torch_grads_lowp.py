#!/usr/bin/python3
"""Compares the gradients of a model written over bf16 or f16 tensors with
PyTorch.

torch_grads_lowp.py MODEL DUMPGRADS DIR SCALE BATCH...: MODEL is mlp_bf16,
mlp_f16 or cnn_bf16 (Inputs/grads/MODEL.model: torch_grads.py's
784-64-32-10 MLP or its CNN, with every activation and parameter read in
the low type). For each batch size
it runs the dumpgrads executable as torch_grads.py does, then recomputes
the loss and every gradient three ways:
  - the reference: float64, rounding to the low type after every op of the
    forward pass and of the backward pass, where modelc rounds (its
    mdl-widen-low-precision pass: each op computes in f32 and rounds its
    result once; parameters are f32 masters rounded where they are read);
  - PyTorch's own bf16 tensors (bf16 only: PyTorch 1.13 has no f16 matmul
    on the CPU), which round at the same places;
  - float64 without any rounding: what a program that ignored the types
    would compute.
Errors are max|g - ref| / max(max|ref|, floor) per tensor (floor as in
torch_grads.py). modelc and the reference differ only where f32 and
float64 sums of the same rounded values land on two sides of a rounding
boundary: one unit in the last place (u = 2^-8 for bf16, 2^-11 for f16) of
that value, carried through at most the three layers behind it. A tensor
passes when modelc's error is at most 4u, no more than 3x PyTorch bf16's
where there is one, and when the unrounded float64 computation is
farther from the reference than modelc (else the types were not honoured).
Exits 1 when any tensor fails.
"""
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_grads import load  # noqa: E402

LOW = {"mlp_bf16": torch.bfloat16, "mlp_f16": torch.float16,
       "cnn_bf16": torch.bfloat16}
ULP = {torch.bfloat16: 2.0 ** -8, torch.float16: 2.0 ** -11}


def rounder(low):
    """Rounds to `low` in the forward pass and the gradient in the backward
    pass (the values stay float64)."""
    class Round(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.to(low).to(x.dtype)

        @staticmethod
        def backward(ctx, g):
            return g.to(low).to(g.dtype)
    return Round.apply


def mlp(x, t, r):
    """The MLP with rounding r after each op (r(x) at the cast to the low
    type; the final cast to f32 is exact)."""
    w = [r(p) for p in t]
    h = r(torch.flatten(x, 1))
    for k in (0, 2):
        h = r(F.relu(r(r(h @ w[k]) + w[k + 1])))
    return r(r(h @ w[4]) + w[5])


def cnn(x, t, r):
    """The CNN with rounding r after each op."""
    w = [r(p) for p in t]
    h = r(x)
    for k in (0, 2):
        h = r(F.max_pool2d(r(F.relu(r(F.conv2d(h, w[k], w[k + 1], padding=1)))), 2))
    return r(r(torch.flatten(h, 1) @ w[4]) + w[5])


def forward(model, x, t, r):
    return (cnn if model.startswith("cnn") else mlp)(x, t, r)


def gradients(model, params, x, labels, dtype, r):
    t = [torch.tensor(p.astype(np.float64), dtype=dtype, requires_grad=True)
         for _, p, _ in params]
    inputs = torch.tensor(x.astype(np.float64), dtype=dtype)
    logits = forward(model, inputs, t, r).to(torch.float64)
    loss = F.cross_entropy(logits, torch.tensor(labels))
    loss.backward()
    return loss.item(), [p.grad.to(torch.float64).numpy() for p in t]


def native(model, params, x, labels, low):
    """PyTorch's low-precision tensors: f32 masters, each read as low."""
    t = [torch.tensor(p, requires_grad=True) for _, p, _ in params]
    logits = forward(model, torch.tensor(x), t, lambda v: v.to(low)).to(torch.float32)
    F.cross_entropy(logits, torch.tensor(labels)).backward()
    return [p.grad.to(torch.float64).numpy() for p in t]


def compare(model, dump):
    low = LOW[model]
    loss, params, x, labels = load(dump)
    ref_loss, ref = gradients(model, params, x, labels, torch.float64, rounder(low))
    _, plain = gradients(model, params, x, labels, torch.float64, lambda v: v)
    theirs = native(model, params, x, labels, low) if low == torch.bfloat16 else None
    tol = 4 * ULP[low]
    print("%s batch %d loss %.6f reference %.6f (tolerance %.2e)" % (
        model, len(x), loss, ref_loss, tol))
    floor = 1e-2 * max(np.abs(r).max() for r in ref)
    failed = []
    for i, ((name, _, grad), r, p) in enumerate(zip(params, ref, plain)):
        scale = max(np.abs(r).max(), floor)
        ours = np.abs(grad - r).max() / scale
        unrounded = np.abs(p - r).max() / scale
        torch_low = np.abs(theirs[i] - r).max() / scale if theirs else None
        ok = ours <= tol and unrounded > ours and (
            torch_low is None or ours <= max(3 * torch_low, ULP[low]))
        print("%-22s modelc %.2e  unrounded %.2e  torch-%s %s  %s" % (
            name, ours, unrounded, "bf16" if theirs else "f16",
            "%.2e" % torch_low if torch_low is not None else "-",
            "ok" if ok else "FAIL"))
        if not ok:
            failed.append(name)
    print("%s: %s" % (model, "OK" if not failed else "FAIL " + " ".join(failed)))
    return not failed


def main():
    model, dumpgrads, directory, scale = sys.argv[1:5]
    ok = True
    for batch in sys.argv[5:]:
        dump = os.path.join(directory, "%s%s" % (model, batch))
        os.makedirs(dump, exist_ok=True)
        subprocess.run([dumpgrads, batch, "0", dump, scale], check=True)
        ok = compare(model, dump) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
