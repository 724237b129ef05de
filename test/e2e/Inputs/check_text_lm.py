#!/usr/bin/env python3
"""Checks a character-level language model's run against the text itself.

check_text_lm.py METRICS.csv TEXT --validation F: computes, independently
of modelc, the unigram entropy H = -sum p(c) log p(c) (in nats, as the
cross-entropy loss) of the characters of the last F of TEXT (the
validation part), and requires the last epoch's val_loss (the mean loss
per character of that part) to lie below H: a model that sees the previous
character beats one that only knows the characters' frequencies. Also
prints the validation accuracy. Exits 1 with the reason on failure.
"""
import argparse
import collections
import csv
import math
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("metrics")
    ap.add_argument("text")
    ap.add_argument("--validation", type=float, required=True)
    a = ap.parse_args()
    with open(a.text, encoding="utf-8") as f:
        text = f.read()
    held = round(len(text) * a.validation)
    part = text[len(text) - held:]
    counts = collections.Counter(part)
    entropy = -sum(n / len(part) * math.log(n / len(part)) for n in counts.values())
    with open(a.metrics) as f:
        rows = list(csv.DictReader(f))
    loss = float(rows[-1]["val_loss"])
    print("unigram entropy of the validation text: %.4f nats" % entropy)
    print("val_loss after %d epochs: %.4f, val_accuracy %.4f" % (
        len(rows), loss, float(rows[-1]["val_accuracy"])))
    if not loss < entropy:
        sys.exit("FAIL: val_loss %.4f is not below the unigram entropy %.4f" % (loss, entropy))
    print("below the unigram entropy: ok")


if __name__ == "__main__":
    main()
