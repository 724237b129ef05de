#!/usr/bin/env python3
"""Compares the per-step learning rates of a run's steps.csv with PyTorch's.

torch_schedule.py STEPS.csv LR TOTAL one_cycle PCT DIV FINAL_DIV
torch_schedule.py STEPS.csv LR TOTAL linear WARMUP MIN_LR

Steps SGD(lr=LR) for TOTAL steps under torch.optim.lr_scheduler's
OneCycleLR (cycle_momentum=False), or SequentialLR of two LinearLRs (a
warmup from LR/WARMUP to LR over WARMUP steps, then a line to MIN_LR at
TOTAL), and checks that row k of steps.csv (optimizer step k, 1-based,
logged with --log-every 1) used PyTorch's rate for step k, to a relative
1e-6 (the file keeps 9 digits). Exits 1 at the first mismatch.
"""
import csv
import sys
import warnings

import torch

S = torch.optim.lr_scheduler


def schedule(opt, lr, total, kind, args):
    if kind == "one_cycle":
        pct, div, final = map(float, args)
        return S.OneCycleLR(opt, max_lr=lr, total_steps=total, pct_start=pct,
                            div_factor=div, final_div_factor=final,
                            cycle_momentum=False)
    warmup, min_lr = int(args[0]), float(args[1])
    rise = S.LinearLR(opt, start_factor=1 / warmup, end_factor=1,
                      total_iters=warmup - 1)
    fall = S.LinearLR(opt, start_factor=1, end_factor=min_lr / lr,
                      total_iters=total - warmup)
    return S.SequentialLR(opt, [rise, fall], milestones=[warmup])


def torch_rates(lr, total, kind, args):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=lr)
    sched = schedule(opt, lr, total, kind, args)
    rates = []
    for _ in range(total):
        rates.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return rates


def main():
    path, lr, total, kind = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = torch_rates(lr, total, kind, sys.argv[5:])
    rows = list(csv.DictReader(open(path)))
    got = [float(r["lr"]) for r in rows]
    steps = [int(float(r["step"])) for r in rows]
    if steps != list(range(1, total + 1)):
        sys.exit("FAIL: steps.csv has steps %s, expected 1..%d" % (steps[:5], total))
    for k, (g, w) in enumerate(zip(got, want), start=1):
        if abs(g - w) > 1e-6 * abs(w):
            sys.exit("FAIL: step %d used lr %.9g, PyTorch %.9g" % (k, g, w))
    print("%s: %d steps match PyTorch (first %.9g, peak %.9g, last %.9g)"
          % (kind, total, got[0], max(got), got[-1]))


if __name__ == "__main__":
    main()
