#!/usr/bin/python3
"""Times PyTorch's f32 and bf16 matrix products (oneDNN through Debian's
PyTorch) on bench/bf16/gemm_bf16.cpp's shapes: the median of REPS calls
after 3 warm-ups, in GFLOP/s, beside modelc's figures. A measurement, not
a test. Usage: /usr/bin/python3 bench/bf16/torch_gemm.py [REPS]"""
import sys
import time

import torch

SHAPES = [("square 2048", 2048, 2048, 2048), ("square 512", 512, 512, 512),
          ("MLP fc1 fwd 128x256x784", 128, 256, 784),
          ("MLP fc1 dW 784x256x128", 784, 256, 128),
          ("CNN conv2 as GEMM 64x12544x288", 64, 12544, 288),
          ("CNN fc1 fwd 64x128x3136", 64, 128, 3136)]


def median(reps, f):
    for _ in range(3):
        f()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print("PyTorch %s, %d threads" % (torch.__version__, torch.get_num_threads()))
    print("%-32s %10s %10s %8s" % ("shape (MxNxK)", "f32", "bf16", "bf16/f32"))
    for name, m, n, k in SHAPES:
        a, b = torch.randn(m, k), torch.randn(k, n)
        ab, bb = a.bfloat16(), b.bfloat16()
        flop = 2.0 * m * n * k
        f32 = median(reps, lambda: a @ b)
        bf16 = median(reps, lambda: ab @ bb)
        print("%-32s %10.1f %10.1f %7.2fx" % (name, flop / f32 / 1e9, flop / bf16 / 1e9,
                                             f32 / bf16))


if __name__ == "__main__":
    main()
