#!/usr/bin/env python3
"""Writes a small IDX file (uncompressed) for the Sema tests.

write_idx.py OUT TYPE D0 [D1 ...] [--header-only]
TYPE is u8, i8, i16, i32, f32 or f64; the values are i % 5 for element i
(so integer files hold class indices 0..4). --header-only writes the magic
and the dimensions alone, for a header whose data could not be written
(idx-target-too-large.model: the compiler refuses its shape before it
checks that the data is all there).
"""
import struct
import sys

CODES = {"u8": (0x08, ">B"), "i8": (0x09, ">b"), "i16": (0x0B, ">h"),
         "i32": (0x0C, ">i"), "f32": (0x0D, ">f"), "f64": (0x0E, ">d")}


def main():
    args = [a for a in sys.argv[1:] if a != "--header-only"]
    out, kind, dims = args[0], args[1], [int(d) for d in args[2:]]
    code, fmt = CODES[kind]
    with open(out, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, code, len(dims)))
        for d in dims:
            f.write(struct.pack(">I", d))
        if "--header-only" in sys.argv:
            return
        count = 1
        for d in dims:
            count *= d
        for i in range(count):
            f.write(struct.pack(fmt, i % 5))


if __name__ == "__main__":
    main()
