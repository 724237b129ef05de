#!/usr/bin/env python3
"""Checks that predicting on PNG files agrees with predicting on the IDX set.

wf_check_predict.py PNG.jsonl IDX.jsonl K

PNG.jsonl: `predict --json` output for one or more PNG files, each holding
test sample K; IDX.jsonl: `predict --json` output for the whole test IDX
file. Every PNG's class must equal sample K's class from the IDX file and
its probabilities must agree to 1e-6 (the same 8-bit pixels go through the
same transform). Prints "class C"; exits 1 on a mismatch.
"""
import json
import sys


def main():
    png = [json.loads(l) for l in open(sys.argv[1])]
    idx = [json.loads(l) for l in open(sys.argv[2])]
    k = int(sys.argv[3])
    ref = next((r for r in idx if r["index"] == k), None)
    if ref is None or not png:
        sys.exit("FAIL: sample %d or the PNG results are missing" % k)
    for r in png:
        diff = max(abs(a - b) for a, b in zip(r["probabilities"], ref["probabilities"]))
        print("%s: class %d (IDX sample %d: class %d), max |dp| %.2g"
              % (r["input"], r["class"], k, ref["class"], diff))
        if r["class"] != ref["class"] or diff > 1e-6 or \
                len(r["probabilities"]) != len(ref["probabilities"]):
            sys.exit("FAIL: %s disagrees with the IDX file" % r["input"])
    print("class", ref["class"])


if __name__ == "__main__":
    main()
