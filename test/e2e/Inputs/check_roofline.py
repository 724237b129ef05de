#!/usr/bin/env python3
"""Checks a roofline SVG written by `train|eval --roofline FILE.svg`.

check_roofline.py SVG REPORT: SVG must parse as XML (xml.dom.minidom) and
hold both roofs (id roof-memory and roof-compute, labelled with the
bandwidth and the peak) and one circle per placed kernel; REPORT is the
run's standard output, whose kernel table's rows with a GFLOP/s rate are
the kernels that did FLOPs: each of those that moved bytes (every CPU
kernel) must be named by a circle's <title>, and the count of placed
kernels must be the one the run printed; the bf16 roof (id
roof-compute-bf16) is there exactly when the table has a kernel whose
products ran on AMX or AVX512-BF16. Prints what it found, one fact a
line, for FileCheck; exits 1 on the first failure.
"""
import re
import sys
import xml.dom.minidom


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    dom = xml.dom.minidom.parse(sys.argv[1])
    report = open(sys.argv[2]).read()
    print("parsed: " + dom.documentElement.tagName)
    lines = {l.getAttribute("id"): l for l in dom.getElementsByTagName("line")}
    texts = [t.firstChild.data for t in dom.getElementsByTagName("text") if t.firstChild]
    for roof, label in (("roof-memory", "memory bandwidth"), ("roof-compute", "FMA peak")):
        if roof not in lines:
            fail("no line with id " + roof)
        if not any(t.startswith(label) for t in texts):
            fail("no label '%s'" % label)
        print("roof: " + roof + " " + next(t for t in texts if t.startswith(label)))
    titles = [c.getElementsByTagName("title")[0].firstChild.data
              for c in dom.getElementsByTagName("circle")]
    placed = re.search(r"profile: roofline .*; (\d+) of (\d+) kernels placed", report)
    if not placed or int(placed.group(1)) != len(titles):
        fail("%d circles, the run says %s" % (len(titles), placed and placed.group(0)))
    table = report[report.index("profile: kernels ("):]
    table = table[:re.search(r"^profile: (by op|CPU)", table, re.M).start()]
    # time, share, calls, GFLOP/s, fraction of the peak or "-", precision
    # ("f32", "bf16 PATH") or "-", then the name.
    rated = re.findall(r"^ +[0-9.]+ +[0-9.]+% +\d+ +[0-9.]+ +(?:[0-9.]+%|-)  "
                       r"(?:-|f32|bf16 \S+) +(\S.*)$", table, re.M)
    for name in rated:
        if not any(t.startswith(name + ": ") for t in titles):
            fail("kernel with a rate but no circle: " + name)
    print("circles: %d, every kernel with a GFLOP/s rate among them (%d listed)"
          % (len(titles), len(rated)))
    # The bf16 roof is drawn exactly when some kernel's products ran on a
    # bf16 instruction (precision "bf16 amx" or "bf16 avx512_bf16").
    on_bf16 = re.search(r"  bf16 \S*(amx|avx512_bf16)", table) is not None
    if on_bf16 != ("roof-compute-bf16" in lines):
        fail("bf16 roof %s, kernels on bf16 instructions %s"
             % ("roof-compute-bf16" in lines, on_bf16))
    print("bf16 roof: %s" % ("drawn (kernels on bf16 instructions)" if on_bf16
                             else "absent (no kernel on bf16 instructions)"))
    for t in titles:
        if "cblas_sgemm" in t:
            print("sgemm: " + t.split(": ")[0])
            break


if __name__ == "__main__":
    main()
