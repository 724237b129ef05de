#!/usr/bin/env python3
"""archcheck.py — docs/architecture.md read against the source tree.

Every path written in backticks that starts with a top-level folder of the
repository must exist (a folder, or a file); every folder of the tree must
be named in the document. "The tree" is every folder holding a file that git
tracks (or would track: untracked, not ignored), except data folders
(`Inputs`, `results` and everything below them) and folders more than two
levels below `test/`, which mirror the source folders of the same name.
Prints one line per problem, then a summary; exits 1 on any problem.
"""
import argparse
import os
import re
import subprocess
import sys

DATA_FOLDERS = {"Inputs", "results"}


def tree_folders(root):
    """The folders of the tree, as paths relative to root ('.' left out)."""
    files = subprocess.run(
        ["git", "-C", root, "ls-files", "--cached", "--others",
         "--exclude-standard"], check=True, capture_output=True,
        text=True).stdout.split("\n")
    folders = set()
    for f in files:
        if not f or not os.path.exists(os.path.join(root, f)):
            continue
        parts = f.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            sub = parts[:depth]
            if DATA_FOLDERS & set(sub):
                break
            if sub[0] == "test" and depth > 2:
                break
            folders.add("/".join(sub))
    return folders


def named_paths(doc, tops):
    """(path, line number) for each backticked path that starts at a top folder."""
    out = []
    for lineno, line in enumerate(open(doc, encoding="utf-8"), 1):
        for token in re.findall(r"`([^`\s]+)`", line):
            path = token.rstrip("/")
            if path.split("/")[0] in tops:
                out.append((path, lineno))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("doc")
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    folders = tree_folders(args.root)
    tops = {f.split("/")[0] for f in folders}
    named = named_paths(args.doc, tops)
    problems = 0
    docname = os.path.basename(args.doc)
    for path, lineno in named:
        if not os.path.exists(os.path.join(args.root, path)):
            print(f"{docname}:{lineno}: `{path}` does not exist")
            problems += 1
    mentioned = {p for p, _ in named}
    for folder in sorted(folders - mentioned):
        print(f"{docname}: folder `{folder}` is not named")
        problems += 1
    print(f"{len(folders)} folders, {len(named)} paths named, "
          f"{problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
