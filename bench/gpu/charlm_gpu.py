#!/usr/bin/env python3
"""bench/gpu/charlm_gpu.py — the char-LM's training step on the GPU in PyTorch.

    python3 charlm_gpu.py --text FILE [--batches 32,128] [--steps 200]
                          [--modes eager,sdpa,compile] [--out FILE.jsonl]

The model is bench/compare/torch_models.py's CharLM (examples/charlm/charlm.model
in PyTorch: 4 blocks, 4 heads, width 128, context 128, AdamW, clipping, the
cosine schedule's warm-up). Modes:
  eager    the model as written there (scores, mask, softmax, value product);
  sdpa     attention through F.scaled_dot_product_attention(is_causal=True)
           (PyTorch's fused kernels; fp32 takes the memory-efficient one);
  compile  sdpa under torch.compile (the default mode).
Prints one JSON line per (mode, batch): steady tokens/s over --steps steps
after --warmup untimed ones (the GPU synchronised around the timed span),
the first steps' losses, the device and the versions. Matrix products stay
fp32 (PyTorch's default: no TF32), as modelc's cuBLAS calls.
"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compare"))
import torch_models as tm  # noqa: E402


def sdpaForward(self, x, cache=None):
    """CausalSelfAttention.forward through scaled_dot_product_attention."""
    B, T, C = x.shape
    qkv = self.c_attn(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
    y = F.scaled_dot_product_attention(qkv[0], qkv[1], qkv[2], is_causal=True)
    return self.c_proj(y.transpose(1, 2).reshape(B, T, C))


def run(mode, batch, train, c, args):
    torch.manual_seed(args.seed)
    tm.CausalSelfAttention.forward = sdpaForward if mode != "eager" else ORIGINAL
    model = tm.CharLM(c).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=c["lr"], betas=(0.9, 0.999), eps=1e-8,
                            weight_decay=c["weight_decay"])
    step_model = torch.compile(model) if mode == "compile" else model
    gen = torch.Generator().manual_seed(args.seed)
    T = c["context"]
    total = args.warmup + args.steps
    starts = torch.randint(len(train) - T, (total * batch,), generator=gen)
    offsets = torch.arange(T + 1)
    data = train.cuda()
    losses = []
    model.train()
    t0 = None
    tCompile = time.perf_counter()
    for s in range(total):
        if s == args.warmup:
            torch.cuda.synchronize()
            t0 = time.perf_counter()
        sel = data[(starts[s * batch:(s + 1) * batch, None] + offsets).cuda()]
        for g in opt.param_groups:
            g["lr"] = tm.charlmLr(c, s, total)
        logits = step_model(sel[:, :T])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), sel[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), c["clip_norm"])
        opt.step()
        if s < 5:
            losses.append(loss.item())
        if s == 0:
            firstStep = time.perf_counter() - tCompile
    torch.cuda.synchronize()
    secs = time.perf_counter() - t0
    return {"side": "pytorch", "mode": mode, "batch": batch, "steps": args.steps,
            "tokens_per_s": args.steps * batch * T / secs, "step_ms": 1e3 * secs / args.steps,
            "first_step_seconds": firstStep, "first_losses": losses,
            "device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "tf32_matmul": torch.backends.cuda.matmul.allow_tf32}


ORIGINAL = tm.CausalSelfAttention.forward


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--text", required=True)
    p.add_argument("--batches", default="32,128")
    p.add_argument("--modes", default="eager,sdpa,compile")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None)
    args = p.parse_args()
    c = dict(tm.CHARLM)
    train, _, vocab = tm.charlmData(args.text, c)
    c["vocab"] = max(c["vocab"], len(vocab))
    for batch in (int(b) for b in args.batches.split(",")):
        for mode in args.modes.split(","):
            try:
                r = run(mode, batch, train, c, args)
            except Exception as e:  # one failing mode must not hide the others
                r = {"side": "pytorch", "mode": mode, "batch": batch, "error": repr(e)[:300]}
            line = json.dumps(r)
            print(line, flush=True)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(line + "\n")


if __name__ == "__main__":
    main()
