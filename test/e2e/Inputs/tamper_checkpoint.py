#!/usr/bin/env python3
"""Edits one __metadata__ field of a safetensors checkpoint.

tamper_checkpoint.py SRC DST KEY VALUE [--keep-checksum] [--drop KEY2]...
[--set KEY3 VALUE3]...: DST is SRC with metadata KEY set to VALUE (and each
KEY2 removed, each KEY3 set to VALUE3), the
header re-encoded (no whitespace, padded
with spaces to a multiple of 8) and the whole-file checksum recomputed
(FNV-1a 64 over the file with the checksum's 16 hex digits read as '0',
docs/checkpoints.md) -- a deliberate edit. With --keep-checksum the old
checksum stays, as an accidental corruption would leave it.
"""
import json
import struct
import sys

PREFIX = b'"checksum":"0x'


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for c in data:
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    src, dst, key, value = sys.argv[1:5]
    rest = sys.argv[5:]
    reseal = "--keep-checksum" not in rest
    drops = [rest[i + 1] for i, a in enumerate(rest) if a == "--drop"]
    sets = [(rest[i + 1], rest[i + 2]) for i, a in enumerate(rest) if a == "--set"]
    b = open(src, "rb").read()
    n, = struct.unpack("<Q", b[:8])
    header = json.loads(b[8:8 + n])
    header["__metadata__"][key] = value
    for k in drops:
        del header["__metadata__"][k]
    for k, v in sets:
        header["__metadata__"][k] = v
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    out = bytearray(struct.pack("<Q", len(text)) + text + b[8 + n:])
    if reseal:
        at = out.index(PREFIX) + len(PREFIX)
        out[at:at + 16] = b"0" * 16
        out[at:at + 16] = b"%016x" % fnv1a64(bytes(out))
    open(dst, "wb").write(bytes(out))


if __name__ == "__main__":
    main()
