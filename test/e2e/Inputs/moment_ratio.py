#!/usr/bin/env python3
"""moment_ratio.py A.safetensors B.safetensors SUFFIX RATIO TOL

Reads two checkpoints (compare_checkpoints.read: json + struct, independently
of the runtime) and checks that every F32 tensor whose name ends with SUFFIX
holds, element by element, B = RATIO x A within a relative TOL (elements of
A that are 0 must be 0 in B). Prints one line per tensor; exits 1 on a mismatch or when
no tensor has the suffix.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_checkpoints import read  # noqa: E402  (the checkpoint reader)


def main():
    a, b = read(sys.argv[1]), read(sys.argv[2])
    suffix, ratio, tol = sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
    names = [n for n in a if n.endswith(suffix)]
    bad = not names
    for name in names:
        ok = len(a[name]) == len(b.get(name, ())) and all(
            (x == 0 and y == 0) or (x != 0 and abs(y / x - ratio) <= tol * ratio)
            for x, y in zip(a[name], b[name]))
        print("%s %s" % (name, "ok" if ok else "MISMATCH"))
        bad = bad or not ok
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
