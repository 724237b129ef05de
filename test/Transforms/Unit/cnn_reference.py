"""PyTorch reference for AutodiffTorchTest: the small SimpleCNN.

The network is kSimpleCnn of GradCheckUtil.h (examples/fashion_mnist/cnn.model
at a small size, dropout omitted): x (2x1x8x8) -> conv 1->4 k3 p1 -> relu ->
max_pool 2 -> conv 4->8 k3 p1 -> relu -> max_pool 2 -> flatten -> x @ fw + fb
(fw is 32x10, [in, out] like mdl.matmul) -> mean cross-entropy with labels
[3, 8]. Data follow testData in GradCheckUtil.h: element i (row-major) of
tensor number k is scale * sin(1.7 * i + 0.9 * k + 0.3). Tensors: 0 = x
(scale 1), 1 = c1w (4x1x3x3, 0.5), 2 = c1b (4, 0.1), 3 = c2w (8x4x3x3, 0.3),
4 = c2b (8, 0.1), 5 = fw (32x10, 0.4), 6 = fb (10, 0.1). Prints the loss and
then one line per parameter ("name v0 v1 ..."), in float64.
"""
import math
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    sys.stderr.write("PyTorch is not importable by /usr/bin/python3: "
                     "run scripts/setup.sh\n")
    sys.exit(3)


def test_data(shape, k, scale):
    n = math.prod(shape)
    values = [scale * math.sin(1.7 * i + 0.9 * k + 0.3) for i in range(n)]
    return torch.tensor(values, dtype=torch.float64).reshape(shape)


x = test_data((2, 1, 8, 8), 0, 1.0)
params = {
    "c1w": test_data((4, 1, 3, 3), 1, 0.5),
    "c1b": test_data((4,), 2, 0.1),
    "c2w": test_data((8, 4, 3, 3), 3, 0.3),
    "c2b": test_data((8,), 4, 0.1),
    "fw": test_data((32, 10), 5, 0.4),
    "fb": test_data((10,), 6, 0.1),
}
for p in params.values():
    p.requires_grad_(True)
labels = torch.tensor([3, 8])
h = F.max_pool2d(F.relu(F.conv2d(x, params["c1w"], params["c1b"], padding=1)), 2)
h = F.max_pool2d(F.relu(F.conv2d(h, params["c2w"], params["c2b"], padding=1)), 2)
logits = torch.flatten(h, 1) @ params["fw"] + params["fb"]
loss = F.cross_entropy(logits, labels)
loss.backward()
print("loss %.17g" % loss.item())
for name, p in params.items():
    print(name, " ".join("%.17g" % v for v in p.grad.flatten().tolist()))
