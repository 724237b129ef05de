#!/usr/bin/env python3
"""Prints the batch-norm running statistics stored in a checkpoint.

wf_bn_state.py CHECKPOINT.safetensors

Reads the safetensors file with json + struct (independently of the
runtime) and, for every `state/NAME.running_mean` / `running_var` tensor,
prints `NAME.running_mean n=N min=.. max=.. moved` where `moved` says
whether any element differs from its initial value (mean 0, variance 1).
Exits 1 when the file has no running statistics.
"""
import json
import struct
import sys


def main():
    path = sys.argv[1]
    blob = open(path, "rb").read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    found = 0
    for name, t in sorted(header.items()):
        if not name.startswith("state/") or t["dtype"] != "F32":
            continue
        lo, hi = t["data_offsets"]
        values = struct.unpack("<%df" % ((hi - lo) // 4), data[lo:hi])
        init = 0.0 if name.endswith("running_mean") else 1.0
        moved = any(v != init for v in values)
        print("%s n=%d min=%.4g max=%.4g %s" % (name[len("state/"):], len(values),
              min(values), max(values), "moved" if moved else "UNCHANGED"))
        found += 1
    if not found:
        sys.exit("%s: no running statistics" % path)


if __name__ == "__main__":
    main()
