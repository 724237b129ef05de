# test/runtime/ref/optimizer_ref.py — reference numbers for OptimizerTest.cpp,
# produced with PyTorch 1.13's torch.optim. Run: /usr/bin/python3 ref/optimizer_ref.py
# Problem: p0 = [1.0, -2.0, 0.5], gradient at each step g = 2*p*c + b with
# c = [1, 3, 0.5], b = [0.1, -0.2, 0.3] (a quadratic), 5 steps, float32.
import torch

def run(make, steps=5):
    p = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float32, requires_grad=True)
    c = torch.tensor([1.0, 3.0, 0.5])
    b = torch.tensor([0.1, -0.2, 0.3])
    opt = make([p])
    for _ in range(steps):
        opt.zero_grad()
        p.grad = (2 * p.detach() * c + b)
        opt.step()
    return p.detach().tolist()

cases = {
    "sgd": lambda ps: torch.optim.SGD(ps, lr=0.1),
    "sgd_momentum_wd": lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9, weight_decay=0.01),
    "sgd_nesterov": lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.8, nesterov=True),
    "sgd_dampening": lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9, dampening=0.5),
    "adam": lambda ps: torch.optim.Adam(ps, lr=0.01),
    "adam_wd": lambda ps: torch.optim.Adam(ps, lr=0.02, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1),
    "adamw": lambda ps: torch.optim.AdamW(ps, lr=0.02, weight_decay=0.1),
    "rmsprop": lambda ps: torch.optim.RMSprop(ps, lr=0.01),
    "rmsprop_momentum_wd": lambda ps: torch.optim.RMSprop(ps, lr=0.01, alpha=0.9, momentum=0.5, weight_decay=0.05),
}
for name, make in cases.items():
    print(f'  {{"{name}", {{' + ", ".join(f"{v:.9g}f" for v in run(make)) + "}},")

# Gradient clipping by global norm: torch.nn.utils.clip_grad_norm_.
g1 = torch.tensor([3.0, 4.0]); g2 = torch.tensor([12.0])
p1 = torch.zeros(2, requires_grad=True); p2 = torch.zeros(1, requires_grad=True)
p1.grad = g1.clone(); p2.grad = g2.clone()
n = torch.nn.utils.clip_grad_norm_([p1, p2], 6.5)
print("clip: norm", float(n), "grads", p1.grad.tolist(), p2.grad.tolist())
