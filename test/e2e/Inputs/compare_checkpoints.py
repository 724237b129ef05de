#!/usr/bin/env python3
"""Compares the tensors of two checkpoints, tensor by tensor.

compare_checkpoints.py A.safetensors B.safetensors --rtol X [--atol Y]

Reads both safetensors files with json + struct (independently of the
runtime). For every F32 tensor of A (parameters, state, optimizer moments)
prints `NAME n=N max|a|=.. max|a-b|=.. ok|MISMATCH`, where a tensor is ok
when max|a-b| <= X * max|a| + Y (Y, default 0, for tensors that are
rounding noise around zero, e.g. the gradient of a bias before batch norm). Exits 1 when a tensor differs, is
missing from B, has another size, or holds a non-finite value.
"""
import argparse
import json
import math
import struct
import sys


def read(path):
    blob = open(path, "rb").read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    out = {}
    for name, t in header.items():
        if name == "__metadata__" or t["dtype"] != "F32":
            continue
        lo, hi = t["data_offsets"]
        out[name] = struct.unpack("<%df" % ((hi - lo) // 4), data[lo:hi])
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rtol", type=float, required=True)
    p.add_argument("--atol", type=float, default=0.0)
    args = p.parse_args()
    a, b = read(args.a), read(args.b)
    bad = 0
    for name in sorted(a):
        va, vb = a[name], b.get(name)
        if vb is None or len(vb) != len(va):
            print("%s: missing or of another size in %s" % (name, args.b))
            bad += 1
            continue
        finite = all(math.isfinite(x) for x in va + vb)
        scale = max((abs(x) for x in va), default=0.0)
        diff = max((abs(x - y) for x, y in zip(va, vb)), default=0.0)
        ok = finite and diff <= args.rtol * scale + args.atol
        print("%s n=%d max|a|=%.4g max|a-b|=%.3g %s" % (
            name, len(va), scale, diff, "ok" if ok else "MISMATCH"))
        bad += not ok
    if not a:
        sys.exit("%s: no F32 tensors" % args.a)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
