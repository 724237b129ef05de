# test/runtime/ref/schedule_ref.py — reference learning rates for
# ScheduleTest.cpp from PyTorch 1.13's lr_scheduler. Run: /usr/bin/python3 ref/schedule_ref.py
import torch

def lrs(make, n, metrics=None):
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=1.0)
    s = make(opt)
    out = []
    for i in range(n):
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        s.step(metrics[i]) if metrics else s.step()
    return out

print("multistep", lrs(lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [2, 5], 0.1), 7))
print("exponential", lrs(lambda o: torch.optim.lr_scheduler.ExponentialLR(o, 0.9), 4))
losses = [1.0, 0.9, 0.95, 0.91, 0.92, 0.5, 0.6, 0.7, 0.8, 0.9]
print("plateau", lrs(lambda o: torch.optim.lr_scheduler.ReduceLROnPlateau(o, factor=0.5, patience=1, min_lr=0.2), 10, losses))
