#!/usr/bin/env python3
"""bench/compile/long_program.py — compile time of long programs.

Writes models of N statements and times `modelc` on each, stage by stage
(a measurement, not a test):

    bench/compile/long_program.py [--modelc PATH] [--sizes 500,2000,10000]
                                  [--shape elementwise|mixed|layers|linear]
                                  [--cpu-only] [--work DIR]

Each model is a chain of N statements on a [B, 64] activation between two
linear layers, trained on Fashion-MNIST: `elementwise` cycles through
scale-and-shift, tanh, a residual sum and relu (one long fusible chain, the
worst case for fusion); `mixed` puts a linear layer every 16 statements;
`layers` makes every statement a linear layer and a layer norm (four
parameters each, so the entry points take thousands of arguments);
`linear` makes every statement a linear layer and a relu (one matrix
product forward, two backward, each with its zero-filled result). For
each size the script runs `--emit=sema`, `--emit=grad`, `--emit=linalg`,
`--emit=fused` and the full compile, without (`--no-gpu`) and, unless
`--cpu-only`, with the CUDA code, and prints a markdown table of
wall seconds per stage, with the machine's CPU model.
"""
import argparse
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]

HEADER = """import nn

model Long(x: f32[B, 1, 28, 28]) -> f32[B, 10] {
  h0 = nn.linear(flatten(x), 64)
"""

FOOTER = """  return nn.linear(h{last}, 10)
}}

data FashionMNIST {{
  root  = "/usr/share/datasets/fashion-mnist"
  train = idx(root + "/train-images-idx3-ubyte.gz", root + "/train-labels-idx1-ubyte.gz")
  test  = idx(root + "/t10k-images-idx3-ubyte.gz",  root + "/t10k-labels-idx1-ubyte.gz")
  image = image / 255
}}

train Long on FashionMNIST {{
  loss      = cross_entropy(logits, label)
  optimizer = sgd(lr=0.01)
  epochs = 1   batch = 64   seed = 1
}}
"""


def statement(i: int, shape: str) -> str:
    """The i-th statement (1-based), defining h{i} from h{i-1}."""
    p = f"h{i - 1}"
    if shape == "layers":
        return f"  h{i} = nn.linear({p}, 64) |> nn.layer_norm\n"
    if shape == "linear":
        return f"  h{i} = nn.linear({p}, 64) |> relu\n"
    if shape == "mixed" and i % 16 == 0:
        return f"  h{i} = nn.linear({p}, 64)\n"
    kind = i % 4
    if kind == 0:
        return f"  h{i} = {p} * 0.99 + 0.01\n"
    if kind == 1:
        return f"  h{i} = tanh({p})\n"
    if kind == 2:
        return f"  h{i} = {p} + h{max(i - 2, 0)}\n"
    return f"  h{i} = relu({p})\n"


def write_model(path: pathlib.Path, n: int, shape: str) -> None:
    body = "".join(statement(i, shape) for i in range(1, n + 1))
    path.write_text(HEADER + body + FOOTER.format(last=n))


def timed(cmd) -> float:
    start = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    elapsed = time.monotonic() - start
    if r.returncode != 0:
        sys.exit(f"long_program: {' '.join(map(str, cmd))} failed:\n"
                 f"{r.stderr[-2000:]}")
    return elapsed


def cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


STAGES = ["sema", "grad", "linalg", "fused"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modelc", default=str(ROOT / "build/bin/modelc"))
    ap.add_argument("--sizes", default="500,2000,10000")
    ap.add_argument("--shape", choices=["elementwise", "mixed", "layers", "linear"],
                    default="elementwise")
    ap.add_argument("--cpu-only", action="store_true",
                    help="skip the compile with the CUDA code")
    ap.add_argument("--work", default=None)
    args = ap.parse_args()
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="long-program-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores; shape={args.shape}\n")
    last = [" executable, --no-gpu"] + ([] if args.cpu_only else
                                         [" executable, with CUDA"])
    print("| statements | " + " | ".join(f"to {s}" for s in STAGES) + " |" +
          " |".join(last) + " |")
    print("|---:|" + "---:|" * (len(STAGES) + len(last)))
    for n in (int(s) for s in args.sizes.split(",")):
        src = work / f"long{n}.model"
        write_model(src, n, args.shape)
        row = [timed([args.modelc, src, f"--emit={s}", "-o", os.devnull])
               for s in STAGES]
        row.append(timed([args.modelc, src, "--no-gpu", "-o",
                          work / f"long{n}-cpu"]))
        if not args.cpu_only:
            row.append(timed([args.modelc, src, "-o", work / f"long{n}"]))
        print(f"| {n:,} | " + " | ".join(f"{t:.2f} s" for t in row) + " |",
              flush=True)


if __name__ == "__main__":
    main()
