#!/usr/bin/env python3
"""Writes a small safetensors checkpoint for the export tests.

make_safetensors.py OUT --model NAME [NAME=D0xD1... | NAME=scalar]...
                    [--truncate N]

Each tensor is F32 of the given shape holding 0.0, 0.1, 0.2, ... in
row-major order; the metadata holds `model` = NAME (the only key the
exporter reads). --truncate N drops the last N bytes of the file.
"""
import argparse
import json
import struct

import numpy as np


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
    header["__metadata__"] = {"model": args.model}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    blob = struct.pack("<Q", len(text)) + text + data
    with open(args.out, "wb") as f:
        f.write(blob[:len(blob) - args.truncate])


if __name__ == "__main__":
    main()
