#!/usr/bin/env python3
"""bench/compare/torch_models.py — the PyTorch side of the side-by-side benchmark.

Trains and evaluates the exact PyTorch equivalents of bench/compare/mlp.model
(784-256-128-10, dropout 0.2 after each hidden relu) and cnn.model (a copy of
examples/fashion_mnist/cnn.model): the same layers, PyTorch's default
initialisers (which the stdlib's nn.linear / nn.conv2d reproduce:
kaiming_uniform(a=sqrt(5)) weights, uniform(+-1/sqrt(fan_in)) biases), the
same dropout rates, normalisation (x/255 - 0.2860)/0.3530, augmentation
(CNN: random horizontal flip, p = 0.5, training only), Adam(lr=1e-3,
betas=(0.9, 0.999), eps=1e-8), mean cross-entropy, batch 64, every sample of
the epoch used (the last batch is partial, like modelc's loader).

    /usr/bin/python3 torch_models.py --model mlp|cnn [--train-images N]
        [--test-images M] [--seed S] [--threads 2] [--eval-repeats R]
        [--batch1-images K] [--data DIR]

All data is decoded from the IDX .gz files into memory before any timing.
Measured, in this order:
  * training: one epoch, batch 64 (shuffled with a seeded permutation;
    index gather + flip + forward + backward + Adam step per batch); samples/s
    over the whole epoch and "steady" samples/s over the batches after the
    first 10% (warm-up excluded);
  * val accuracy/loss on the test samples after that epoch (model.eval());
  * peak RSS so far (getrusage ru_maxrss): the training figure;
  * eval images/s at batch 1000: the test samples in batches of 1000 under
    torch.inference_mode(), model.eval(), one warm-up batch then R passes;
  * eval images/s at batch 1: K single-image forward passes (after 50 warm-up
    ones) under inference_mode.
Prints one JSON line with every figure and the relevant environment.
"""
import argparse
import gzip
import json
import os
import resource
import struct
import sys
import time

import numpy as np
import torch
from torch import nn

SRC = "/usr/share/datasets/fashion-mnist"
MEAN, STD = 0.2860, 0.3530
ENV_KEYS = ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY",
            "OMP_NUM_THREADS", "OPENBLAS_L2_SIZE")


def readIdx(path):
    """Returns an IDX file of unsigned bytes as a numpy array."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[:3] != b"\0\0\x08":
        sys.exit("%s: not an IDX file of unsigned bytes" % path)
    rank = data[3]
    dims = struct.unpack(">%dI" % rank, data[4:4 + 4 * rank])
    return np.frombuffer(data, np.uint8, offset=4 + 4 * rank).reshape(dims)


def loadSplit(root, prefix, count):
    """Normalised f32 images [N, 1, 28, 28] and i64 labels of one split."""
    images = readIdx(os.path.join(root, prefix + "-images-idx3-ubyte.gz"))
    labels = readIdx(os.path.join(root, prefix + "-labels-idx1-ubyte.gz"))
    if count:
        images, labels = images[:count], labels[:count]
    x = (images.astype(np.float32) / 255.0 - MEAN) / STD
    return (torch.from_numpy(np.ascontiguousarray(x[:, None])),
            torch.from_numpy(labels.astype(np.int64)))


def makeMlp():
    """bench/compare/mlp.model: flatten, 784-256-128-10, dropout 0.2."""
    return nn.Sequential(
        nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),
        nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))


def makeCnn():
    """examples/fashion_mnist/cnn.model (SimpleCNN)."""
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(128, 10))


MODELS = {"mlp": (makeMlp, False), "cnn": (makeCnn, True)}


def trainEpoch(model, opt, x, y, batch, flip, gen):
    """One epoch; returns (seconds, steady seconds, steady samples)."""
    model.train()
    lossFn = nn.CrossEntropyLoss()
    n = x.shape[0]
    perm = torch.randperm(n, generator=gen)
    starts = list(range(0, n, batch))
    warm = max(1, len(starts) // 10)
    t0 = time.perf_counter()
    tWarm = t0
    for i, s in enumerate(starts):
        if i == warm:
            tWarm = time.perf_counter()
        idx = perm[s:s + batch]
        xb, yb = x[idx], y[idx]
        if flip:
            mask = torch.rand(xb.shape[0], generator=gen) < 0.5
            xb = torch.where(mask[:, None, None, None], xb.flip(-1), xb)
        opt.zero_grad(set_to_none=True)
        loss = lossFn(model(xb), yb)
        loss.backward()
        opt.step()
    t1 = time.perf_counter()
    steadySamples = n - min(n, warm * batch)
    return t1 - t0, t1 - tWarm, steadySamples


def evaluate(model, x, y):
    """(accuracy, mean loss) over the test samples, batch 1000."""
    model.eval()
    correct, lossSum = 0, 0.0
    with torch.inference_mode():
        for s in range(0, x.shape[0], 1000):
            out = model(x[s:s + 1000])
            lossSum += nn.functional.cross_entropy(out, y[s:s + 1000], reduction="sum").item()
            correct += (out.argmax(1) == y[s:s + 1000]).sum().item()
    return correct / x.shape[0], lossSum / x.shape[0]


def evalThroughput(model, x, batch, repeats, count):
    """Forward images/s at `batch` (count single images when batch == 1)."""
    model.eval()
    with torch.inference_mode():
        if batch == 1:
            for i in range(50):
                model(x[i % x.shape[0]:i % x.shape[0] + 1])
            t0 = time.perf_counter()
            for i in range(count):
                j = i % x.shape[0]
                model(x[j:j + 1])
            return count / (time.perf_counter() - t0)
        model(x[:batch])
        t0 = time.perf_counter()
        for _ in range(repeats):
            for s in range(0, x.shape[0], batch):
                model(x[s:s + batch])
        return repeats * x.shape[0] / (time.perf_counter() - t0)


def kernelsUsed():
    """What this process ran: ATen's CPU capability, the OpenBLAS core (from
    the loaded libopenblas); run.py adds oneDNN's instruction set."""
    import ctypes
    import re
    cap = re.search(r"CPU capability usage: (\S+)", torch.__config__.show())
    out = {"aten_cpu_capability": cap.group(1) if cap else "unknown"}
    with open("/proc/self/maps") as f:
        libs = sorted({l.split()[-1] for l in f if "libopenblas" in l})
    if libs:
        lib = ctypes.CDLL(libs[0])
        lib.openblas_get_corename.restype = ctypes.c_char_p
        out["openblas_core"] = lib.openblas_get_corename().decode()
    return out


def main():
    ap = argparse.ArgumentParser(description="PyTorch side of bench/compare")
    ap.add_argument("--model", choices=sorted(MODELS), required=True)
    ap.add_argument("--data", default=SRC, help="directory of the IDX .gz files")
    ap.add_argument("--train-images", type=int, default=0, help="first N (0 = all)")
    ap.add_argument("--test-images", type=int, default=0, help="first M (0 = all)")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--eval-repeats", type=int, default=3)
    ap.add_argument("--batch1-images", type=int, default=2000)
    a = ap.parse_args()

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    tLoad = time.perf_counter()
    xTrain, yTrain = loadSplit(a.data, "train", a.train_images)
    xTest, yTest = loadSplit(a.data, "t10k", a.test_images)
    loadSeconds = time.perf_counter() - tLoad

    make, flip = MODELS[a.model]
    model = make()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr, betas=(0.9, 0.999), eps=1e-8)
    gen = torch.Generator().manual_seed(a.seed)
    secs, steadySecs, steadySamples = trainEpoch(model, opt, xTrain, yTrain, a.batch, flip, gen)
    acc, loss = evaluate(model, xTest, yTest)
    rssTrain = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    r = {
        "side": "pytorch", "model": a.model, "torch": torch.__version__,
        "threads": torch.get_num_threads(), "seed": a.seed,
        "env": {k: os.environ[k] for k in ENV_KEYS if k in os.environ},
        "train_images": int(xTrain.shape[0]), "test_images": int(xTest.shape[0]),
        "batch": a.batch, "load_seconds": loadSeconds,
        "train_seconds": secs,
        "train_samples_per_s": xTrain.shape[0] / secs,
        "train_steady_samples_per_s": steadySamples / steadySecs if steadySamples else None,
        "val_accuracy": acc, "val_loss": loss,
        "peak_rss_train_kb": rssTrain,
        "eval_b1000_images_per_s": evalThroughput(model, xTest, 1000, a.eval_repeats, 0),
        "eval_b1_images_per_s": evalThroughput(model, xTest, 1, 0, a.batch1_images),
        "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "kernels": kernelsUsed(),
    }
    print(json.dumps(r))


if __name__ == "__main__":
    main()
