"""drop_metadata.py IN KEY OUT: writes checkpoint IN without __metadata__
field KEY, its checksum resealed as the runtime computes it (FNV-1a 64
over the file with the checksum's 16 hex digits read as '0'), i.e. a
checkpoint as a runtime that never wrote KEY would have written it."""
import json
import struct
import sys

FNV_OFFSET, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3
PREFIX = b'"checksum":"0x'


def fnv1a(data):
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def main(src, key, dst):
    raw = open(src, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    del header["__metadata__"][key]
    text = json.dumps(header, separators=(",", ":")).encode()
    out = bytearray(struct.pack("<Q", len(text)) + text + raw[8 + n:])
    at = out.index(PREFIX) + len(PREFIX)
    out[at:at + 16] = b"0" * 16
    out[at:at + 16] = b"%016x" % fnv1a(bytes(out))
    open(dst, "wb").write(bytes(out))


if __name__ == "__main__":
    main(*sys.argv[1:])
