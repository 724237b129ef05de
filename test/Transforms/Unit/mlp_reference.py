"""PyTorch reference for AutodiffTorchTest: a 784->32->10 MLP.

Parameters and data follow the formula shared with the C++ test
(testData in GradCheckUtil.h): element i (row-major) of tensor number k is
scale * sin(1.7 * i + 0.9 * k + 0.3) + offset. Tensors: 0 = x (4x784, scale
1), 1 = w1 (784x32, scale 0.05), 2 = b1 (32, scale 0.1), 3 = w2 (32x10,
scale 0.2), 4 = b2 (10, scale 0.1); labels = [3, 7, 1, 9]. Loss: mean
cross-entropy of relu(x @ w1 + b1) @ w2 + b2. Prints the loss and then one
line per parameter ("name v0 v1 ..."), in float64.
"""
import math
import sys

try:
    import torch
except ImportError:
    sys.stderr.write("PyTorch is not importable by /usr/bin/python3: "
                     "run scripts/setup.sh\n")
    sys.exit(3)


def test_data(shape, k, scale):
    n = math.prod(shape)
    values = [scale * math.sin(1.7 * i + 0.9 * k + 0.3) for i in range(n)]
    return torch.tensor(values, dtype=torch.float64).reshape(shape)


x = test_data((4, 784), 0, 1.0)
params = {
    "w1": test_data((784, 32), 1, 0.05),
    "b1": test_data((32,), 2, 0.1),
    "w2": test_data((32, 10), 3, 0.2),
    "b2": test_data((10,), 4, 0.1),
}
for p in params.values():
    p.requires_grad_(True)
labels = torch.tensor([3, 7, 1, 9])
hidden = torch.relu(x @ params["w1"] + params["b1"])
loss = torch.nn.functional.cross_entropy(hidden @ params["w2"] + params["b2"],
                                         labels)
loss.backward()
print("loss %.17g" % loss.item())
for name, p in params.items():
    print(name, " ".join("%.17g" % v for v in p.grad.flatten().tolist()))
