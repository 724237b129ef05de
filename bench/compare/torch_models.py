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
        [--batch1-images K] [--data DIR] [--epochs E] [--accuracy-only]

All data is decoded from the IDX .gz files into memory before any timing.
Measured, in this order:
  * training: one epoch (E with --epochs), batch 64 (each epoch shuffled
    with a new seeded permutation; index gather + flip + forward + backward
    + Adam step per batch); samples/s over the whole epoch and "steady"
    samples/s over the batches after the first 10% (warm-up excluded), of
    the last epoch;
  * val accuracy/loss on the test samples after the last epoch
    (model.eval());
  * peak RSS so far (getrusage ru_maxrss): the training figure;
  * eval images/s at batch 1000: the test samples in batches of 1000 under
    torch.inference_mode(), model.eval(), one warm-up batch then R passes;
  * eval images/s at batch 1: K single-image forward passes (after 50 warm-up
    ones) under inference_mode.
--accuracy-only leaves out both eval rates (accuracy.py's runs).
Prints one JSON line with every figure and the relevant environment.

    /usr/bin/python3 torch_models.py --model charlm --text FILE [--seed S]
        [--threads 2] [--gen-tokens 200]

charlm: examples/charlm/charlm.model in PyTorch (a GPT: nn.Embedding
N(0, 1), learned positions N(0, 0.02), four pre-norm blocks of width 128
with one q/k/v projection and 4 heads, causal attention written with
matmul / masked_fill / softmax (1.13 has no scaled_dot_product_attention),
a GELU (exact) MLP of 512, dropout 0.1 on both branches, a final layer norm
and a linear head to 113 classes; nn.Linear's default initialisation, which
nn.linear reproduces), trained as modelc trains the example for one epoch
of FILE: the text's sorted distinct characters as ids, the last
round(5%) of its characters held out, (n_train - 1) // 128 windows per
epoch in batches of 32 (the last one partial) with their starts drawn
uniformly from all n_train - 128, AdamW(lr 2e-3, betas (0.9, 0.999),
eps 1e-8, weight decay 0.1 on every parameter), the runtime's cosine
schedule (lr * (s+1)/100 for the first 100 steps, then cosine to 2e-4 at
the last step), clip_grad_norm_(1.0), mean cross-entropy over every
position. Measured: training tokens/s over the epoch and "steady" after its
first 10% of steps; the validation loss per character over the held-out
text's non-overlapping windows (model.eval()); generation tokens/s at
temperature 1 from a line break, (a) "naive": each token runs the model
over the newest 128 tokens, padded with id 0 after them as modelc's
`generate` does, (b) "cached": a key/value cache per layer, one position per
token, the new query attending over the cached keys; when the cache holds
128 positions it is refilled from the newest 64 tokens (learned absolute
positions: a sliding window would need every key recomputed).
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


# ---- charlm: examples/charlm/charlm.model --------------------------------

CHARLM = {"vocab": 113, "width": 128, "heads": 4, "blocks": 4, "context": 128,
          "expand": 4, "rate": 0.1, "batch": 32, "lr": 2e-3, "weight_decay": 0.1,
          "warmup": 100, "min_lr": 2e-4, "clip_norm": 1.0, "validation": 0.05}


class CausalSelfAttention(nn.Module):
    """nn.attention(heads, causal=true): one projection to q, k, v (columns
    ordered [3, heads, width / heads], as the stdlib's reshape), the heads'
    causal scaled-dot-product attention, the output projection. With
    `cache` (a dict), the new positions' keys and values are appended to
    the cached ones and the queries attend over all of them."""

    def __init__(self, d, heads, context):
        super().__init__()
        self.c_attn, self.c_proj, self.heads = nn.Linear(d, 3 * d), nn.Linear(d, d), heads
        self.register_buffer("mask", torch.tril(torch.ones(context, context, dtype=torch.bool)))

    def forward(self, x, cache=None):
        B, T, C = x.shape
        qkv = self.c_attn(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        past = 0
        if cache is not None:
            if "k" in cache:
                past = cache["k"].shape[2]
                k = torch.cat([cache["k"], k], 2)
                v = torch.cat([cache["v"], v], 2)
            cache["k"], cache["v"] = k, v
        att = (q @ k.transpose(-2, -1)) * (1.0 / (k.shape[-1] ** 0.5))
        if T > 1:  # one new query attends over every cached key: no mask
            att = att.masked_fill(~self.mask[past:past + T, :past + T], float("-inf"))
        y = torch.softmax(att, dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    """nn.transformer_block(h, heads, rate): pre-norm, GELU MLP, dropout on
    both branches."""

    def __init__(self, d, heads, context, expand, rate):
        super().__init__()
        self.ln_1, self.attn = nn.LayerNorm(d), CausalSelfAttention(d, heads, context)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, expand * d), nn.GELU(), nn.Linear(expand * d, d))
        self.drop = nn.Dropout(rate)

    def forward(self, x, cache=None):
        x = x + self.drop(self.attn(self.ln_1(x), cache))
        return x + self.drop(self.mlp(self.ln_2(x)))


class CharLM(nn.Module):
    def __init__(self, c):
        super().__init__()
        d = c["width"]
        self.wte = nn.Embedding(c["vocab"], d)  # N(0, 1), as nn.embedding
        self.wpe = nn.Parameter(torch.randn(c["context"], d) * 0.02)  # nn.positional
        self.h = nn.ModuleList(Block(d, c["heads"], c["context"], c["expand"], c["rate"])
                               for _ in range(c["blocks"]))
        self.ln_f, self.lm_head = nn.LayerNorm(d), nn.Linear(d, c["vocab"])

    def forward(self, idx, caches=None, start=0):
        x = self.wte(idx) + self.wpe[start:start + idx.shape[1]]
        for i, block in enumerate(self.h):
            x = block(x, caches[i] if caches is not None else None)
        return self.lm_head(self.ln_f(x))


def charlmLr(c, step, total):
    """modelrt's cosine schedule (runtime/lib/train/Schedule.cpp)."""
    import math
    if step < c["warmup"]:
        return c["lr"] * (step + 1) / c["warmup"]
    pct = min(1.0, (step - c["warmup"]) / max(total - c["warmup"], 1))
    return c["min_lr"] + (c["lr"] - c["min_lr"]) / 2.0 * (math.cos(math.pi * pct) + 1.0)


def charlmData(path, c):
    """The text as ids (its sorted distinct characters) split as modelc's
    splitStream: the first n - round(n * 5%) tokens train, the rest validate."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    vocab = sorted(set(text))
    stoi = {ch: i for i, ch in enumerate(vocab)}
    ids = torch.tensor([stoi[ch] for ch in text], dtype=torch.int64)
    held = int(round(len(ids) * c["validation"]))  # llround: no half-way case here
    return ids[:len(ids) - held], ids[len(ids) - held:], vocab


def charlmTrain(model, opt, train, c, gen):
    """One epoch as modelc's: returns (seconds, steady seconds, steady tokens,
    steps, windows)."""
    T, batch = c["context"], c["batch"]
    windows = (len(train) - 1) // T
    steps = (windows + batch - 1) // batch
    starts = torch.randint(len(train) - T, (windows,), generator=gen)
    offsets = torch.arange(T + 1)
    model.train()
    warm = max(1, steps // 10)
    t0 = time.perf_counter()
    tWarm, steadyTokens = t0, 0
    for s in range(steps):
        if s == warm:
            tWarm = time.perf_counter()
        sel = train[starts[s * batch:(s + 1) * batch, None] + offsets]
        if s >= warm:
            steadyTokens += sel.shape[0] * T
        for g in opt.param_groups:
            g["lr"] = charlmLr(c, s, steps)
        logits = model(sel[:, :T])
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                           sel[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), c["clip_norm"])
        opt.step()
    t1 = time.perf_counter()
    return t1 - t0, t1 - tWarm, steadyTokens, steps, windows


def charlmValLoss(model, val, c):
    """Mean cross-entropy per character over the non-overlapping windows
    (starts 0, T, 2T, ...) of the held-out text."""
    T = c["context"]
    count = (len(val) - 1) // T
    starts = torch.arange(count) * T
    offsets = torch.arange(T + 1)
    model.eval()
    total = 0.0
    with torch.inference_mode():
        for s in range(0, count, 64):
            sel = val[starts[s:s + 64, None] + offsets]
            logits = model(sel[:, :T])
            total += nn.functional.cross_entropy(
                logits.reshape(-1, logits.shape[-1]), sel[:, 1:].reshape(-1),
                reduction="sum").item()
    return total / (count * T), count


def charlmGenerate(model, first, tokens, c, cached, seed):
    """Draws `tokens` tokens after `first` at temperature 1; returns
    (seconds, ids). Naive: the newest T tokens through the whole model per
    token, padded with id 0 after them (modelc's generate); cached: one
    position per token through per-layer key/value caches."""
    T = c["context"]
    gen = torch.Generator().manual_seed(seed)
    ids = [first]
    model.eval()
    with torch.inference_mode():
        t0 = time.perf_counter()
        if not cached:
            window = torch.zeros(1, T, dtype=torch.int64)
            for _ in range(tokens):
                n = min(len(ids), T)
                window.zero_()
                window[0, :n] = torch.tensor(ids[-n:])
                logits = model(window)[0, n - 1]
                ids.append(int(torch.multinomial(torch.softmax(logits, -1), 1, generator=gen)))
            return time.perf_counter() - t0, ids
        caches, length, logits = None, 0, None
        for _ in range(tokens):
            if caches is None or length == T:  # (re)fill from the newest tokens
                keep = ids[-(T // 2):] if length == T else ids
                caches = [{} for _ in model.h]
                out = model(torch.tensor([keep]), caches, 0)
                length, logits = len(keep), out[0, -1]
            nxt = int(torch.multinomial(torch.softmax(logits, -1), 1, generator=gen))
            ids.append(nxt)
            if length < T:
                logits = model(torch.tensor([[nxt]]), caches, length)[0, -1]
                length += 1
        return time.perf_counter() - t0, ids


def charlmMain(a):
    c = dict(CHARLM)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    train, val, vocab = charlmData(a.text, c)
    model = CharLM(c)
    opt = torch.optim.AdamW(model.parameters(), lr=c["lr"], betas=(0.9, 0.999), eps=1e-8,
                            weight_decay=c["weight_decay"])
    gen = torch.Generator().manual_seed(a.seed)
    secs, steadySecs, steadyTokens, steps, windows = charlmTrain(model, opt, train, c, gen)
    rssTrain = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    valLoss, valWindows = charlmValLoss(model, val, c)
    first = vocab.index("\n") if "\n" in vocab else 0
    gen_ = {}
    for kind in ("naive", "cached"):
        charlmGenerate(model, first, 10, c, kind == "cached", a.seed)  # warm-up
        s, ids = charlmGenerate(model, first, a.gen_tokens, c, kind == "cached", a.seed)
        gen_[kind] = {"seconds": s, "tokens_per_s": a.gen_tokens / s,
                      "sample": "".join(vocab[i] if i < len(vocab) else "?" for i in ids[1:61])}
    r = {
        "side": "pytorch", "model": "charlm", "torch": torch.__version__,
        "threads": torch.get_num_threads(), "seed": a.seed,
        "env": {k: os.environ[k] for k in ENV_KEYS if k in os.environ},
        "text": a.text, "tokens": len(train) + len(val), "vocabulary": len(vocab),
        "train_tokens": len(train), "val_tokens": len(val), "val_windows": valWindows,
        "steps": steps, "windows": windows, "batch": c["batch"],
        "parameters": sum(p.numel() for p in model.parameters()),
        "train_seconds": secs,
        "train_tokens_per_s": windows * c["context"] / secs,
        "train_steady_tokens_per_s": steadyTokens / steadySecs if steadyTokens else None,
        "val_loss": valLoss, "peak_rss_train_kb": rssTrain,
        "gen_tokens": a.gen_tokens,
        "gen_naive_tokens_per_s": gen_["naive"]["tokens_per_s"],
        "gen_cached_tokens_per_s": gen_["cached"]["tokens_per_s"],
        "gen_detail": gen_, "kernels": kernelsUsed(),
    }
    print(json.dumps(r))


def trainEpoch(model, opt, x, y, batch, flip, gen, autocast=False):
    """One epoch; returns (seconds, steady seconds, steady samples). With
    autocast, the forward pass and the loss run under
    torch.autocast("cpu", dtype=torch.bfloat16)."""
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
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
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
    ap.add_argument("--model", choices=sorted(MODELS) + ["charlm"], required=True)
    ap.add_argument("--text", default=None, help="charlm: the text file (prepare.sh's)")
    ap.add_argument("--gen-tokens", type=int, default=200, help="charlm: tokens generated")
    ap.add_argument("--data", default=SRC, help="directory of the IDX .gz files")
    ap.add_argument("--train-images", type=int, default=0, help="first N (0 = all)")
    ap.add_argument("--test-images", type=int, default=0, help="first M (0 = all)")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--autocast", action="store_true",
                    help="train under torch.autocast bf16 (bench/bf16)")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--accuracy-only", action="store_true",
                    help="leave out the eval images/s figures (accuracy.py)")
    ap.add_argument("--eval-repeats", type=int, default=3)
    ap.add_argument("--batch1-images", type=int, default=2000)
    a = ap.parse_args()
    if a.model == "charlm":
        if not a.text:
            sys.exit("--model charlm needs --text FILE")
        charlmMain(a)
        return

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
    for _ in range(a.epochs):
        secs, steadySecs, steadySamples = trainEpoch(model, opt, xTrain, yTrain, a.batch, flip,
                                                     gen, a.autocast)
    acc, loss = evaluate(model, xTest, yTest)
    rssTrain = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    r = {
        "side": "pytorch", "model": a.model, "torch": torch.__version__,
        "threads": torch.get_num_threads(), "seed": a.seed, "autocast": a.autocast,
        "env": {k: os.environ[k] for k in ENV_KEYS if k in os.environ},
        "train_images": int(xTrain.shape[0]), "test_images": int(xTest.shape[0]),
        "batch": a.batch, "epochs": a.epochs, "load_seconds": loadSeconds,
        "train_seconds": secs,
        "train_samples_per_s": xTrain.shape[0] / secs,
        "train_steady_samples_per_s": steadySamples / steadySecs if steadySamples else None,
        "val_accuracy": acc, "val_loss": loss,
        "peak_rss_train_kb": rssTrain,
        "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "kernels": kernelsUsed(),
    }
    if not a.accuracy_only:
        r["eval_b1000_images_per_s"] = evalThroughput(model, xTest, 1000, a.eval_repeats, 0)
        r["eval_b1_images_per_s"] = evalThroughput(model, xTest, 1, 0, a.batch1_images)
        r["peak_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps(r))


if __name__ == "__main__":
    main()
