#!/usr/bin/env python3
"""PyTorch's loss for slicing.model on gradcheck.cpp's inputs.

slicing_reference.py GRADCHECK_OUTPUT: recomputes the parameters, inputs
and labels gradcheck.cpp draws from its LCG (seed 42; parameters in
declaration order, nn.linear's weight as [in, out]), runs the model of
Inputs/slicing.model with torch's own slicing, and compares its cross
entropy with the `loss` gradcheck printed (|diff| <= 1e-5). Prints
"reference loss ok" or the two values and exits 1.
"""
import sys

import torch

MASK = (1 << 64) - 1
state = 42


def nxt():
    """gradcheck.cpp's next(): uniform in [-1, 1)."""
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) & MASK
    return (state >> 11) / float(1 << 53) * 2 - 1


def fill(*shape):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([0.5 * nxt() for _ in range(n)],
                        dtype=torch.float32).reshape(shape)


def main():
    w0, b0, w1, b1 = fill(12, 12), fill(12), fill(11, 3), fill(3)
    batch = 5
    x = torch.tensor([nxt() for _ in range(batch * 16)],
                     dtype=torch.float32).reshape(batch, 4, 4)
    labels = torch.tensor([int((nxt() + 1) / 2 * 3) % 3 for _ in range(batch)])
    h = torch.tanh(x[:, 1:, :].flatten(1) @ w0 + b0)
    t = h.reshape(batch, 3, 4)
    a = t[:, 0:2, ::2].flatten(1)
    b = t[..., -1]
    c = t[:, -1] * t[:, 0, 1:-1:2]
    logits = torch.cat([a, b, c], 1) @ w1 + b1
    ref = float(torch.nn.functional.cross_entropy(logits, labels))
    with open(sys.argv[1]) as f:
        got = float(f.readline().split()[1])
    if abs(ref - got) > 1e-5:
        print(f"MISMATCH: compiled loss {got}, PyTorch {ref}")
        return 1
    print("reference loss ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
