"""bench/compare/tfevents.py — reads the scalars of a TensorBoard event file.

The compiled executables write `events.out.tfevents.*` (runtime/lib/io/
TensorBoard.cpp): TFRecord frames (u64 length, u32 masked CRC of the length,
the payload, u32 masked CRC of the payload) holding `Event` protos with
wall_time (1, double), step (2, varint) and summary (5) -> value (1) ->
{tag (1, string), simple_value (2, float)}. The `tensorboard` package is not
installed here, so this is a minimal reader: it checks the length CRC and
decodes only those fields.
"""
import glob
import os
import struct


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def maskedCrc(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(buf, pos):
    value, shift = 0, 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def fields(buf):
    """Yields (field number, wire type, value) of a protobuf message."""
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        elif wire == 2:
            n, pos = varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        else:
            raise ValueError("unsupported protobuf wire type %d" % wire)
        yield num, wire, value


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos + 12 <= len(data):
        header = data[pos:pos + 8]
        (n,) = struct.unpack("<Q", header)
        (crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        if crc != maskedCrc(header):
            raise ValueError("%s: bad length CRC at byte %d" % (path, pos))
        yield data[pos + 12:pos + 12 + n]
        pos += 12 + n + 4


def readScalars(logDir):
    """{tag: [values in file order]} over every event file in logDir."""
    out = {}
    for path in sorted(glob.glob(os.path.join(logDir, "events.out.tfevents.*"))):
        for event in records(path):
            for num, _, summary in fields(event):
                if num != 5:
                    continue
                for vnum, _, value in fields(summary):
                    if vnum != 1:
                        continue
                    tag, scalar = None, None
                    for fnum, wire, v in fields(value):
                        if fnum == 1:
                            tag = v.decode()
                        elif fnum == 2 and wire == 5:
                            (scalar,) = struct.unpack("<f", v)
                    if tag is not None and scalar is not None:
                        out.setdefault(tag, []).append(scalar)
    return out
