#!/usr/bin/env python3
"""Writes scikit-learn's diabetes data as one CSV file with a header row.

    prepare_diabetes.py OUT.csv [SKLEARN_DATA_DIR]

scikit-learn ships the 442 patients as two headerless, space-separated
gzip files: diabetes_data_raw.csv.gz (10 unscaled features: age, sex, body
mass index, mean blood pressure, six blood serum measurements) and
diabetes_target.csv.gz (a measure of disease progression one year later,
25..346). This joins them row by row under a header; the values are copied
unchanged. Uses only the standard library.
"""
import gzip
import os
import sys

FEATURES = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]
DEFAULT_DIR = "/usr/lib/python3/dist-packages/sklearn/datasets/data"


def read_rows(path):
    with gzip.open(path, "rt") as f:
        return [line.split() for line in f if line.strip()]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    src = sys.argv[2] if len(sys.argv) == 3 else DEFAULT_DIR
    x = read_rows(os.path.join(src, "diabetes_data_raw.csv.gz"))
    y = read_rows(os.path.join(src, "diabetes_target.csv.gz"))
    if len(x) != len(y) or any(len(r) != len(FEATURES) for r in x) or any(
            len(r) != 1 for r in y):
        sys.exit("%s: unexpected layout (%d feature rows, %d targets)" %
                 (src, len(x), len(y)))
    with open(sys.argv[1], "w") as f:
        f.write(",".join(FEATURES + ["progression"]) + "\n")
        for features, target in zip(x, y):
            # The source writes 1.510000000000000000e+02; "151.0" keeps the
            # value and, having a decimal point, makes the column a float
            # (regression) target rather than integer class labels.
            f.write(",".join(features + ["%.1f" % float(target[0])]) + "\n")
    print("wrote %d samples to %s" % (len(x), sys.argv[1]))


if __name__ == "__main__":
    main()
