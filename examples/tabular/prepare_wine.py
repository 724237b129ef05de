#!/usr/bin/env python3
"""Writes scikit-learn's wine table as a CSV file with a header row.

    prepare_wine.py OUT.csv [SKLEARN_DATA_DIR]

scikit-learn ships the table as datasets/data/wine_data.csv, whose first
line holds counts ("178,13,class_0,class_1,class_2") instead of column
names. This copies the 178 rows unchanged under a header naming the 13
features (scikit-learn's feature_names, '/' replaced by '_') and the label
column `class` (0, 1, 2). Uses only the standard library.
"""
import csv
import os
import sys

FEATURES = [
    "alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium",
    "total_phenols", "flavanoids", "nonflavanoid_phenols", "proanthocyanins",
    "color_intensity", "hue", "od280_od315_of_diluted_wines", "proline",
]
DEFAULT_DIR = "/usr/lib/python3/dist-packages/sklearn/datasets/data"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    src = os.path.join(sys.argv[2] if len(sys.argv) == 3 else DEFAULT_DIR,
                       "wine_data.csv")
    with open(src, newline="") as f:
        rows = list(csv.reader(f))
    samples, features = int(rows[0][0]), int(rows[0][1])
    body = rows[1:]
    if features != len(FEATURES) or len(body) != samples or any(
            len(r) != features + 1 for r in body):
        sys.exit("%s: unexpected layout (header %s)" % (src, rows[0]))
    with open(sys.argv[1], "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(FEATURES + ["class"])
        out.writerows(body)
    print("wrote %d samples to %s" % (samples, sys.argv[1]))


if __name__ == "__main__":
    main()
