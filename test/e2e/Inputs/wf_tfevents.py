#!/usr/bin/env python3
"""Decodes a TensorBoard event file independently of the runtime's writer.

wf_tfevents.py LOGDIR METRICS.csv

Finds the one events.out.tfevents.* file in LOGDIR, checks its TFRecord
framing (u64 length, masked CRC-32C of the length, payload, masked CRC-32C
of the payload; CRC-32C computed bitwise here), decodes each payload as a
tensorflow.Event protobuf (wall_time = 1 double, step = 2 varint,
file_version = 3 string, session_log = 7 { status = 1 varint, START = 1 },
summary = 5 { value = 1 { tag = 1, simple_value = 2 float } }) with a
protobuf reader written here, and prints:

  records N
  file_version brain.Event:2          (must be the first record)
  session START at step S             (one line per SessionLog START)
  tag TAG count C first-step S0 last-step S1    (one line per tag, sorted)

It then checks every epoch/* scalar against METRICS.csv: one event per epoch
whose step is that row's `step`, and whose value equals the row's column
(epoch/train_loss -> train_loss, ...; epoch/lr -> lr) as a float32, and that
step/* steps increase. Exits 1 with the reason on any mismatch.
"""
import csv
import glob
import math
import os
import struct
import sys


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(blob, path):
    """Yields the payloads of the TFRecord file `blob`, checking every CRC."""
    pos = 0
    while pos < len(blob):
        if pos + 12 > len(blob):
            sys.exit("%s: truncated record header at byte %d" % (path, pos))
        header = blob[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (hcrc,) = struct.unpack("<I", blob[pos + 8:pos + 12])
        if hcrc != masked(crc32c(header)):
            sys.exit("%s: bad length CRC at byte %d" % (path, pos))
        data = blob[pos + 12:pos + 12 + length]
        if len(data) != length or pos + 16 + length > len(blob):
            sys.exit("%s: truncated record at byte %d" % (path, pos))
        (dcrc,) = struct.unpack("<I", blob[pos + 12 + length:pos + 16 + length])
        if dcrc != masked(crc32c(data)):
            sys.exit("%s: bad data CRC at byte %d" % (path, pos))
        yield data
        pos += 16 + length


def varint(buf, pos):
    shift = value = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def fields(buf):
    """Yields (field number, wire type, value) of one protobuf message."""
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
            sys.exit("unsupported protobuf wire type %d" % wire)
        yield num, wire, value


def decode_event(data):
    """Returns (step, file_version or None, [(tag, value)], SessionLog status
    or None)."""
    step, version, scalars, session = 0, None, [], None
    for num, wire, value in fields(data):
        if num == 2 and wire == 0:
            step = value
        elif num == 3 and wire == 2:
            version = value.decode()
        elif num == 7 and wire == 2:
            session = 0  # SessionLog's status defaults to STATUS_UNSPECIFIED
            for lnum, lwire, lval in fields(value):
                if lnum == 1 and lwire == 0:
                    session = lval
        elif num == 5 and wire == 2:
            for snum, _, sval in fields(value):
                if snum != 1:
                    continue
                tag, simple = None, None
                for vnum, vwire, vval in fields(sval):
                    if vnum == 1:
                        tag = vval.decode()
                    elif vnum == 2 and vwire == 5:
                        (simple,) = struct.unpack("<f", vval)
                scalars.append((tag, simple))
    return step, version, scalars, session


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def check_epochs(by_tag, rows):
    for tag, events in sorted(by_tag.items()):
        if not tag.startswith("epoch/"):
            steps = [s for s, _ in events]
            if steps != sorted(steps) or len(set(steps)) != len(steps):
                sys.exit("FAIL: %s steps do not increase: %s" % (tag, steps))
            continue
        column = tag[len("epoch/"):]
        if column == "throughput":
            if not all(v > 0 for _, v in events):
                sys.exit("FAIL: %s not positive" % tag)
            continue
        if len(events) != len(rows):
            sys.exit("FAIL: %d %s events for %d epochs" % (len(events), tag, len(rows)))
        for (step, value), row in zip(events, rows):
            want = f32(float(row[column]))
            if step != int(row["step"]) or not math.isclose(value, want, rel_tol=2e-7):
                sys.exit("FAIL: %s at step %d is %r, metrics.csv says %r at step %s"
                         % (tag, step, value, want, row["step"]))
    print("epoch scalars match metrics.csv")


def main():
    logdir, metrics = sys.argv[1], sys.argv[2]
    files = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    if len(files) != 1:
        sys.exit("FAIL: expected one event file in %s, found %d" % (logdir, len(files)))
    with open(files[0], "rb") as f:
        blob = f.read()
    events = [decode_event(d) for d in records(blob, files[0])]
    print("records", len(events))
    if not events or events[0][1] is None:
        sys.exit("FAIL: the first record is not the file_version event")
    print("file_version", events[0][1])
    by_tag = {}
    for step, _, scalars, session in events[1:]:
        if session == 1:
            print("session START at step %d" % step)
        elif session is not None:
            sys.exit("FAIL: a SessionLog of status %d at step %d" % (session, step))
        for tag, value in scalars:
            by_tag.setdefault(tag, []).append((step, value))
    for tag, evs in sorted(by_tag.items()):
        print("tag %s count %d first-step %d last-step %d"
              % (tag, len(evs), evs[0][0], evs[-1][0]))
    with open(metrics) as f:
        rows = list(csv.DictReader(f))
    check_epochs(by_tag, rows)


if __name__ == "__main__":
    main()
