#!/usr/bin/python3
"""bench/numerics/bn_output.py CASES: batch-norm's output at batch 256 on 32
maps of 28x28 (conv-like activations: per-channel offsets and scales),
computed in float64 (the reference) and by PyTorch in float32. Prints
PyTorch float32's largest error, |got - want| / (1 + |want|), and writes the
input and the reference to CASES in the text format of
test/Conversion/Execution/Inputs/runner.cpp, which bn_output.sh runs
modelc's compiled batch norm on (the same error measure)."""
import numpy as np, torch, sys
rng = np.random.default_rng(7)
# conv-like activations: per-channel offsets and scales
x = (rng.normal(0, 1, (256, 32, 28, 28)) * rng.uniform(0.5, 2, (1, 32, 1, 1)) + rng.uniform(-3, 3, (1, 32, 1, 1))).astype(np.float32)
g = rng.uniform(0.5, 1.5, 32).astype(np.float32); b = rng.uniform(-1, 1, 32).astype(np.float32)
d = lambda a: np.asarray(a, np.float64)
m = d(x).mean(axis=(0, 2, 3)); v = d(x).var(axis=(0, 2, 3))
y = (d(x) - m[None, :, None, None]) / np.sqrt(v + 1e-5)[None, :, None, None] * d(g)[None, :, None, None] + d(b)[None, :, None, None]
yt = torch.nn.functional.batch_norm(torch.tensor(x), None, None, torch.tensor(g), torch.tensor(b), training=True, eps=1e-5).numpy()
err = np.abs(d(yt) - y) / (1 + np.abs(y))
print("pytorch f32 max error %.3g (|got-want|/(1+|want|))" % err.max())
with open(sys.argv[1], "w") as f:
    f.write("case bn256 3 1 1\n")
    for kind, a in (("in", x), ("in", g), ("in", b), ("out", y)):
        f.write("%s f32 %d %s %s\n" % (kind, a.ndim, " ".join(map(str, a.shape)), " ".join("%.9g" % v for v in np.asarray(a, np.float64).ravel())))
