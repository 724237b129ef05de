#!/usr/bin/env python3
"""bench/compare/kernels.py — where a training step's time goes, per kernel,
against the machine's measured FMA peak.

    /usr/bin/python3 bench/compare/kernels.py [--models mlp,cnn] [--cnn-train-images 6400]
        [--modelc BIN] [--work DIR] [--top 16]

Compiles each model (bench/compare/mlp.model; examples/fashion_mnist/cnn.model
on a training subset), trains one epoch with `--profile`, and prints a
Markdown table of its slowest kernels: time per call, share of the kernel
time, GFLOP/s (the runtime's FLOP count per kernel) and that rate as a
fraction of the FMA peak measured in the same run (fma_peak.c on every
core). Matrix products are the kernels named `...cblas_sgemm`; the rest are
the compiled loop kernels. Also prints the CPU line and the product library
that the executable reports. A benchmark, not a test.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run as compare  # noqa: E402  (data subsets, FMA peak)

# time, share, calls, GFLOP/s, fraction of the peak, precision, kernel.
KERNEL = re.compile(r"^\s+([0-9.]+)\s+([0-9.]+)%\s+(\d+)\s+([0-9.]+|-)\s+(?:[0-9.]+%|-)\s+"
                    r"(?:-|f32|bf16 \S+)\s+(.*)$")


def profileKernels(net, ck, env):
    out = subprocess.run([net, "train", "--epochs", "1", "--batch", "64", "--device", "cpu",
                          "--checkpoint-dir", ck, "--profile"], capture_output=True, text=True,
                         env=env, check=True).stdout
    rows, extra = [], []
    for line in out.splitlines():
        m = KERNEL.match(line)
        if m:
            ms, share, calls, rate, name = m.groups()
            rows.append((float(ms), float(share), int(calls),
                         None if rate == "-" else float(rate), name))
        elif line.startswith("profile: CPU:") or line.startswith("profile: matrix products"):
            extra.append(line[len("profile: "):])
        elif re.match(r"^\s+step \(forward \+ backward\)", line):
            extra.append("step phase: " + line.split(")", 1)[1].strip())
    return rows, extra


def main():
    ap = argparse.ArgumentParser(description="per-kernel time of a training step")
    ap.add_argument("--models", default="mlp,cnn")
    ap.add_argument("--cnn-train-images", type=int, default=6400)
    ap.add_argument("--modelc", default=os.path.join(ROOT, "build", "bin", "modelc"))
    ap.add_argument("--work", default=None)
    ap.add_argument("--top", type=int, default=16)
    ap.add_argument("--config", choices=("native", "avx2"), default="native")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="modelc-kernels-")
    os.makedirs(work, exist_ok=True)
    machine = compare.machineInfo(work, args.config)
    peak = machine["fma_peak"][str(machine["cores"])]
    print("CPU: %s (family %s, model %s); measured %s FMA peak on %d cores: %.0f GFLOP/s" % (
        machine.get("model name"), machine.get("cpu family"), machine.get("model"), peak["isa"],
        machine["cores"], peak["gflops"]))
    env = compare.modelcEnvironment(args.config)
    for name in [m for m in args.models.split(",") if m]:
        cfg = dict(compare.MODELS[name])
        if name == "cnn":
            cfg["train"], cfg["test"] = args.cnn_train_images, 1000
        model, _ = compare.prepareData(work, name, cfg)
        net = os.path.join(work, name, name)
        extra = ["--target-cpu=haswell"] if args.config == "avx2" else []
        subprocess.run([args.modelc, model, "-o", net] + extra, check=True)
        rows, lines = profileKernels(net, os.path.join(work, name, "ck"), env)
        print("\n### %s, batch 64 (%d training images)\n" % (name.upper(), cfg["train"] or 60000))
        for l in lines:
            print("* " + l)
        print("\n| kernel | us per call | share | GFLOP/s | of peak |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for ms, share, calls, rate, kname in rows[:args.top]:
            frac = "%.0f%%" % (100 * rate / peak["gflops"]) if rate else "—"
            print("| `%s` | %.1f | %.1f%% | %s | %s |" % (
                kname, 1000 * ms / calls, share, "%.1f" % rate if rate else "—", frac))
    with open(os.path.join(work, "machine.json"), "w") as f:
        json.dump(machine, f, indent=1)


if __name__ == "__main__":
    main()
