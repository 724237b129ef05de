#!/usr/bin/python3
"""Compares one compiled train_step's gradients with PyTorch autograd.

torch_grads.py --write-idx DIR: writes DIR/train-{images,labels}.idx (a
few 28x28 images, only so that the models' data blocks compile).
torch_grads.py MODEL DUMPGRADS DIR SCALE TOL BATCH...: for each batch size,
runs the dumpgrads executable (BATCH, offset 0, DIR/<batch>, SCALE), then
compares as below; exits 1 when any comparison fails.
torch_grads.py MODEL DUMP TOL: reads what dumpgrads.cpp wrote into DUMP
(the float32 parameters, inputs, labels and compiled gradients of
Inputs/grads/MODEL.model or Inputs/bn_cnn.model), recomputes the loss and
every gradient with PyTorch in float64 (the reference) and in float32, and
prints one row per parameter: modelc's error and PyTorch float32's error,
each max|g - ref| / max(max|ref|, floor) with floor = 1e-2 * the largest
reference gradient of any tensor, and their ratio. A tensor passes when
modelc's error is at most max(TOL, 3 x PyTorch float32's): issue 20 asks
for TOL and no worse than 3x PyTorch float32; where float32 itself cannot
meet TOL (a relu mask that flips between float32 and float64 near zero
moves a whole gradient row; PyTorch float32 misses TOL there too), the 3x
bound alone applies. Rows say which bound held. Exits 1 when any tensor
fails.
"""
import os
import struct
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F


def write_idx(directory):
    with open(os.path.join(directory, "seq.txt"), "w") as f:
        f.write("abcdefghijk\n" * 8)  # 12 distinct characters, for seq.model
    n = 16
    with open(os.path.join(directory, "train-images.idx"), "wb") as f:
        f.write(struct.pack(">BBBBIII", 0, 0, 8, 3, n, 28, 28))
        f.write(bytes((i * 7) % 256 for i in range(n * 28 * 28)))
    with open(os.path.join(directory, "train-labels.idx"), "wb") as f:
        f.write(struct.pack(">BBBBI", 0, 0, 8, 1, n))
        f.write(bytes(i % 10 for i in range(n)))


def load(dump):
    with open(os.path.join(dump, "manifest.txt")) as f:
        lines = f.read().split("\n")
    loss = float(lines[0].split()[1])
    params = []
    for i, line in enumerate(l for l in lines[1:] if l):
        fields = line.split()
        shape = tuple(int(v) for v in fields[2:2 + int(fields[1])])
        value = np.fromfile(os.path.join(dump, "param%d.f32" % i), np.float32)
        grad = np.fromfile(os.path.join(dump, "grad%d.f32" % i), np.float32)
        params.append((fields[0], value.reshape(shape), grad.reshape(shape)))
    labels = np.fromfile(os.path.join(dump, "labels.i64"), np.int64)
    if os.path.exists(os.path.join(dump, "x.i64")):  # ids and per-token labels
        x = np.fromfile(os.path.join(dump, "x.i64"), np.int64)
        return loss, params, x.reshape(-1, SEQ), labels.reshape(-1, SEQ)
    x = np.fromfile(os.path.join(dump, "x.f32"), np.float32)
    return loss, params, x.reshape(len(labels), 1, 28, 28), labels


def bn(h, t, k):
    """Batch norm in training mode (biased batch variance, eps 1e-5) with
    the scale and shift t[k], t[k + 1]."""
    return F.batch_norm(h, None, None, t[k], t[k + 1], training=True, eps=1e-5)


def linear(h, t, k):
    return h @ t[k] + t[k + 1]


def mlp(x, t):
    h = F.relu(linear(torch.flatten(x, 1), t, 0))
    return linear(F.relu(linear(h, t, 2)), t, 4)


def cnn(x, t):
    h = F.max_pool2d(F.relu(F.conv2d(x, t[0], t[1], padding=1)), 2)
    h = F.max_pool2d(F.relu(F.conv2d(h, t[2], t[3], padding=1)), 2)
    return linear(torch.flatten(h, 1), t, 4)


def bn_cnn(x, t):
    h = x
    for k in (0, 4):
        h = bn(F.conv2d(h, t[k], t[k + 1], padding=1), t, k + 2)
        h = F.max_pool2d(F.relu(h), 2)
    return linear(torch.flatten(h, 1), t, 8)


def resnet(x, t):
    h = F.relu(bn(F.conv2d(x, t[0], t[1], padding=1), t, 2))
    r = F.relu(bn(F.conv2d(h, t[4], t[5], padding=1), t, 6))
    r = bn(F.conv2d(r, t[8], t[9], padding=1), t, 10)
    h = F.relu(h + r)
    h = F.relu(bn(F.conv2d(h, t[12], t[13], stride=2, padding=1), t, 14))
    return linear(h.mean(dim=(2, 3)), t, 16)


def layernorm(x, t):
    h = linear(torch.flatten(x, 1), t, 0)
    h = F.gelu(F.layer_norm(h, (h.shape[-1],), t[2], t[3], eps=1e-5))
    return linear(h, t, 4)


def where(x, t):
    h = linear(torch.flatten(x, 1), t, 0)
    g = linear(h, t, 2)
    h = torch.where(g > 0, h, g)
    h = torch.where(h.sum(dim=1, keepdim=True) > 0, h, 2 * h)
    h = torch.where(h > -0.05, h, torch.tensor(-1.0, dtype=h.dtype))
    return linear(h, t, 4)


def causal(x, t):
    s = linear(torch.flatten(x, 1), t, 0).view(-1, 4, 4)
    keep = torch.tril(torch.ones(4, 4, dtype=torch.bool))
    p = F.softmax(torch.where(keep, s, torch.tensor(-1e9, dtype=s.dtype)), dim=-1)
    return linear(torch.flatten(p, 1), t, 2)


def attention(x, t):
    seq = x.reshape(-1, 28, 28)
    heads = [linear(seq, t, k).view(-1, 28, 2, 8).transpose(1, 2) for k in (0, 2, 4)]
    q, k, v = heads
    s = q @ k.transpose(2, 3) / np.sqrt(8)
    keep = torch.tril(torch.ones(28, 28, dtype=torch.bool))
    p = F.softmax(torch.where(keep, s, torch.tensor(-1e9, dtype=s.dtype)), dim=-1)
    h = (p @ v) @ t[6]
    return linear(torch.flatten(h.transpose(1, 2), 1), t, 7)


def transformer(x, t):
    h = linear(x.reshape(-1, 28, 28), t, 0) + t[2][:28]
    a = F.layer_norm(h, (32,), t[3], t[4], eps=1e-5)
    qkv = linear(a, t, 5).view(-1, 28, 3, 4, 8).permute(0, 2, 3, 1, 4)
    q, k, v = qkv[:, 0], qkv[:, 1], qkv[:, 2]
    s = q @ k.transpose(-1, -2) / np.sqrt(8)
    keep = torch.tril(torch.ones(28, 28, dtype=torch.bool))
    p = F.softmax(s.masked_fill(~keep, float("-inf")), dim=-1)
    o = (p @ v).transpose(1, 2).reshape(-1, 28, 32)
    h = h + linear(o, t, 7)
    m = F.layer_norm(h, (32,), t[9], t[10], eps=1e-5)
    h = h + linear(F.gelu(linear(m, t, 11)), t, 13)
    h = F.layer_norm(h, (32,), t[15], t[16], eps=1e-5)
    return linear(torch.flatten(h, 1), t, 17)


SEQ = 8  # seq.model's window


def seq(ids, t):
    """Inputs/grads/seq.model: ids -> embedding -> tanh(linear) -> linear,
    logits [B, SEQ, 12]."""
    h = F.embedding(ids, t[0])
    return linear(torch.tanh(linear(h, t, 1)), t, 3)


MODELS = {"mlp": mlp, "cnn": cnn, "bn_cnn": bn_cnn, "resnet": resnet,
          "layernorm": layernorm, "mlp_weighted": mlp, "mlp_smooth_sum": mlp,
          "where": where, "causal": causal, "attention": attention,
          "transformer": transformer, "seq": seq}

# The cross_entropy arguments of the models whose loss has options
# (Inputs/grads/mlp_weighted.model, mlp_smooth_sum.model).
LOSS_OPTIONS = {
    "mlp_weighted": dict(label_smoothing=0.1,
                         weight=[1, 2, 0.5, 1, 1, 3, 1, 1, 0.25, 1]),
    "mlp_smooth_sum": dict(reduction="sum", label_smoothing=0.2),
    "seq": dict(ignore_index=-100, label_smoothing=0.1),
}


def gradients(model, params, x, labels, dtype):
    """The loss and the gradients of every parameter, computed in dtype."""
    t = [torch.tensor(p.astype(np.float64), dtype=dtype, requires_grad=True)
         for _, p, _ in params]
    inputs = torch.tensor(x) if x.dtype == np.int64 else \
        torch.tensor(x.astype(np.float64), dtype=dtype)
    logits = MODELS[model](inputs, t)
    options = dict(LOSS_OPTIONS.get(model, {}))
    if "weight" in options:
        options["weight"] = torch.tensor(options["weight"], dtype=dtype)
    # Over [B, T, C] logits: the mean over the flattened positions.
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                           torch.tensor(labels).reshape(-1), **options)
    loss.backward()
    return loss.item(), [p.grad.to(torch.float64).numpy() for p in t]


def compare(model, dump, tol):
    """Prints the table for one dump; True when every tensor passes."""
    loss, params, x, labels = load(dump)
    ref_loss, ref = gradients(model, params, x, labels, torch.float64)
    _, f32 = gradients(model, params, x, labels, torch.float32)
    print("%s batch %d loss %.6f reference %.6f" % (model, len(x), loss, ref_loss))
    floor = 1e-2 * max(np.abs(r).max() for r in ref)
    worst, failed = abs(loss - ref_loss) / abs(ref_loss), []
    for (name, _, grad), r, g32 in zip(params, ref, f32):
        scale = max(np.abs(r).max(), floor)
        ours = np.abs(grad - r).max() / scale
        torch32 = np.abs(g32 - r).max() / scale
        ok = ours <= max(tol, 3 * torch32)
        bound = "ok" if ours <= tol else "ok (f32 limit)"
        print("%-22s modelc %.2e  torch-f32 %.2e  ratio %5.2f  %s" % (
            name, ours, torch32, ours / max(torch32, 1e-30), bound if ok else "FAIL"))
        worst = max(worst, ours)
        if not ok:
            failed.append(name)
    print("worst %.2e: %s" % (worst, "OK" if not failed else "FAIL " + " ".join(failed)))
    return not failed


def main():
    if sys.argv[1] == "--write-idx":
        return write_idx(sys.argv[2])
    if len(sys.argv) == 4:
        return 0 if compare(sys.argv[1], sys.argv[2], float(sys.argv[3])) else 1
    model, dumpgrads, directory, scale, tol = sys.argv[1:6]
    ok = True
    for batch in sys.argv[6:]:
        dump = os.path.join(directory, "%s%s" % (model, batch))
        os.makedirs(dump, exist_ok=True)
        subprocess.run([dumpgrads, batch, "0", dump, scale], check=True)
        ok = compare(model, dump, float(tol)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
