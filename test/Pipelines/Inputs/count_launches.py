#!/usr/bin/env python3
"""count_launches.py FILE FUNCTION MAX: counts the gpu.launch_func ops in
FUNCTION of an `--emit=gpu` module; prints the count and exits 1 when it
exceeds MAX (a launch budget: fewer launches are welcome, more fail)."""
import re
import sys

path, function, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
count, inside = 0, False
for line in open(path):
    m = re.match(r"\s*func\.func (?:private )?@(\w+)", line)
    if m:
        inside = m.group(1) == function
    elif re.match(r"\s*gpu\.module", line):
        inside = False
    elif inside and "gpu.launch_func" in line:
        count += 1
print("%s: %d launches (budget %d)" % (function, count, limit))
sys.exit(0 if 0 < count <= limit else 1)
