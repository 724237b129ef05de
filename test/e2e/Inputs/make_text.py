#!/usr/bin/env python3
"""Writes a small text for the character-level language-model tests.

make_text.py DIR [CHARS]: DIR/corpus.txt, about CHARS characters (default
20000) of sentences drawn with a seeded random generator from a list of
words: capitalised, ending in '.', several to a line. Its letters follow
each other in the words' patterns, so a model that sees the previous
character (a bigram model) predicts the next one far better than the
characters' frequencies alone (the unigram entropy, check_text_lm.py).
"""
import os
import random
import sys

WORDS = ("the cat sat on a mat and ran to its home while old dogs slept in "
         "warm sun by river banks near quiet hills where birds sing each "
         "morning").split()


def main():
    directory = sys.argv[1]
    chars = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    rng = random.Random(1234)
    lines, length = [], 0
    while length < chars:
        sentences = []
        for _ in range(rng.randint(1, 3)):
            words = [rng.choice(WORDS) for _ in range(rng.randint(3, 8))]
            words[0] = words[0].capitalize()
            sentences.append(" ".join(words) + ".")
        line = " ".join(sentences)
        lines.append(line)
        length += len(line) + 1
    with open(os.path.join(directory, "corpus.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
