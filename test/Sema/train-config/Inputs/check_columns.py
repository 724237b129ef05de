#!/usr/bin/env python3
"""Compares columns of a training run's metrics.csv with expected values.

check_columns.py METRICS.csv COLUMN=v1,v2,... [COLUMN=...] [--rel 1e-6]
Each COLUMN must have exactly the listed values, one per epoch row, within
a relative tolerance (default 1e-6; the file prints 9 significant
digits). Prints the columns; exits 1 with the first mismatch.
"""
import csv
import sys


def main():
    rel = 1e-6
    args = sys.argv[2:]
    if "--rel" in args:
        i = args.index("--rel")
        rel = float(args[i + 1])
        del args[i:i + 2]
    with open(sys.argv[1]) as f:
        rows = list(csv.DictReader(f))
    for spec in args:
        name, values = spec.split("=", 1)
        want = [float(v) for v in values.split(",")]
        got = [float(r[name]) for r in rows]
        print("%s: %s" % (name, " ".join("%.9g" % g for g in got)))
        if len(got) != len(want):
            sys.exit("FAIL: %s has %d rows, expected %d" % (name, len(got), len(want)))
        for i, (g, w) in enumerate(zip(got, want)):
            if abs(g - w) > rel * max(abs(w), 1e-12):
                sys.exit("FAIL: %s of epoch %d is %.9g, expected %.9g" % (name, i + 1, g, w))
    print("columns ok")


if __name__ == "__main__":
    main()
