#!/usr/bin/env python3
"""Writes the NPY files of npy-errors.model into DIR: x.npy (u8 [6, 4, 4]),
y.npy (i64 [6]), obj.npy (a pickled object array), f16.npy (f16 [6]),
short.npy (y.npy less its last label), y3.npy (i64 [3]), neg.npy (a
negative label), scalar.npy (a 0-d array), fortran.npy (Fortran order)."""
import os
import sys

import numpy as np

d = sys.argv[1]
np.save(os.path.join(d, "x.npy"), np.arange(96, dtype=np.uint8).reshape(6, 4, 4))
np.save(os.path.join(d, "y.npy"), np.array([0, 1, 2, 0, 1, 2], np.int64))
np.save(os.path.join(d, "obj.npy"), np.array([{"a": 1}] * 6, dtype=object), allow_pickle=True)
np.save(os.path.join(d, "f16.npy"), np.zeros(6, np.float16))
b = open(os.path.join(d, "y.npy"), "rb").read()
open(os.path.join(d, "short.npy"), "wb").write(b[:-8])
np.save(os.path.join(d, "y3.npy"), np.arange(3, dtype=np.int64))
np.save(os.path.join(d, "neg.npy"), np.array([0, 1, -2, 0, 1, 2], np.int64))
np.save(os.path.join(d, "scalar.npy"), np.array(3.0, np.float32))
np.save(os.path.join(d, "fortran.npy"), np.asfortranarray(np.ones((6, 2), np.float32)))
