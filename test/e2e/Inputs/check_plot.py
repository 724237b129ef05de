#!/usr/bin/env python3
"""Checks the SVG charts of `NAME plot` against the metrics.csv they draw.

check_plot.py SVGDIR METRICS.csv: parses each SVG as XML (well-formed, an
<svg> root) and, for loss.svg and every train_<metric> column, checks that
the chart has one polyline per split (training, validation) with one point
per epoch, x increasing with the epoch and y decreasing as the value grows
(the pixels order the points as the values do); lr.svg has one curve.
When a steps.csv lies beside METRICS.csv, steps-loss.svg and steps-lr.svg
have one curve of one point per logged step, checked the same way.
Prints a line per chart and "plot OK"; exits 1 otherwise.
"""
import csv
import os
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def polylines(path):
    root = ET.parse(path).getroot()
    assert root.tag == NS + "svg", root.tag
    out = []
    for p in root.iter(NS + "polyline"):
        out.append([tuple(map(float, xy.split(","))) for xy in p.get("points").split()])
    return out


def check(path, columns):
    lines = polylines(path)
    assert len(lines) == len(columns), (path, len(lines), len(columns))
    for pts, values in zip(lines, columns):
        assert len(pts) == len(values), (path, len(pts), len(values))
        assert all(a[0] < b[0] for a, b in zip(pts, pts[1:])), path
        for i in range(len(values)):
            for j in range(len(values)):
                if values[i] > values[j] + 1e-9:
                    assert pts[i][1] <= pts[j][1], (path, i, j, values, pts)
    print("%s: %d curve(s) of %d point(s)" % (os.path.basename(path), len(lines),
                                             len(columns[0])))


def main():
    d, metrics = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(metrics)))
    col = lambda name: [float(r[name]) for r in rows]
    names = rows[0].keys()
    check(os.path.join(d, "loss.svg"), [col("train_loss"), col("val_loss")])
    for n in names:
        if n.startswith("train_") and n != "train_loss":
            m = n[6:]
            check(os.path.join(d, m + ".svg"), [col(n), col("val_" + m)])
    check(os.path.join(d, "lr.svg"), [col("lr")])
    steps = os.path.join(os.path.dirname(metrics), "steps.csv")
    if os.path.exists(steps):
        rows = list(csv.DictReader(open(steps)))
        check(os.path.join(d, "steps-loss.svg"), [col("train_loss")])
        check(os.path.join(d, "steps-lr.svg"), [col("lr")])
    print("plot OK")


if __name__ == "__main__":
    main()
