#!/usr/bin/env python3
"""Writes scikit-learn's iris table with its species as names into DIR:
train.csv (four of every five rows), test.csv (every fifth row),
renamed.csv (train.csv with 'setosa' spelled 'Setosa') and unknown.csv
(test.csv with one species 'unknown', on line 3, the second data row).
Header: sepal_length,sepal_width,petal_length,petal_width,species."""
import csv
import os
import sys

d = sys.argv[1]
src = "/usr/lib/python3/dist-packages/sklearn/datasets/data/iris.csv"
with open(src, newline="") as f:
    rows = list(csv.reader(f))
names = rows[0][2:]  # "150,4,setosa,versicolor,virginica"
data = [r[:4] + [names[int(r[4])]] for r in rows[1:]]
header = ["sepal_length", "sepal_width", "petal_length", "petal_width", "species"]


def write(name, table):
    with open(os.path.join(d, name), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(table)


train = [r for i, r in enumerate(data) if i % 5 != 4]
test = [r for i, r in enumerate(data) if i % 5 == 4]
write("train.csv", train)
write("test.csv", test)
write("renamed.csv", [r[:4] + ["Setosa" if r[4] == "setosa" else r[4]] for r in train])
unknown = [list(r) for r in test]
unknown[1][4] = "unknown"
write("unknown.csv", unknown)
