#!/usr/bin/env python3
"""bench/compare/accuracy.py — test accuracy after several epochs, over seeds.

    /usr/bin/python3 bench/compare/accuracy.py [--models mlp,cnn] [--epochs 3]
        [--seeds 5] [--autocast] [--modelc BIN] [--work DIR]
        [--report RESULTS.json]

Issue 23's accuracy target: after 3 epochs on the whole of Fashion-MNIST,
`precision = bf16` within 0.5 point of f32 for the MLP and the CNN, and of
PyTorch f32. One run's accuracy moves by more than that from seed to seed
(the MLP after one epoch: 84.1% to 85.8% over seeds 1-6), so each side
trains once per seed and the report compares means.

For each model (run.py's: bench/compare/mlp.model, 784-256-128-10;
examples/fashion_mnist/cnn.model, SimpleCNN) and each seed S = 1..N:
  * modelc f32 and modelc --precision=bf16, each `NET train --epochs E
    --seed S` on all 60,000 training images; the accuracy on the 10,000
    test images after the last epoch, from metrics.csv. Both builds draw
    the same initial weights, batches, flips and dropout masks from S, so
    their difference is paired: it is the precision's alone;
  * PyTorch f32 (torch_models.py --epochs E --seed S --accuracy-only, the
    inherited environment, 2 threads), and with --autocast the same under
    torch.autocast bf16 (slow on a CPU without bf16 instructions: the CNN
    at about 115 samples/s on a Zen 3).
The report: each run's accuracy; per side the mean and the sample standard
deviation; the differences of means against the target, with their
standard error (paired for modelc bf16 - f32, unpaired against PyTorch).
Also recorded: the CPU, its flags, the FMA peak and each side's kernels
(run.py's machineInfo, `NET info`'s kernel lines, ATen's capability).
Raw results go to WORK/results.json. A measurement, not a test.
"""
import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time

import run  # noqa: E402  (the data, the models, timed(), machineInfo())

TARGET_POINTS = 0.5
SIDES = [("modelc f32", "modelc", "f32"), ("modelc bf16", "modelc", "bf16"),
         ("PyTorch f32", "torch", "f32"), ("PyTorch autocast bf16", "torch", "bf16")]


def compileBoth(args, work, name, model):
    """The f32 and the bf16 executables of one model."""
    nets = {}
    for precision in ("f32", "bf16"):
        net = os.path.join(work, name, "%s_%s" % (name, precision))
        run.timed([args.modelc, "--no-gpu", "--precision=" + precision, model, "-o", net])
        nets[precision] = net
    return nets


def trainModelc(net, work, name, precision, seed, epochs):
    """One `NET train`: the test accuracy after the last epoch."""
    ck = os.path.join(work, name, "ck_%s_%d" % (precision, seed))
    shutil.rmtree(ck, ignore_errors=True)
    log = os.path.join(work, name, "train_%s_%d.log" % (precision, seed))
    secs, _, _ = run.timed([net, "train", "--epochs", str(epochs), "--batch", "64",
                            "--seed", str(seed), "--device", "cpu", "--checkpoint-dir", ck,
                            "--log-every", "0"], log=log)
    return {"val_accuracy": run.readAccuracy(ck), "seconds": secs, "log": log}


def trainTorch(name, precision, seed, epochs):
    cmd = [run.PYTHON, os.path.join(run.HERE, "torch_models.py"), "--model", name,
           "--seed", str(seed), "--epochs", str(epochs), "--accuracy-only"] + \
        (["--autocast"] if precision == "bf16" else [])
    secs, _, out = run.timed(cmd, env=dict(os.environ))
    r = json.loads(out.strip().splitlines()[-1])
    return {"val_accuracy": r["val_accuracy"], "seconds": secs, "kernels": r["kernels"]}


def benchModel(args, work, name):
    cfg = dict(run.MODELS[name], train=0, test=0)
    model, _ = run.prepareData(work, name, cfg)
    nets = compileBoth(args, work, name, model)
    out = {"source": cfg["source"], "runs": {s: [] for s, _, _ in SIDES},
           "kernels": {p: run.modelcKernels(net, dict(os.environ)) for p, net in nets.items()}}
    for seed in range(1, args.seeds + 1):
        for side, tool, precision in SIDES:
            if side == "PyTorch autocast bf16" and not args.autocast:
                continue
            print("[%s] seed %d: %s" % (name, seed, side), file=sys.stderr, flush=True)
            if tool == "modelc":
                r = trainModelc(nets[precision], work, name, precision, seed, args.epochs)
            else:
                r = trainTorch(name, precision, seed, args.epochs)
            r["seed"] = seed
            out["runs"][side].append(r)
    return out


def pct(x):
    return "%.2f" % (100 * x)


def difference(a, b, paired):
    """Mean of a - mean of b and its standard error, in points."""
    n = min(len(a), len(b))
    if paired:
        d = [x - y for x, y in zip(a, b)]
        se = statistics.stdev(d) / math.sqrt(n) if n > 1 else float("nan")
        return 100 * statistics.mean(d), 100 * se
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b)) \
        if n > 1 else float("nan")
    return 100 * (statistics.mean(a) - statistics.mean(b)), 100 * se


def report(results):
    lines = []
    m = results["machine"]
    lines.append("CPU: %s (family %s, model %s), %d cores; flags %s" % (
        m.get("model name"), m.get("cpu family"), m.get("model"), m["cores"],
        " ".join(f for f in m["flags"].split() if f.startswith(("avx", "amx", "fma", "f16c")))))
    peak = m["fma_peak"]
    lines.append("Measured FMA peak: " + ", ".join(
        "%.0f GFLOP/s on %s thread%s" % (v["gflops"], t, "" if t == "1" else "s")
        for t, v in sorted(peak.items())))
    lines.append("%d epoch%s of all 60,000 training images, batch 64, seeds 1-%d; accuracy "
                 "on the 10,000 test images after the last epoch, in percent." %
                 (results["epochs"], "" if results["epochs"] == 1 else "s", results["seeds"]))
    for name, res in results["models"].items():
        lines.append("")
        lines.append("### %s" % name)
        lines.append("")
        for p, k in sorted(res["kernels"].items()):
            lines.append("- modelc %s: %s" % (p, "; ".join("%s: %s" % kv for kv in k.items())))
        torchRun = next((r for s, rs in res["runs"].items() if s.startswith("PyTorch")
                         for r in rs), None)
        if torchRun:
            lines.append("- PyTorch: %s" % "; ".join("%s: %s" % kv
                                                      for kv in torchRun["kernels"].items()))
        lines.append("")
        sides = [s for s, rs in res["runs"].items() if rs]
        acc = {s: [r["val_accuracy"] for r in res["runs"][s]] for s in sides}
        seeds = [r["seed"] for r in res["runs"][sides[0]]]
        lines.append("| seed | " + " | ".join(sides) + " |")
        lines.append("| ---: |" + " ---: |" * len(sides))
        for i, seed in enumerate(seeds):
            lines.append("| %d | " % seed + " | ".join(pct(acc[s][i]) for s in sides) + " |")
        lines.append("| mean | " + " | ".join(pct(statistics.mean(acc[s])) for s in sides) + " |")
        if len(seeds) > 1:
            lines.append("| sd | " + " | ".join(pct(statistics.stdev(acc[s])) for s in sides) +
                         " |")
        lines.append("")
        lines.append("| difference of means | points | standard error | target | met |")
        lines.append("| --- | ---: | ---: | --- | --- |")
        pairs = [("modelc bf16", "modelc f32", True), ("modelc bf16", "PyTorch f32", False),
                 ("modelc f32", "PyTorch f32", False),
                 ("PyTorch autocast bf16", "PyTorch f32", True)]
        for a, b, paired in pairs:
            if a not in acc or b not in acc:
                continue
            d, se = difference(acc[a], acc[b], paired)
            target = "within %.1f" % TARGET_POINTS if a == "modelc bf16" else ""
            met = ("yes" if abs(d) <= TARGET_POINTS else "no") if target else ""
            lines.append("| %s - %s%s | %+.2f | %.2f | %s | %s |" % (
                a, b, " (paired)" if paired else "", d, se, target, met))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description="accuracy after E epochs, f32 vs bf16, over seeds")
    ap.add_argument("--models", default="mlp,cnn")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N")
    ap.add_argument("--autocast", action="store_true",
                    help="also PyTorch under torch.autocast bf16")
    run.commonArguments(ap)
    args = ap.parse_args()
    if args.report:
        with open(args.report) as f:
            print(report(json.load(f)))
        return
    names = [m for m in args.models.split(",") if m]
    for m in names:
        if m not in run.MODELS:
            sys.exit("unknown model '%s' (%s)" % (m, ", ".join(sorted(run.MODELS))))
    if args.seeds < 1 or args.epochs < 1:
        sys.exit("--seeds and --epochs take a positive count")
    work = args.work or tempfile.mkdtemp(prefix="modelc-accuracy-")
    os.makedirs(work, exist_ok=True)
    started = time.time()
    results = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "epochs": args.epochs, "seeds": args.seeds,
               "machine": run.machineInfo(work, "native"), "models": {}}
    for name in names:
        results["models"][name] = benchModel(args, work, name)
    results["minutes"] = (time.time() - started) / 60
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(report(results))
    print("raw results: %s" % os.path.join(work, "results.json"))


if __name__ == "__main__":
    main()
