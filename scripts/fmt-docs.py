#!/usr/bin/env python3
"""Formats the .model snippets of Markdown files with `modelc fmt`.

fmt-docs.py [--check] [--modelc PATH] FILE.md...

A snippet is a fenced code block marked ```model, or unmarked (```), whose
text parses as a whole .model file; it is replaced by `modelc fmt`'s output
(a fence indented inside a list keeps its indentation). A block that does not
parse is a fragment (`...` in place of code, a statement alone, a command
line or program output) and is left as it is. With --check nothing is
written: each snippet that is not formatted is named (FILE:LINE) and the
exit status is 1.
"""
import argparse
import re
import subprocess
import sys

FENCE = re.compile(r"^( *)```(\w*)\s*$")


def format_snippet(modelc, text):
    """The formatted text, or None when the snippet does not parse."""
    run = subprocess.run([modelc, "fmt", "-"], input=text, capture_output=True,
                         text=True)
    return run.stdout if run.returncode == 0 else None


def process(path, modelc, check):
    """Formats the snippets of one file; returns the unformatted ones."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, unformatted, i = [], [], 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        indent, start = match.group(1), i
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if match.group(2) not in ("", "model"):  # Another language.
            out.extend(lines[start:end + 1])
            i = end + 1
            continue
        body = [l[len(indent):] if l.startswith(indent) else l
                for l in lines[start + 1:end]]
        text = "\n".join(body) + "\n"
        formatted = format_snippet(modelc, text) if text.strip() else None
        if formatted is not None and formatted != text:
            unformatted.append(f"{path}:{start + 1}")
            body = formatted.rstrip("\n").split("\n")
        out.append(lines[start])
        out.extend(indent + l if l else l for l in body)
        out.extend(lines[end:end + 1])
        i = end + 1
    if unformatted and not check:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
    return unformatted


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--modelc", default="build/bin/modelc")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    unformatted = []
    for path in args.files:
        unformatted += process(path, args.modelc, args.check)
    for where in unformatted:
        print(("not formatted: " if args.check else "formatted: ") + where)
    return 1 if args.check and unformatted else 0


if __name__ == "__main__":
    sys.exit(main())
