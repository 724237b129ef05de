#!/usr/bin/env python3
"""The scaling model of docs/distributed.md, from measured figures.

model.py --name M --bytes B --step-seconds T --batch b

B: the gradient bytes each rank sends into the sums per step (the model's
parameters, f32); T: the compute time of one step of b samples on one
node (measured by scaling.sh as 1 rank x 2 threads on this machine).

Each rank keeps b samples per step (the global batch grows with N). The
model adds all the communication to compute, as if none overlapped the
backward pass: efficiency = T / (T + C(N)), a lower bound on the CPU,
where the buckets' sums start during the backward pass. C(N) is an
allreduce by recursive halving and doubling (Rabenseifner: reduce-scatter
then all-gather): 2 log2(N) latencies per bucket of 512 KiB (the
runtime's GradReduce::kBucketBytes; 4 MiB for NCCL)
plus 2 (N-1)/N B of traffic per rank, at the link's bandwidth.

CPU nodes: 25 Gbit/s Ethernet, 3.1 GB/s, 25 us per message (TCP).
8 GPUs on NVLink (H200, NCCL): 370 GB/s bus bandwidth, 15 us per
allreduce; the compute per step is the H200's measured rate
(bench/gpu/results/2026-11-30-h200-3, modelc, batch 64 and 512). Through
the host instead (without NCCL: the runtime's fallback): the gradients
copied to the host (25 GB/s), summed through shared memory (6 GB/s, 5 us),
the optimizer step on the host (one pass over parameters and two moments,
8 GB/s) and the parameters copied back (25 GB/s).
"""
import argparse
import math

# modelc on the H200, samples/s (bench/gpu/results/2026-11-30-h200-3/README.md).
GPU_RATE = {("cnn", 64): 181968, ("cnn", 512): 368384,
            ("mlp", 64): 732610, ("mlp", 512): 1883580}
# The runtime's buckets (runtime/include/modelrt/dist/GradReduce.h,
# kBucketBytes), and those assumed for NCCL (4 MiB, as DDP's default order of size).
BUCKET = 512 << 10
NCCL_BUCKET = 4 << 20


def allreduce(n, nbytes, bandwidth, latency, bucket=BUCKET):
    if n <= 1:
        return 0.0
    buckets = max(1, math.ceil(nbytes / bucket))
    return 2 * math.log2(n) * latency * buckets + 2 * (n - 1) / n * nbytes / bandwidth


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--bytes", type=float, required=True)
    ap.add_argument("--step-seconds", type=float, required=True)
    ap.add_argument("--batch", type=int, required=True)
    a = ap.parse_args()
    t, b = a.step_seconds, a.bytes
    print("| %s | nodes | compute ms/step | allreduce ms/step | efficiency |" % a.name)
    print("| --- | ---: | ---: | ---: | ---: |")
    for n in (8, 64, 512):
        c = allreduce(n, b, 25e9 / 8, 25e-6)
        print("| CPU, 25 Gbit/s, batch %d per node | %d | %.2f | %.2f | %.2f |"
              % (a.batch, n, t * 1e3, c * 1e3, t / (t + c)))
    for gb in (64, 512):
        rate = GPU_RATE.get((a.name, gb))
        if not rate:
            continue
        g = gb / rate
        nccl = allreduce(8, b, 370e9, 15e-6, NCCL_BUCKET)
        host = b / 25e9 + allreduce(8, b, 6e9, 5e-6) + 3 * b * 2 / 8e9 + b / 25e9
        print("| 8 H200, NVLink + NCCL, batch %d per GPU | 8 | %.3f | %.3f | %.2f |"
              % (gb, g * 1e3, nccl * 1e3, g / (g + nccl)))
        print("| 8 H200, through the host, batch %d per GPU | 8 | %.3f | %.3f | %.2f |"
              % (gb, g * 1e3, host * 1e3, g / (g + host)))


if __name__ == "__main__":
    main()
