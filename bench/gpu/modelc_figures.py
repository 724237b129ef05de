#!/usr/bin/env python3
"""bench/gpu/modelc_figures.py — one JSON line of figures from a modelc run.

    modelc_figures.py train --model M --batch B --log FILE [--log-dir DIR] [--variant V]
    modelc_figures.py eval  --model M --batch B --log FILE

train: samples/s of the training epoch. Taken from the runtime's TensorBoard
file in --log-dir (`epoch/throughput`: samples/s of the epoch's training
loop, evaluation excluded; read with bench/compare/tfevents.py) when there
is one, else from the last progress line of the log (`S/S R batches/s in
T`, or `S/S R/s in T` from older runtimes: R batches/s, times B).
eval: images/s from `NET eval --profile` output: the sample count of the
`eval on FILE (N samples)` line over the profile's `evaluation X s` phase.

Prints {"source": "modelc", "model": M, "kind": ..., "batch": B,
"samples_per_s": X, "from": ...} (and "variant": V when given); when the
figure cannot be found, the same object with "error" instead, and exits with
status 1.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compare"))


def fromEvents(logDir):
    """epoch/throughput of the newest epoch in logDir's event files, or None."""
    if not logDir or not os.path.isdir(logDir):
        return None
    if not any(f.startswith("events.out.tfevents") for f in os.listdir(logDir)):
        return None
    try:
        import tfevents
    except ImportError:
        return None
    values = tfevents.readScalars(logDir).get("epoch/throughput", [])
    return float(values[-1]) if values else None


def fromProgress(text, batch):
    """Steps/s of the last finished progress line times the batch, or None."""
    rates = re.findall(r"(\d+)/(\d+) ([0-9.]+)(?: batches)?/s in ", text)
    return float(rates[-1][2]) * batch if rates else None


def trainFigure(args, text):
    rate = fromEvents(args.log_dir)
    if rate is not None:
        return {"samples_per_s": rate, "from": "epoch/throughput"}
    rate = fromProgress(text, args.batch)
    if rate is not None:
        return {"samples_per_s": rate, "from": "progress line x batch"}
    return {"error": "no epoch/throughput scalar and no finished progress line in %s" % args.log}


def evalFigure(args, text):
    n = re.search(r"\((\d+) samples\)", text)
    secs = re.search(r"^\s*evaluation\s+([0-9.]+) s", text, re.M)
    if not n or not secs:
        return {"error": "no 'eval on ... (N samples)' line or profile 'evaluation' phase in %s"
                % args.log}
    if float(secs.group(1)) <= 0:
        return {"error": "evaluation phase of 0 s in %s" % args.log}
    return {"samples_per_s": int(n.group(1)) / float(secs.group(1)), "images": int(n.group(1)),
            "seconds": float(secs.group(1)), "from": "eval --profile"}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("kind", choices=("train", "eval"))
    p.add_argument("--model", required=True)
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--log", required=True, help="the command's stdout+stderr")
    p.add_argument("--log-dir", help="the run's --log-dir (TensorBoard file)")
    p.add_argument("--variant", help="how the run differs (e.g. no-graphs: MODELRT_CUDA_GRAPHS=0)")
    args = p.parse_args(argv)
    try:
        with open(args.log, errors="replace") as f:
            text = f.read()
    except OSError as e:
        text = ""
        fig = {"error": "cannot read %s: %s" % (args.log, e.strerror)}
    else:
        fig = trainFigure(args, text) if args.kind == "train" else evalFigure(args, text)
    record = {"source": "modelc", "model": args.model, "kind": args.kind, "batch": args.batch}
    if args.variant:
        record["variant"] = args.variant
    record.update(fig)
    print(json.dumps(record), flush=True)
    return 1 if "error" in fig else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
