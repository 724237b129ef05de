#!/usr/bin/env python3
"""bench/gpu/torch_gpu.py — PyTorch's side of the GPU benchmark.

Trains and evaluates, on one device, the PyTorch equivalents of the models
that scripts/gpu-bundle.sh compiles, with the data already on the device:

  mlp       examples/fashion_mnist/mlp.model: flatten, 784-256, relu,
            dropout 0.2, 256-10; SGD(lr 0.1, momentum 0.9) as in the file
  benchmlp  bench/compare/mlp.model: 784-256-128-10, relu, dropout 0.2 after
            each hidden layer; Adam(lr 1e-3) (the issue's benchmark MLP)
  cnn       examples/fashion_mnist/cnn.model (SimpleCNN): conv 1->32 k3 p1,
            relu, maxpool 2, dropout 0.25; conv 32->64 k3 p1, relu, maxpool 2,
            dropout 0.25; flatten 3136-128, relu, dropout 0.5, 128-10;
            Adam(lr 1e-3)

Loss: mean cross-entropy. For each model and training batch (default 64 and
512) and each mode (eager; torch.compile with the default mode, model
compiled, optimizer eager; and for bench/gpu/bf16.sh, eager with the
precision set: f32 with TF32 off for products and convolutions, tf32 with it
on, autocast under torch.autocast("cuda", bfloat16) with TF32 off): WARMUP steps are run first (compilation
included) and excluded; then one epoch of full batches (shuffled on the
device) is timed between torch.cuda.synchronize() calls. Eval: images/s at
batch 1000 over the 10k test images under torch.inference_mode() (one
warm-up pass, then REPEATS passes) of what `NET eval` computes: the forward
pass, the mean loss and the accuracy, summed on the device and read once
per pass.

Prints one JSON line per figure, as soon as it is measured:
  {"source": "torch", "mode": "eager"|"compile"|"f32"|"tf32"|"autocast", "model": M, "kind":
   "train"|"eval", "batch": B, "samples_per_s": X, ...}
or, when a mode cannot run, {"source": "torch", "mode": ..., "error": "..."}.

    python3 torch_gpu.py [--data DIR] [--device cuda|cpu] [--models mlp,cnn]
        [--batches 64,512] [--modes eager,compile,f32,tf32,autocast] [--quick]

--quick: a few steps on 2048 training and 1000 test images (a smoke test
of the script itself, e.g. on the CPU). Without --data, random images of
the right shape are used (speed does not depend on the pixel values).
Works with PyTorch 1.13 (no torch.compile: reported as an error line) and 2.x.
"""
import argparse
import gzip
import json
import os
import struct
import sys
import time

import torch
from torch import nn

MEAN, STD = 0.2860, 0.3530
MODELS = ("mlp", "benchmlp", "cnn")
MODES = ("eager", "compile", "f32", "tf32", "autocast")
DEFAULT_TF32 = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)


def setPrecision(mode, device):
    """TF32 on or off for the eager precision modes (PyTorch's defaults for
    eager and compile), and the autocast context the step runs in (None:
    none)."""
    tf32 = {"f32": (False, False), "tf32": (True, True), "autocast": (False, False)}
    matmul, conv = tf32.get(mode, DEFAULT_TF32)
    torch.backends.cuda.matmul.allow_tf32 = matmul
    torch.backends.cudnn.allow_tf32 = conv
    if mode == "autocast":
        return lambda: torch.autocast(device.type, dtype=torch.bfloat16)
    return None


def readIdx(path):
    """An IDX file of unsigned bytes as a uint8 tensor."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[:3] != b"\0\0\x08":
        sys.exit("%s: not an IDX file of unsigned bytes" % path)
    rank = data[3]
    dims = struct.unpack(">%dI" % rank, data[4:4 + 4 * rank])
    body = bytearray(data[4 + 4 * rank:])
    return torch.frombuffer(body, dtype=torch.uint8).reshape(dims)


def loadSplit(root, prefix, count, device):
    """Normalised f32 images [N, 1, 28, 28] and i64 labels, on the device."""
    if root is None:
        gen = torch.Generator().manual_seed(0 if prefix == "train" else 1)
        n = count or (60000 if prefix == "train" else 10000)
        x = torch.randint(0, 256, (n, 28, 28), generator=gen, dtype=torch.uint8)
        y = torch.randint(0, 10, (n,), generator=gen)
    else:
        x = readIdx(os.path.join(root, prefix + "-images-idx3-ubyte.gz"))
        y = readIdx(os.path.join(root, prefix + "-labels-idx1-ubyte.gz")).long()
        if count:
            x, y = x[:count], y[:count]
    x = (x.float() / 255.0 - MEAN) / STD
    return x[:, None].contiguous().to(device), y.to(device)


def makeModel(name):
    """The PyTorch module and optimizer factory of one bundled model."""
    if name == "mlp":
        net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),
                            nn.Linear(256, 10))
        return net, lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)
    if name == "benchmlp":
        net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),
                            nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))
        return net, lambda p: torch.optim.Adam(p, lr=1e-3)
    if name == "cnn":
        net = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
            nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(128, 10))
        return net, lambda p: torch.optim.Adam(p, lr=1e-3)
    raise ValueError("unknown model %r (known: %s)" % (name, ", ".join(MODELS)))


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def prepare(name, mode, device):
    """(module to call, module with the parameters, optimizer) for a mode."""
    torch.manual_seed(1)
    net, makeOpt = makeModel(name)
    net = net.to(device)
    opt = makeOpt(net.parameters())
    if mode != "compile":
        return net, net, opt
    if not hasattr(torch, "compile"):
        raise RuntimeError("torch.compile does not exist in PyTorch %s" % torch.__version__)
    # A fresh Dynamo cache per figure: each compiled instance of the same
    # Sequential.forward would otherwise count towards the recompile limit
    # (8), past which PyTorch silently runs the model eagerly.
    torch._dynamo.reset()
    return torch.compile(net), net, opt


def trainFigure(name, mode, batch, train, device, warmup, maxSteps):
    """Samples/s of one timed epoch of full batches (warm-up excluded)."""
    fn, net, opt = prepare(name, mode, device)
    autocast = setPrecision(mode, device)
    x, y = train
    lossFn = nn.CrossEntropyLoss()
    net.train()
    steps = x.shape[0] // batch
    if maxSteps:
        steps = min(steps, maxSteps)
    if steps < 1:
        raise RuntimeError("fewer than %d training images" % batch)

    def step(idx):
        opt.zero_grad(set_to_none=True)
        if autocast:
            with autocast():
                loss = lossFn(fn(x[idx]), y[idx])
        else:
            loss = lossFn(fn(x[idx]), y[idx])
        loss.backward()
        opt.step()
        return loss

    gen = torch.Generator(device="cpu").manual_seed(2)
    t0 = time.perf_counter()
    for i in range(warmup):
        step(torch.randint(0, x.shape[0], (batch,), generator=gen).to(device))
    sync(device)
    warmSecs = time.perf_counter() - t0
    perm = torch.randperm(x.shape[0], generator=gen).to(device)
    sync(device)
    t0 = time.perf_counter()
    for s in range(steps):
        loss = step(perm[s * batch:(s + 1) * batch])
    sync(device)
    secs = time.perf_counter() - t0
    return {"samples_per_s": steps * batch / secs, "steps": steps, "seconds": secs,
            "warmup_seconds": warmSecs, "final_loss": float(loss)}


def evalFigure(name, mode, batch, test, device, repeats):
    """Images/s at `batch` over the test images (inference mode): the loss
    and accuracy of each pass, as `NET eval` reports them."""
    fn, net, _ = prepare(name, mode, device)
    autocast = setPrecision(mode, device)
    x, y = test
    lossFn = nn.CrossEntropyLoss(reduction="sum")
    net.eval()
    n = (x.shape[0] // batch) * batch
    if n == 0:
        raise RuntimeError("fewer than %d test images" % batch)

    def passOnce():
        loss = torch.zeros((), device=x.device)
        correct = torch.zeros((), dtype=torch.int64, device=x.device)
        for s in range(0, n, batch):
            if autocast:
                with autocast():
                    out = fn(x[s:s + batch]).float()
            else:
                out = fn(x[s:s + batch])
            loss += lossFn(out, y[s:s + batch])
            correct += (out.argmax(1) == y[s:s + batch]).sum()
        return float(loss) / n, int(correct) / n  # one read per pass

    with torch.inference_mode():
        t0 = time.perf_counter()
        passOnce()  # warm-up (and compilation)
        sync(device)
        warmSecs = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(repeats):
            loss, accuracy = passOnce()
        sync(device)
        secs = time.perf_counter() - t0
    return {"samples_per_s": repeats * n / secs, "images": repeats * n, "seconds": secs,
            "loss": loss, "accuracy": accuracy,
            "warmup_seconds": warmSecs}


def emit(record):
    print(json.dumps(record), flush=True)


def runAll(args, device, train, test):
    """Every figure, training first and batch by batch (the first batch size
    of every model and mode before the next), so that a run cut short by its
    time limit still has the figures that matter most."""
    def base(name, mode):
        return {"source": "torch", "mode": mode, "model": name, "device": str(device),
                "torch": torch.__version__}

    def noCompile(mode):
        return mode == "compile" and not hasattr(torch, "compile")

    for batch in args.batches:
        for name in args.models:
            for mode in args.modes:
                if noCompile(mode) and batch != args.batches[0]:
                    continue
                try:
                    fig = trainFigure(name, mode, batch, train, device, args.warmup,
                                      args.max_steps)
                    emit(dict(base(name, mode), kind="train", batch=batch, **fig))
                except Exception as e:  # report and go on: one figure missing is not fatal
                    emit(dict(base(name, mode), kind="train", batch=batch,
                              error="%s: %s" % (type(e).__name__, e)))
    for name in args.models:
        for mode in args.modes:
            try:
                fig = evalFigure(name, mode, args.eval_batch, test, device, args.repeats)
                emit(dict(base(name, mode), kind="eval", batch=args.eval_batch, **fig))
            except Exception as e:
                emit(dict(base(name, mode), kind="eval", batch=args.eval_batch,
                          error="%s: %s" % (type(e).__name__, e)))


def parseArgs(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", help="folder of the 4 Fashion-MNIST .gz files (default: random)")
    p.add_argument("--device", default="cuda")
    p.add_argument("--models", default="mlp,cnn")
    p.add_argument("--batches", default="64,512")
    p.add_argument("--modes", default="eager,compile")
    p.add_argument("--eval-batch", type=int, default=1000)
    p.add_argument("--warmup", type=int, default=30, help="untimed steps before the epoch")
    p.add_argument("--repeats", type=int, default=5, help="timed eval passes")
    p.add_argument("--max-steps", type=int, default=0, help="cap on timed steps (0: an epoch)")
    p.add_argument("--quick", action="store_true", help="tiny run to smoke-test the script")
    args = p.parse_args(argv)
    args.models = [m for m in args.models.split(",") if m]
    args.batches = [int(b) for b in args.batches.split(",") if b]
    args.modes = [m for m in args.modes.split(",") if m]
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    for m in args.models:
        if m not in MODELS:
            p.error("unknown model %r (known: %s)" % (m, ", ".join(MODELS)))
    for m in args.modes:
        if m not in MODES:
            p.error("unknown mode %r (%s)" % (m, ", ".join(MODES)))
    if args.quick:
        args.warmup, args.repeats, args.max_steps = 2, 1, 4
    return args


def main(argv):
    args = parseArgs(argv)
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        sys.exit("torch_gpu.py: --device cuda but torch.cuda.is_available() is false")
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    quickN = 2048 if args.quick else 0
    train = loadSplit(args.data, "train", quickN, device)
    test = loadSplit(args.data, "t10k", 1000 if args.quick else 0, device)
    emit({"source": "torch", "kind": "env", "torch": torch.__version__, "device": str(device),
          "gpu": torch.cuda.get_device_name(0) if device.type == "cuda" else None,
          "train_images": int(train[0].shape[0]), "test_images": int(test[0].shape[0])})
    runAll(args, device, train, test)


if __name__ == "__main__":
    main(sys.argv[1:])
