#!/usr/bin/env python3
"""Writes the image folders of images-errors.model into DIR (with PIL):
  ok/       a/ two grey 4x5 PNGs; b/ one RGB 4x5 JPEG (mixed grey/RGB)
  okt/      the same classes as ok/, one image each (a test split)
  other/    classes a and c (a test split whose classes differ)
  sizes/    a/ a 4x5 PNG; b/ a 6x7 PNG (sizes differ)
  empty/    a/ one PNG; b/ no images
  one/      a/ one PNG (one class)
  text/     a/ one PNG; b/ notes.txt (not an image)
  badjpeg/  a/ one PNG; b/ bad.jpg (a JPEG whose second segment is garbage)
  shortpng/ a/ one PNG; b/ short.png (a PNG cut inside its header)"""
import os
import sys

from PIL import Image

root = sys.argv[1]


def image(path, mode, w, h, seed):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    bands = 1 if mode == "L" else 3
    data = bytes((seed * 37 + i * 11) % 256 for i in range(w * h * bands))
    Image.frombytes(mode, (w, h), data).save(path)


def raw(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(data)


d = lambda *p: os.path.join(root, *p)
image(d("ok", "a", "1.png"), "L", 4, 5, 1)
image(d("ok", "a", "2.png"), "L", 4, 5, 2)
image(d("ok", "b", "1.jpg"), "RGB", 4, 5, 3)
image(d("okt", "a", "1.png"), "L", 4, 5, 4)
image(d("okt", "b", "1.png"), "L", 4, 5, 5)
image(d("other", "a", "1.png"), "L", 4, 5, 6)
image(d("other", "c", "1.png"), "L", 4, 5, 7)
image(d("sizes", "a", "1.png"), "L", 4, 5, 8)
image(d("sizes", "b", "1.png"), "L", 6, 7, 9)
image(d("empty", "a", "1.png"), "L", 4, 5, 10)
os.makedirs(d("empty", "b"))
image(d("one", "a", "1.png"), "L", 4, 5, 11)
image(d("text", "a", "1.png"), "L", 4, 5, 12)
raw(d("text", "b", "notes.txt"), b"not an image\n")
image(d("badjpeg", "a", "1.png"), "L", 4, 5, 13)
raw(d("badjpeg", "b", "bad.jpg"), b"\xff\xd8\xff\xe0\x00\x04AB" + b"garbage" * 4)
image(d("shortpng", "a", "1.png"), "L", 4, 5, 14)
png = open(d("ok", "a", "1.png"), "rb").read()
raw(d("shortpng", "b", "short.png"), png[:20])
