#!/usr/bin/env python3
"""Writes a small safetensors checkpoint for the export tests.

make_safetensors.py OUT --model NAME [NAME=D0xD1... | NAME=scalar]...
                    [--truncate N]

Each tensor is F32 of the given shape holding 0.0, 0.1, 0.2, ... in
row-major order; the metadata holds `model` = NAME (the only key the
exporter reads) and what the exporter checks of the file as a whole, as
docs/checkpoints.md defines it: `format`, `format_version` and the
`checksum` (FNV-1a 64 over the file, its own 16 digits read as "0").
--truncate N drops the last N bytes of the file (after the checksum).
"""
import argparse
import json
import struct

import numpy as np


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--model", required=True)
    ap.add_argument("--truncate", type=int, default=0)
    ap.add_argument("tensors", nargs="*")
    args = ap.parse_intermixed_args()
    header, data = {}, b""
    for spec in args.tensors:
        name, dims = spec.split("=")
        shape = [] if dims == "scalar" else [int(d) for d in dims.split("x")]
        values = (np.arange(int(np.prod(shape)), dtype=np.float32) * 0.1)
        raw = values.astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": shape,
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    header["__metadata__"] = {"model": args.model,
                              "format": "modelrt-checkpoint",
                              "format_version": "6",
                              "checksum": "0x" + "0" * 16}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    blob = struct.pack("<Q", len(text)) + text + data
    digits = blob.index(b'"checksum":"0x') + len(b'"checksum":"0x')
    blob = blob[:digits] + b"%016x" % fnv1a64(blob) + blob[digits + 16:]
    with open(args.out, "wb") as f:
        f.write(blob[:len(blob) - args.truncate])


if __name__ == "__main__":
    main()
