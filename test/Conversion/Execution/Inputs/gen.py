#!/usr/bin/python3
"""test/Conversion/Execution/Inputs/gen.py — cases and float64 references.

Usage: gen.py <family> <output-file>. Writes random inputs for the functions
of test/Conversion/Execution/<family>.mlir (batch sizes 1, 7, 65 and widths
that are not multiples of tile sizes) and the expected outputs computed here
in float64 (numpy; PyTorch in double precision for convolution/pooling),
in the text format runner.cpp reads. Fails loudly without numpy/torch.
"""
import sys

import numpy as np

rng = np.random.default_rng(1234)
BATCHES = (1, 7, 65)
OUT = []


def tensor(kind, dtype, a):
    a = np.asarray(a)
    vals = a.astype(np.float64).ravel()
    fmt = "%d" if dtype in ("i32", "i64", "i1") else "%.17g"
    OUT.append("%s %s %d %s %s\n" % (kind, dtype, a.ndim, " ".join(map(str, a.shape)),
                                     " ".join(fmt % v for v in vals)))


def case(name, ins, outs, tol=2e-6):
    OUT.append("case %s %d %d %g\n" % (name, len(ins), len(outs), tol))
    for dtype, a in ins:
        tensor("in", dtype, a)
    for dtype, a in outs:
        tensor("out", dtype, a)


def f32(*shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def d(a):
    return np.asarray(a, dtype=np.float64)


def elementwise():
    for n in BATCHES:
        x, y, b = f32(n, 65), f32(n, 65), f32(65)
        case("add_bcast", [("f32", x), ("f32", b)], [("f32", d(x) + d(b))])
        c = f32(1, 65)
        case("sub_bcast", [("f32", c), ("f32", x)], [("f32", d(c) - d(x))])
        case("mul", [("f32", x), ("f32", y)], [("f32", d(x) * d(y))])
        den = np.where(np.abs(y) < 0.1, 0.5, y).astype(np.float32)
        case("div", [("f32", x), ("f32", den)], [("f32", d(x) / d(den))])
        p = f32(n, 65, lo=0.1, hi=3.0)
        case("pow", [("f32", p), ("f32", y)], [("f32", d(p) ** d(y))], 1e-5)
        col = f32(n, 1)
        case("max_min", [("f32", x), ("f32", col)],
             [("f32", np.maximum(d(x), d(col))), ("f32", np.minimum(d(x), d(col)))])
        case("unary", [("f32", x)],
             [("f32", -d(x)), ("f32", np.abs(d(x))), ("f32", np.exp(d(x))),
              ("f32", np.maximum(d(x), 0)), ("f32", np.tanh(d(x))),
              ("f32", 1 / (1 + np.exp(-d(x))))], 1e-6)
        case("log_sqrt", [("f32", p)], [("f32", np.log(d(p))), ("f32", np.sqrt(d(p)))])
        import math
        erf = np.vectorize(math.erf)
        case("gelu", [("f32", x)], [("f32", d(x) * 0.5 * (1 + erf(d(x) / math.sqrt(2))))], 1e-6)
        case("cmp_select", [("f32", x), ("f32", y)],
             [("i1", d(x) > d(y)), ("f32", np.where(d(x) > d(y), d(x), 0.0))])
        xi = rng.integers(-1000, 1000, (n, 7)).astype(np.int64)
        yi = rng.integers(1, 50, (7,)).astype(np.int64) * rng.choice([-1, 1], 7)
        case("int_ops", [("i64", xi), ("i64", yi)],
             [("i64", xi + yi), ("i64", np.trunc(xi / yi).astype(np.int64)),
              ("i64", np.maximum(xi, yi)), ("i64", np.abs(xi))])
        # The divisions arith.divsi leaves undefined: by 0 gives 0, and by
        # -1 negates with wrap-around (the smallest i64 stays itself).
        lo = -2 ** 63
        xs = np.array([[7, -7, lo, 9, lo, 0]] * n, dtype=np.int64)
        ys = np.array([[0, -1, -1, -2, 0, 0]] * n, dtype=np.int64)
        case("int_div_special", [("i64", xs), ("i64", ys)],
             [("i64", np.array([[0, 7, lo, -4, 0, 0]] * n, dtype=np.int64))])
        pdf = np.exp(-d(x) ** 2 / 2) / math.sqrt(2 * math.pi)
        case("gelu_grad", [("f32", x), ("f32", y)],
             [("f32", d(y) * (0.5 * (1 + erf(d(x) / math.sqrt(2))) + d(x) * pdf))], 1e-6)
        case("casts", [("f32", x)],
             [("i32", np.trunc(d(x)).astype(np.int32)), ("f64", d(x)), ("i1", d(x) != 0)])
    case("constant", [], [("f32", np.array([[1.5, -2.0, 3.25]]))])


def torch_double():
    import torch
    return torch


def products():
    torch = torch_double()
    for n in BATCHES:
        x, w = f32(n, 63), f32(63, 65)
        case("matmul2d", [("f32", x), ("f32", w)], [("f32", d(x) @ d(w))], 1e-5)
        x3, w3 = f32(n, 7, 63), f32(63, 5)
        case("matmul3d", [("f32", x3), ("f32", w3)], [("f32", d(x3) @ d(w3))], 1e-5)
        a, b = f32(n, 7, 63), f32(n, 63, 5)
        case("batch_matmul", [("f32", a), ("f32", b)], [("f32", d(a) @ d(b))], 1e-5)
        a, b = f32(n, 3, 7, 9), f32(n, 3, 9, 5)
        case("batch_matmul4d", [("f32", a), ("f32", b)], [("f32", d(a) @ d(b))], 1e-5)
        a, b = f32(n, 1, 7, 9), f32(3, 9, 5)
        case("batch_matmul_broadcast", [("f32", a), ("f32", b)], [("f32", d(a) @ d(b))], 1e-5)
        a, b = f32(7, 9), f32(n, 9, 5)
        case("batch_matmul_matrix_lhs", [("f32", a), ("f32", b)], [("f32", d(a) @ d(b))], 1e-5)
    for n in (1, 7):
        img, k, bias = f32(n, 3, 13, 11), f32(5, 3, 3, 3), f32(5)
        ref = torch.nn.functional.conv2d(torch.tensor(d(img)), torch.tensor(d(k)),
                                         torch.tensor(d(bias)), padding=1)
        case("conv_pad_bias", [("f32", img), ("f32", k), ("f32", bias)], [("f32", ref.numpy())], 1e-5)
        ref = torch.nn.functional.conv2d(torch.tensor(d(img)), torch.tensor(d(k)),
                                         stride=2, dilation=2)
        case("conv_stride_dilation", [("f32", img), ("f32", k)], [("f32", ref.numpy())], 1e-5)
        img4, kg = f32(n, 4, 9, 9), f32(6, 2, 3, 3)
        ref = torch.nn.functional.conv2d(torch.tensor(d(img4)), torch.tensor(d(kg)),
                                         padding=1, groups=2)
        case("conv_groups", [("f32", img4), ("f32", kg)], [("f32", ref.numpy())], 1e-5)


def pooling():
    torch = torch_double()
    F = torch.nn.functional
    for n in (1, 7):
        x = f32(n, 3, 7, 9)
        t = torch.tensor(d(x))
        case("max_pool", [("f32", x)], [("f32", F.max_pool2d(t, 2, 2).numpy())])
        case("max_pool_pad", [("f32", x)], [("f32", F.max_pool2d(t, 3, 2, padding=1).numpy())])
        case("avg_pool_pad", [("f32", x)],
             [("f32", F.avg_pool2d(t, 3, 2, padding=1, count_include_pad=True).numpy())])
        # Ties (integer values) and NaNs: a NaN anywhere in a window is the
        # window's maximum, as in PyTorch.
        xt = np.round(f32(n, 3, 7, 9) * 2).astype(np.float32)
        xt.reshape(-1)[::17] = np.nan
        tt = torch.tensor(d(xt))
        case("max_pool", [("f32", xt)], [("f32", F.max_pool2d(tt, 2, 2).numpy())])


def reductions():
    for n in BATCHES:
        x = f32(n, 7, 65)
        case("reduce_sum_keep", [("f32", x)], [("f32", d(x).sum(axis=1, keepdims=True))], 1e-5)
        case("reduce_mean_02", [("f32", x)], [("f32", d(x).mean(axis=(0, 2)))], 1e-5)
        case("reduce_max_last", [("f32", x)], [("f32", d(x).max(axis=-1))])
        case("reduce_sum_all", [("f32", x)], [("f32", d(x).sum())], 1e-5)
        xi = rng.integers(0, 4, (n, 7, 65)).astype(np.int64)
        case("argmax_ties", [("i64", xi)], [("i64", xi.argmax(axis=1))])
        case("argmax_float", [("f32", x)], [("i64", d(x).argmax(axis=2)[:, :, None])])
        big = (d(x) * 40).astype(np.float32)
        e = np.exp(d(big) - d(big).max(axis=1, keepdims=True))
        sm = e / e.sum(axis=1, keepdims=True)
        case("softmax", [("f32", big)], [("f32", sm), ("f32", np.log(sm))], 1e-5)


def shape():
    for n in BATCHES:
        x = f32(n, 3136)
        case("reshape", [("f32", x)], [("f32", d(x).reshape(n, 64, 7, 7))])
        x4 = f32(n, 4, 3, 5)
        case("flatten", [("f32", x4)], [("f32", d(x4).reshape(n, 60)), ("f32", d(x4).reshape(n, 4, 15))])
        case("transpose", [("f32", x4)], [("f32", d(x4).transpose(0, 2, 3, 1))])
        b = f32(5)
        like = f32(n, 3, 5)
        case("broadcast_like", [("f32", b), ("f32", like)], [("f32", np.broadcast_to(d(b), (n, 3, 5)))])
        a, c = f32(n, 3), f32(n, 5)
        case("concat", [("f32", a), ("f32", c), ("f32", a)], [("f32", np.concatenate([d(a), d(c), d(a)], 1)),
                                                             ("f32", np.concatenate([d(a), d(a)], 0))])
        s = f32(n, 10, 7)
        case("slice", [("f32", s)], [("f32", d(s)[:, 2:9:3, 1:5])])
        idx = rng.integers(0, 11, (n, 6)).astype(np.int64)
        table = f32(11, 65)
        case("embedding", [("i64", idx), ("f32", table)], [("f32", d(table)[idx])])


def accuracy():
    """Long reductions on adversarial data: a common offset of 1000 (the sum
    of 10^6 elements reaches 1e9, where float32's spacing is 64) and the
    batch-norm statistics of 2^19 such elements; tolerances allow a blocked
    float32 sum's error, not a sequential one's."""
    x = (1000 + rng.uniform(-1, 1, 10**6)).astype(np.float32)
    case("sum_long", [("f32", x)], [("f32", d(x).sum())], 4e-6)
    case("mean_long", [("f32", x)], [("f32", d(x).mean())], 4e-6)
    xb = (1000 + rng.uniform(-1, 1, (64, 2, 64, 64))).astype(np.float32)
    g, b = f32(2), f32(2)
    m = d(xb).mean(axis=(0, 2, 3))
    v = d(xb).var(axis=(0, 2, 3))
    y = ((d(xb) - m[None, :, None, None]) / np.sqrt(v + 1e-5)[None, :, None, None]
         * d(g)[None, :, None, None] + d(b)[None, :, None, None])
    case("bn_offset", [("f32", xb), ("f32", g), ("f32", b)],
         [("f32", y), ("f32", m), ("f32", v)], 1e-4)
    case("bn_offset_var", [("f32", xb), ("f32", g), ("f32", b)], [("f32", v)], 2e-6)


def normalization():
    for n in BATCHES[:2] + (9,):
        x, g, b = f32(n, 3, 5, 7), f32(3), f32(3)
        m = d(x).mean(axis=(0, 2, 3))
        v = d(x).var(axis=(0, 2, 3))
        y = (d(x) - m[None, :, None, None]) / np.sqrt(v + 1e-5)[None, :, None, None] * d(g)[None, :, None, None] + d(b)[None, :, None, None]
        if n > 1:
            case("bn_train", [("f32", x), ("f32", g), ("f32", b)], [("f32", y), ("f32", m), ("f32", v)], 2e-5)
        rm, rv = f32(3), f32(3, lo=0.5, hi=2)
        y = (d(x) - d(rm)[None, :, None, None]) / np.sqrt(d(rv) + 1e-3)[None, :, None, None] * d(g)[None, :, None, None] + d(b)[None, :, None, None]
        case("bn_eval", [("f32", x), ("f32", g), ("f32", b), ("f32", rm), ("f32", rv)], [("f32", y)], 1e-5)
        x2, g2, b2 = f32(n, 6, 65), f32(65), f32(65)
        m = d(x2).mean(axis=-1, keepdims=True)
        v = d(x2).var(axis=-1, keepdims=True)
        case("layer_norm", [("f32", x2), ("f32", g2), ("f32", b2)],
             [("f32", (d(x2) - m) / np.sqrt(v + 1e-5) * d(g2) + d(b2))], 2e-5)


def losses():
    for n in BATCHES:
        x = f32(n, 10) * 30
        lab = rng.integers(0, 10, n).astype(np.int64)
        mx = d(x).max(axis=1)
        lse = mx + np.log(np.exp(d(x) - mx[:, None]).sum(axis=1))
        per = lse - d(x)[np.arange(n), lab]
        case("cross_entropy", [("f32", x), ("i64", lab)], [("f32", per.mean()), ("f32", per.sum())], 1e-5)
        gr = np.float32(rng.uniform(0.5, 2))
        sm = np.exp(d(x) - mx[:, None])
        sm /= sm.sum(axis=1, keepdims=True)
        oh = np.eye(10)[lab]
        case("cross_entropy_grad", [("f32", x), ("i64", lab), ("f32", np.array(gr))],
             [("f32", (sm - oh) * d(gr) / n), ("f32", (sm - oh) * d(gr))], 1e-5)
        cross_entropy_seq(n)
        y, t = f32(n, 7), f32(n, 7)
        tb = rng.uniform(0, 1, (n, 7)).astype(np.float32)
        xb = (d(y) * 20).astype(np.float32)
        bce = np.maximum(d(xb), 0) - d(xb) * d(tb) + np.log1p(np.exp(-np.abs(d(xb))))
        case("pair_losses", [("f32", y), ("f32", t), ("f32", xb), ("f32", tb)],
             [("f32", ((d(y) - d(t)) ** 2).mean()), ("f32", np.abs(d(y) - d(t)).sum()),
              ("f32", bce.mean())], 1e-5)


def cross_entropy_seq(n):
    """[n, 5, 7] logits, [n, 5] labels with some -100 (every one for n = 1):
    F.cross_entropy over the flattened tokens with ignore_index=-100 and
    label_smoothing 0.1 (mean) or none (sum), and their gradients (autograd,
    f64); an all-ignored mean is 0, where PyTorch gives NaN."""
    torch = torch_double()
    F = torch.nn.functional
    x = f32(n, 5, 7) * 10
    lab = rng.integers(0, 7, (n, 5)).astype(np.int64)
    lab[rng.uniform(0, 1, (n, 5)) < 0.3] = -100
    if n == 1:
        lab[:] = -100
    gr = np.float32(rng.uniform(0.5, 2))
    outs, grads = [], []
    for red, eps in (("mean", 0.1), ("sum", 0.0)):
        xt = torch.tensor(d(x), requires_grad=True)
        loss = F.cross_entropy(xt.reshape(-1, 7), torch.tensor(lab).reshape(-1),
                               ignore_index=-100, label_smoothing=eps, reduction=red)
        if torch.isnan(loss):
            loss = (xt * 0).sum()
        (loss * float(gr)).backward()
        outs.append(("f32", loss.detach().numpy()))
        grads.append(("f32", xt.grad.numpy()))
    case("cross_entropy_seq", [("f32", x), ("i64", lab), ("f32", np.array(gr))],
         outs + grads, 1e-5)


# (name, input shape without batch, weight shape, stride, padding, dilation, groups)
CONV_GRADS = (
    ("pad1", (3, 13, 11), (5, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1),
    ("stride2_dil2", (3, 13, 11), (5, 3, 3, 3), (2, 2), (0, 0), (2, 2), 1),
    ("stride2_rem", (3, 12, 10), (4, 3, 3, 3), (2, 2), (1, 1), (1, 1), 1),
    ("groups2", (4, 9, 9), (6, 2, 3, 3), (1, 1), (1, 1), (1, 1), 2),
    ("k1_pad1", (3, 7, 9), (4, 3, 1, 1), (2, 2), (1, 1), (1, 1), 1),
    ("mixed", (2, 11, 13), (3, 2, 3, 2), (2, 1), (1, 0), (1, 2), 1),
    ("groups3_stride2", (6, 10, 9), (3, 2, 3, 3), (2, 3), (2, 1), (1, 1), 3),
)


def conv_grads():
    """conv2d_grad_input / conv2d_grad_weight against PyTorch autograd (f64)."""
    torch = torch_double()
    F = torch.nn.functional
    for n in (1, 7):
        for name, xs, ws, st, pad, dil, grp in CONV_GRADS:
            x, w = f32(n, *xs), f32(*ws)
            tx = torch.tensor(d(x), requires_grad=True)
            tw = torch.tensor(d(w), requires_grad=True)
            y = F.conv2d(tx, tw, stride=st, padding=pad, dilation=dil, groups=grp)
            g = f32(*y.shape)
            dx, dw = torch.autograd.grad(y, (tx, tw), torch.tensor(d(g)))
            case("conv_grads_" + name, [("f32", g), ("f32", w), ("f32", x)],
                 [("f32", dx.numpy()), ("f32", dw.numpy())], 5e-5)


def pool_grads():
    """max_pool2d_grad / avg_pool2d_grad against PyTorch autograd (f64)."""
    torch = torch_double()
    F = torch.nn.functional
    configs = (("k2s2", 2, 2, 0), ("k3s2p1", 3, 2, 1), ("k3s1p1", 3, 1, 1))
    for n in (1, 7):
        x = f32(n, 3, 7, 9)
        ties = rng.integers(0, 3, (n, 3, 7, 9)).astype(np.float32)
        for name, k, s, p in configs:
            for kind, data in (("", x), ("_ties", ties)):
                t = torch.tensor(d(data), requires_grad=True)
                y = F.max_pool2d(t, k, s, padding=p)
                g = f32(*y.shape)
                (dx,) = torch.autograd.grad(y, t, torch.tensor(d(g)))
                case("max_grad_" + name + kind, [("f32", g), ("f32", data)],
                     [("f32", dx.numpy())], 1e-6)
            t = torch.tensor(d(x), requires_grad=True)
            y = F.avg_pool2d(t, k, s, padding=p, count_include_pad=True)
            g = f32(*y.shape)
            (dx,) = torch.autograd.grad(y, t, torch.tensor(d(g)))
            case("avg_grad_" + name, [("f32", g), ("f32", x)], [("f32", dx.numpy())], 1e-6)
        # 2x2 windows tiling an 8x6 input (the one-generic form): random,
        # tied and NaN-holding windows (PyTorch: a NaN is the maximum, the
        # last NaN of a window wins).
        tied = rng.integers(0, 3, (n, 3, 8, 6)).astype(np.float32)
        nans = tied.copy()
        nans[rng.random(nans.shape) < 0.15] = np.nan
        for kind, data in (("", f32(n, 3, 8, 6)), ("_ties", tied), ("_nan", nans)):
            t = torch.tensor(d(data), requires_grad=True)
            y = F.max_pool2d(t, 2, 2)
            g = f32(*y.shape)
            (dx,) = torch.autograd.grad(y, t, torch.tensor(d(g)))
            case("max_grad_tiled" + kind, [("f32", g), ("f32", data)],
                 [("f32", dx.numpy())], 1e-6)


def scatter_grads():
    """slice_grad (strided insert into zeros) and embedding_grad (np.add.at)."""
    for n in BATCHES:
        x, g = f32(n, 10, 7), f32(n, 3, 4)
        want = np.zeros((n, 10, 7))
        want[:, 2:9:3, 1:5] = d(g)
        case("slice_grad", [("f32", g), ("f32", x)], [("f32", want)])
        idx = rng.integers(0, 11, (n, 6)).astype(np.int64)
        ge, table = f32(n, 6, 65), f32(11, 65)
        want = np.zeros((11, 65))
        np.add.at(want, idx, d(ge))
        case("embedding_grad", [("f32", ge), ("i64", idx), ("f32", table)], [("f32", want)], 1e-5)
        idx1 = rng.integers(0, 4, (n,)).astype(np.int32)
        g1, t1 = f32(n, 5), f32(4, 5)
        want = np.zeros((4, 5))
        np.add.at(want, idx1, d(g1))
        case("embedding_grad_1d", [("f32", g1), ("i32", idx1), ("f32", t1)], [("f32", want)], 1e-5)


M32 = 0xFFFFFFFF


def philox(ctr, key):
    c0, c1, c2, c3 = (np.asarray(v, dtype=np.uint64) for v in ctr)
    k0, k1 = (np.uint64(k) for k in key)
    for r in range(10):
        if r:
            k0 = (k0 + np.uint64(0x9E3779B9)) & np.uint64(M32)
            k1 = (k1 + np.uint64(0xBB67AE85)) & np.uint64(M32)
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        hi0, lo0 = p0 >> np.uint64(32), p0 & np.uint64(M32)
        hi1, lo1 = p1 >> np.uint64(32), p1 & np.uint64(M32)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
    return c0, c1, c2, c3


def philox_keep(count, seed, rate):
    """The dropout mask of counter indices 0..count-1: word i % 4 of Philox
    with counter i / 4 and the seed's two halves as key, u = (w >> 8) 2^-24,
    kept when u >= rate."""
    i = np.arange(count, dtype=np.uint64)
    g = i // np.uint64(4)
    s = seed & 0xFFFFFFFFFFFFFFFF
    words = philox((g & np.uint64(M32), g >> np.uint64(32), np.zeros_like(g), np.zeros_like(g)),
                   (s & M32, s >> 32))
    w = np.choose((i % np.uint64(4)).astype(np.int64), words)
    return (w >> np.uint64(8)).astype(np.float64) * 2.0 ** -24 >= rate


def random():
    # Known-answer test of this reference (Random123 philox4x32_10, zero
    # counter and key: 6627e8d5 e169c58d bc57ac4c 9b00dbd8).
    assert [int(w) for w in philox((0, 0, 0, 0), (0, 0))] == [
        0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
    # [n, 3, 65] (n * 195 elements: the one-loop form) and [n, 4, 16] (a
    # multiple of 4: the [n / 4, 4] form).
    for n, seed, rate in ((1, 0, 0.5), (7, 123456789012345, 0.25), (65, -5, 0.9)):
        for name, shape in (("", (n, 3, 65)), ("_grouped", (n, 4, 16))):
            x = f32(*shape)
            # Element i: word i % 4 of Philox with counter i / 4.
            mask = philox_keep(x.size, seed, rate).reshape(x.shape)
            out = np.where(mask, d(x) / d(np.float32(1 - rate)), 0.0)
            case("dropout_%d%s" % (int(rate * 100), name), [("f32", x), ("i64", np.array(seed))],
                 [("f32", out), ("i1", mask)])
        # per_channel on [n, 3, 5, 7]: the counter index of element
        # [b, c, h, w] is b * 3 + c, so each feature map is kept or zeroed.
        x = f32(n, 3, 5, 7)
        mask = np.broadcast_to(philox_keep(n * 3, seed, rate).reshape(n, 3, 1, 1), x.shape)
        out = np.where(mask, d(x) / d(np.float32(1 - rate)), 0.0)
        case("dropout_channels_%d" % int(rate * 100), [("f32", x), ("i64", np.array(seed))],
             [("f32", out), ("i1", mask)])


ATTENTION = (  # name, heads, queries, keys, width, causal
    ("self_causal", 2, 5, 5, 8, True),
    ("cross", 3, 3, 7, 4, False),
    ("decode_causal", 2, 2, 6, 8, True),
    ("long_causal", 1, 67, 67, 33, True),
)


def attention():
    """attention / attention_grad against PyTorch autograd (f64): softmax(q
    k^T / sqrt(D) + causal mask) v, the mask aligned at the bottom right."""
    torch = torch_double()
    for n in (1, 7):
        for name, h, tq, tk, w, causal in ATTENTION:
            q, k, v = f32(n, h, tq, w), f32(n, h, tk, w), f32(n, h, tk, w)
            tq_, tk_, tv_ = (torch.tensor(d(a), requires_grad=True) for a in (q, k, v))
            s = tq_ @ tk_.transpose(-1, -2) / np.sqrt(w)
            if causal:
                keep = torch.ones(tq, tk, dtype=torch.bool).tril(tk - tq)
                s = s.masked_fill(~keep, float("-inf"))
            o = torch.softmax(s, dim=-1) @ tv_
            g = f32(n, h, tq, w)
            dq, dk, dv = torch.autograd.grad(o, (tq_, tk_, tv_), torch.tensor(d(g)))
            out = o.detach().numpy()
            case("attention_" + name, [("f32", q), ("f32", k), ("f32", v)],
                 [("f32", out)], 2e-5)
            case("attention_grad_" + name,
                 [("f32", q), ("f32", k), ("f32", v), ("f32", out.astype(np.float32)), ("f32", g)],
                 [("f32", dq.numpy()), ("f32", dk.numpy()), ("f32", dv.numpy())], 5e-5)


PACKED = (  # name, heads, length, width, causal
    ("causal", 2, 5, 8, True),
    ("full", 3, 7, 4, False),
    ("long", 2, 67, 33, True),
)


def attention_packed():
    """attention_packed / attention_packed_grad against PyTorch autograd
    (f64): qkv [B, T, 3, H, D] split into q, k, v moved to [B, H, T, D],
    attention as above, the output moved to [B, T, H, D]."""
    torch = torch_double()
    for n in (1, 7):
        for name, h, t, w, causal in PACKED:
            qkv = f32(n, t, 3, h, w)
            x = torch.tensor(d(qkv), requires_grad=True)
            q, k, v = (x[:, :, i].transpose(1, 2) for i in range(3))
            s = q @ k.transpose(-1, -2) / np.sqrt(w)
            if causal:
                keep = torch.ones(t, t, dtype=torch.bool).tril()
                s = s.masked_fill(~keep, float("-inf"))
            o = (torch.softmax(s, dim=-1) @ v).transpose(1, 2)
            g = f32(n, t, h, w)
            (dx,) = torch.autograd.grad(o, (x,), torch.tensor(d(g)))
            out = o.detach().numpy()
            for dtype in ("f32", "f64"):
                cast = np.float32 if dtype == "f32" else np.float64
                case("packed_%s_%s" % (name, dtype), [(dtype, qkv.astype(cast))],
                     [(dtype, out)], 2e-5)
                case("packed_grad_%s_%s" % (name, dtype),
                     [(dtype, qkv.astype(cast)), (dtype, out.astype(np.float32).astype(cast)),
                      (dtype, g.astype(cast))],
                     [(dtype, dx.numpy())], 5e-5)


def attention_decode():
    """One decoding step: the position's key and value written into row pos
    of the caches [1, H, T, D] (the other rows random: only rows 0..pos may
    be read), and the query's attention over rows 0..pos (float64 numpy);
    results the output and the two updated caches. f32 (through the
    runtime, or expanded) and f64 (unfused)."""
    for name, dtype, h, t, w, positions in (("f32", np.float32, 2, 6, 8, (0, 3, 5)),
                                            ("f64", np.float64, 3, 9, 5, (0, 4, 8))):
        for pos in positions:
            q, k, v = (f32(1, h, 1, w).astype(dtype) for _ in range(3))
            kc, vc = f32(1, h, t, w).astype(dtype), f32(1, h, t, w).astype(dtype)
            kc2, vc2 = d(kc).copy(), d(vc).copy()
            kc2[:, :, pos], vc2[:, :, pos] = d(k)[:, :, 0], d(v)[:, :, 0]
            s = np.einsum("bhd,bhjd->bhj", d(q)[:, :, 0], kc2[:, :, :pos + 1]) / np.sqrt(w)
            p = np.exp(s - s.max(-1, keepdims=True))
            p /= p.sum(-1, keepdims=True)
            out = np.einsum("bhj,bhjd->bhd", p, vc2[:, :, :pos + 1])[:, :, None]
            case("decode_" + name,
                 [(name, q), (name, k), (name, v), (name, kc), (name, vc),
                  ("i64", np.array(pos))],
                 [(name, out), (name, kc2), (name, vc2)], 2e-5)


def main():
    family = sys.argv[1]
    globals()[family]()
    with open(sys.argv[2], "w") as f:
        f.writelines(OUT)


if __name__ == "__main__":
    main()
