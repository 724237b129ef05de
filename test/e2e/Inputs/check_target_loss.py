#!/usr/bin/env python3
"""Checks a trained regression's evaluation loss against a threshold.

check_target_loss.py EVAL_OUTPUT THRESHOLD_FILE SAMPLES
EVAL_OUTPUT holds the line `eval on FILE (N samples): loss L` of the
trained model, with N = SAMPLES; THRESHOLD_FILE the bound make_targets.py
computed from the test targets. L must be below it. Prints both; exits 1
on failure.
"""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    bound = float(open(sys.argv[2]).read())
    samples = int(sys.argv[3])
    m = re.search(r"^eval on .* \((\d+) samples\): loss (\S+)$", text, re.M)
    if not m or int(m.group(1)) != samples:
        sys.exit("FAIL: no eval line for %d samples in %s:\n%s"
                 % (samples, sys.argv[1], text))
    loss = float(m.group(2))
    print("test MSE %.6f, threshold %.6f" % (loss, bound))
    if not loss < bound:
        sys.exit("FAIL: the test MSE is not below the threshold")
    print("loss below threshold")


if __name__ == "__main__":
    main()
