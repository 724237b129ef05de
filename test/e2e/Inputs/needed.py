"""Prints the DT_NEEDED libraries of an ELF executable, one per line (readelf -d)."""
import re
import subprocess
import sys

out = subprocess.run(["readelf", "-d", sys.argv[1]], capture_output=True, text=True, check=True).stdout
for name in re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out):
    print(name)
