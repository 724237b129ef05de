#!/usr/bin/python3
"""bench/attention/torch_attention.py — PyTorch's attention on the benchmark's shapes.

PyTorch 1.13 (Debian's python3-torch) has no scaled_dot_product_attention,
so this is the composition a model would write: scores = q @ k^T * scale,
masked_fill(-inf) above the bottom-right-aligned causal diagonal, softmax
over the keys, @ v; the backward is autograd's, out.backward(dout). Per
shape: the median of REPS forward times (with the autograd graph built, as
in training) and of REPS backward times, after 3 warm-ups, with
torch.set_num_threads(THREADS). Prints one JSON object per shape, with the
same fields as bench-attention, and first one describing the library
(version, ATen's CPU capability, threads, OPENBLAS_CORETYPE).

Usage: torch_attention.py REPS THREADS WIDTHS CONTEXTS CAUSALS   (e.g. 20 2 32,64 128,512 1,0)
"""
import json
import math
import os
import sys
import time

import torch


def capability():
    """ATen's CPU capability line of torch.__config__.show(), if any."""
    for line in torch.__config__.show().splitlines():
        if "CPU capability" in line:
            return line.split(":", 1)[1].strip()
    return "unknown"


def attention(q, k, v, causal):
    """softmax(q k^T / sqrt(W) + mask) v, the mask aligned at the bottom right."""
    tq, tk, w = q.shape[-2], k.shape[-2], q.shape[-1]
    scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(w))
    if causal:
        hidden = torch.ones(tq, tk, dtype=torch.bool).triu(tk - tq + 1)
        scores = scores.masked_fill(hidden, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def timeShape(batch, heads, context, width, causal, reps):
    """Median forward and backward milliseconds of one shape."""
    g = torch.Generator().manual_seed(1)
    shape = (batch, heads, context, width)
    q, k, v = (torch.rand(shape, generator=g).mul_(2).sub_(1).requires_grad_() for _ in range(3))
    dout = torch.rand(shape, generator=g)
    fwd, bwd = [], []
    for r in range(reps + 3):
        q.grad = k.grad = v.grad = None
        t0 = time.perf_counter()
        out = attention(q, k, v, causal)
        t1 = time.perf_counter()
        out.backward(dout)
        t2 = time.perf_counter()
        if r >= 3:
            fwd.append((t1 - t0) * 1e3)
            bwd.append((t2 - t1) * 1e3)
    return median(fwd), median(bwd)


def main():
    reps, threads = int(sys.argv[1]), int(sys.argv[2])
    widths, contexts, causals = ([int(x) for x in a.split(",")] for a in sys.argv[3:6])
    torch.set_num_threads(threads)
    print(json.dumps({"torch": torch.__version__, "capability": capability(),
                      "threads": torch.get_num_threads(),
                      "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE", "")}), flush=True)
    for context in contexts:
        for width in widths:
            for causal in causals:
                fwd, bwd = timeShape(16, 4, context, width, bool(causal), reps)
                flops = 4.0 * 16 * 4 * context * context * width / (2 if causal else 1)
                print(json.dumps({"batch": 16, "heads": 4, "context": context, "width": width,
                                  "causal": bool(causal), "forward_ms": fwd, "backward_ms": bwd,
                                  "total_gflops": 3.5 * flops / (fwd + bwd) * 1e-6}), flush=True)


if __name__ == "__main__":
    main()
