#!/usr/bin/env python3
"""Runs every command of README.md's "Using it" section, as written.

readmecheck.py README.md --modelc PATH --data DIR --workdir DIR

The README's model (its first code block) becomes net.model, with a data
block reading Fashion-MNIST from DIR (a subset: fmnist_subset.py) and a
one-epoch train block. image.png is the first test image. Then each
indented command line of "## Using it" runs in order in the work directory
(`build/bin/modelc` replaced by --modelc; the `# ...` comments dropped),
and must exit 0, except the two that need a GPU: on a machine without one
they must fail with exit status 1 and the reason docs/gpu.md documents
("no NVIDIA driver", "no CUDA device", ...). Prints one line per command
("ok", "ok without a GPU", or "FAIL" with its output) and a total; exits 1
when a command fails, or when the section has no commands.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import zlib
import gzip

DATA_BLOCK = """
data FashionMNIST {
  root  = "%s"
  train = idx(root + "/train-images-idx3-ubyte.gz", root + "/train-labels-idx1-ubyte.gz")
  test  = idx(root + "/t10k-images-idx3-ubyte.gz", root + "/t10k-labels-idx1-ubyte.gz")
  image = image / 255
}

train MLP on FashionMNIST {
  loss      = cross_entropy(logits, label)
  optimizer = adam(lr=1e-3)
  epochs = 1   batch = 64
  metrics   = [accuracy]
}
"""

GPU_COMMANDS = ("--device cuda", "check-device")
# The reasons docs/gpu.md gives for a machine without a usable GPU.
NO_GPU = re.compile(r"no NVIDIA driver|no CUDA device|no usable GPU|GPU not used|"
                    r"no GPU code|CUDA_ERROR_NO_DEVICE")


def readme_parts(path):
    """The README's first code block and the commands of "## Using it"."""
    text = open(path, encoding="utf-8").read()
    model = re.search(r"```\n(.*?)```", text, re.S).group(1)
    section = text.split("## Using it", 1)[1].split("\n## ", 1)[0]
    commands = []
    for line in section.splitlines():
        if line.startswith("    ") and line.strip():
            commands.append(line.split("#", 1)[0].strip())
    return model, commands


def write_png(path, pixels, width, height):
    """An 8-bit grey PNG of the row-major bytes `pixels`."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    rows = b"".join(b"\0" + pixels[y * width:(y + 1) * width] for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
                chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def first_test_image(data, out):
    raw = gzip.open(os.path.join(data, "t10k-images-idx3-ubyte.gz")).read()
    write_png(out, raw[16:16 + 28 * 28], 28, 28)


def run(command, modelc, workdir):
    """(ok, note, output) for one README command."""
    argv = command.replace("build/bin/modelc", modelc).split()
    r = subprocess.run(argv, cwd=workdir, capture_output=True, text=True)
    out = r.stdout + r.stderr
    if r.returncode == 0:
        return True, "ok", out
    if any(g in command for g in GPU_COMMANDS) and r.returncode == 1 and NO_GPU.search(out):
        return True, "ok without a GPU", out
    return False, "FAIL (exit %d)" % r.returncode, out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("readme")
    p.add_argument("--modelc", required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--workdir", required=True)
    a = p.parse_args()
    model, commands = readme_parts(a.readme)
    if not commands:
        sys.exit("FAIL: no commands under '## Using it' in %s" % a.readme)
    with open(os.path.join(a.workdir, "net.model"), "w") as f:
        f.write(model + DATA_BLOCK % a.data)
    first_test_image(a.data, os.path.join(a.workdir, "image.png"))
    failed = 0
    for command in commands:
        ok, note, out = run(command, a.modelc, a.workdir)
        print("%s: %s" % (note, command))
        if not ok:
            failed += 1
            print(out)
    print("%d commands, %d failed" % (len(commands), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
