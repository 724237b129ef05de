#!/usr/bin/env python3
"""Checks the code in the Markdown docs against the real tools.

doccheck.py snippets DOC --modelc PATH --workdir DIR
    Every ```model block of DOC must follow a marker line:
      <!-- check: compiles as=FILE -->   compiles with no diagnostic at all
      <!-- check: warning as=FILE -->    compiles (exit 0) with the diagnostics
      <!-- check: error as=FILE -->      fails (exit 1) with the diagnostics
      <!-- check: fragment -->           a piece of a file: not compiled
    The block is written to DIR/N/FILE and compiled there with a relative
    path, through `--emit=linalg` when it has a train block (sema, MLIR,
    autodiff and lowering) and `--emit=mlir` otherwise. For warning/error
    the next fenced block must be ```text: the diagnostics the user sees,
    where `<stdlib>` stands for the standard library's directory and a line
    `...` stands for lines left out. Every ```python block (the PyTorch
    side) must at least parse.

doccheck.py tutorial DOC --root DIR --home DIR --logdir DIR [--subst OLD=NEW]
        [--update OUT]
    Runs the tutorial's shell blocks, in order, in one bash session started
    in --root (a checkout) with HOME=--home, `set -e`:
      <!-- tutorial: run -->          must succeed
      <!-- tutorial: run fails -->    must fail (runs in a subshell)
      <!-- tutorial: skip REASON -->  not run (setup, optional tools)
      <!-- tutorial: output -->       the ```text block shows the output
                                      (stdout + stderr) of the step before it
      <!-- tutorial: file PATH -->    the ```model block equals PATH in --root
    Each --subst replaces OLD by NEW in the commands and expected outputs
    (e.g. the data directory, to run on a subset). Outputs are compared line
    by line with every number matching any number, `...` lines standing for
    left-out lines. Prints each step's commands and output. With --update,
    once every step matches, writes DOC to OUT with each output block's
    lines replaced by the lines they matched (each --subst undone), the
    `...` lines kept: the figures come from the run, never from a hand
    (scripts/update-tutorial.sh runs it on the full data into DOC itself).

Exits 1 with the doc's line number on the first mismatch.
"""
import argparse
import ast
import os
import re
import shutil
import subprocess
import sys

MARK = re.compile(r"^<!--\s*(check|tutorial):\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^```\s*([A-Za-z0-9_+-]*)\s*$")


class Block:
    """A fenced code block: its language, first line number and text."""

    def __init__(self, lang, line, text):
        self.lang, self.line, self.text = lang, line, text


class Marker:
    """A `<!-- kind: args -->` line."""

    def __init__(self, kind, args, line):
        self.kind, self.args, self.line = kind, args, line


def fail(doc, line, msg):
    sys.exit("%s:%d: %s" % (doc, line, msg))


def parse(doc):
    """Returns the doc as a list of Block and Marker items, in order."""
    items, lines, i = [], open(doc, encoding="utf-8").read().split("\n"), 0
    while i < len(lines):
        m, f = MARK.match(lines[i]), FENCE.match(lines[i])
        if m:
            items.append(Marker(m.group(1), m.group(2), i + 1))
        elif f and f.group(1):
            start = i
            i += 1
            while i < len(lines) and lines[i].rstrip() != "```":
                i += 1
            if i == len(lines):
                fail(doc, start + 1, "unterminated ``` block")
            items.append(Block(f.group(1), start + 1,
                               "\n".join(lines[start + 1:i]) + "\n"))
        elif f:
            # A bare ``` opens a block without a language: skip it whole.
            i += 1
            while i < len(lines) and lines[i].rstrip() != "```":
                i += 1
        i += 1
    return items


def line_pattern(line, numbers):
    """A regex for one expected line; with `numbers`, every number in it
    matches any number."""
    parts = re.split(r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)", line)
    out = ""
    for k, p in enumerate(parts):
        out += r"\d+(?:\.\d+)?(?:e[-+]?\d+)?" if k % 2 and numbers else re.escape(p)
    return re.compile(out + r"\Z")


def segments(expected, numbers):
    """Splits the expected lines at `...` lines into [(regex, line)] runs."""
    segs = [[]]
    for l in expected.rstrip("\n").split("\n"):
        if l.strip() == "...":
            segs.append([])
        else:
            segs[-1].append((line_pattern(l.rstrip(), numbers), l.rstrip()))
    return segs


def match_lines(expected, actual, numbers):
    """Checks `expected` against `actual`: the runs between `...` lines
    appear in order, the first at the start, the last at the end. Returns
    None, or what went wrong."""
    return match_runs(expected, actual, numbers)[0]


def match_runs(expected, actual, numbers):
    """match_lines, also returning the actual lines each run matched:
    (None, [[line, ...] per run]) or (what went wrong, None)."""
    act = [l.rstrip() for l in actual.rstrip("\n").split("\n")] if actual.strip() else []
    segs = segments(expected, numbers)
    pos, runs = 0, []
    for k, seg in enumerate(segs):
        last = k == len(segs) - 1
        starts = [0] if k == 0 else range(pos, len(act) - len(seg) + 1)
        found = None
        for s in starts:
            if last and s + len(seg) != len(act):
                continue
            if s + len(seg) <= len(act) and all(
                    p.match(act[s + j]) for j, (p, _) in enumerate(seg)):
                found = s
                break
        if found is None:
            return "expected line %r not found in the actual output:\n%s" % (
                first_unmatched(seg, act, pos), actual), None
        pos = found + len(seg)
        runs.append(act[found:pos])
    return None, runs


def first_unmatched(seg, act, pos):
    """The first line of `seg` past its longest run matching `act` from pos."""
    best = 0
    for s in range(pos, len(act) + 1):
        n = 0
        while n < len(seg) and s + n < len(act) and seg[n][0].match(act[s + n]):
            n += 1
        best = max(best, n)
    if best == len(seg):
        return "(all lines match, but the output has other lines around them)"
    return seg[best][1]


def next_block(items, k, lang):
    """The first Block after items[k], which must have language `lang`."""
    for it in items[k + 1:]:
        if isinstance(it, Block):
            return it if it.lang == lang else None
        return None
    return None


def stdlib_dir(modelc):
    out = subprocess.run([modelc, "--print-import-path"], capture_output=True,
                         text=True, check=True).stdout.strip().split("\n")
    return out[-1]


def check_snippet(doc, mk, block, expected, modelc, workdir, stdlib, n):
    """Compiles one marked snippet and compares its diagnostics."""
    kind, _, rest = mk.args.partition(" ")
    name = rest.strip()[3:] if rest.strip().startswith("as=") else ""
    if not name.endswith(".model"):
        fail(doc, mk.line, "marker needs as=FILE.model")
    d = os.path.join(workdir, str(n))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w", encoding="utf-8") as f:
        f.write(block.text)
    has_train = re.search(r"^train\s", block.text, re.M) is not None
    stage = "--emit=linalg" if has_train else "--emit=mlir"
    r = subprocess.run([modelc, stage, "-o", os.devnull, name], cwd=d,
                       capture_output=True, text=True)
    out = (r.stdout + r.stderr).replace(stdlib, "<stdlib>")
    want_rc = 1 if kind == "error" else 0
    if r.returncode != want_rc:
        fail(doc, block.line, "modelc %s %s exited %d, expected %d:\n%s" %
             (stage, name, r.returncode, want_rc, out))
    if kind == "compiles":
        if out.strip():
            fail(doc, block.line, "expected no diagnostics, got:\n" + out)
        return
    if expected is None:
        fail(doc, block.line, "a %s snippet needs a ```text block after it" % kind)
    if kind == "warning" and "error:" in out:
        fail(doc, block.line, "a warning snippet printed an error:\n" + out)
    err = match_lines(expected.text, out, numbers=False)
    if err:
        fail(doc, expected.line, err)


def cmd_snippets(a):
    a.modelc = os.path.abspath(a.modelc) if os.sep in a.modelc else shutil.which(a.modelc)
    items = parse(a.doc)
    stdlib = stdlib_dir(a.modelc)
    counts = {"compiles": 0, "warning": 0, "error": 0, "fragment": 0, "python": 0}
    for k, it in enumerate(items):
        if isinstance(it, Block) and it.lang == "python":
            try:
                ast.parse(it.text)
            except SyntaxError as e:
                fail(a.doc, it.line + (e.lineno or 0), "python block: %s" % e.msg)
            counts["python"] += 1
        if isinstance(it, Block) and it.lang == "model":
            mk = items[k - 1] if k else None
            if not isinstance(mk, Marker) or mk.kind != "check":
                fail(a.doc, it.line, "```model block without a <!-- check: ... --> marker")
        if not (isinstance(it, Marker) and it.kind == "check"):
            continue
        kind = it.args.split(" ")[0]
        if kind not in counts or kind == "python":
            fail(a.doc, it.line, "unknown check '%s'" % kind)
        block = next_block(items, k, "model")
        if block is None:
            fail(a.doc, it.line, "marker not followed by a ```model block")
        counts[kind] += 1
        if kind != "fragment":
            expected = next_block(items, items.index(block), "text")
            check_snippet(a.doc, it, block, expected, a.modelc, a.workdir,
                          stdlib, k)
            print("ok %s:%d %s %s" % (os.path.basename(a.doc), block.line, kind,
                                      it.args.split("as=")[-1]))
    total = sum(v for key, v in counts.items() if key != "python")
    if total == 0:
        sys.exit("no marked ```model blocks in " + a.doc)
    print("%d model snippets: %d compile cleanly, %d with warnings, %d errors, "
          "%d fragments; %d python blocks parse" % (
              total, counts["compiles"], counts["warning"], counts["error"],
              counts["fragment"], counts["python"]))


def subst(text, pairs):
    for old, new in pairs:
        text = text.replace(old, new)
    return text


def tutorial_steps(a, items):
    """Returns [(marker, block, expected output block or None)]."""
    steps = []
    for k, it in enumerate(items):
        if not (isinstance(it, Marker) and it.kind == "tutorial"):
            continue
        word = it.args.split(" ")[0]
        if word in ("run", "skip"):
            block = next_block(items, k, "sh")
            if block is None:
                fail(a.doc, it.line, "marker not followed by a ```sh block")
            steps.append([it, block, None])
        elif word == "output":
            block = next_block(items, k, "text")
            if block is None or not steps or steps[-1][0].args.startswith("skip"):
                fail(a.doc, it.line, "output marker needs a ```text block after a run step")
            steps[-1][2] = block
        elif word == "file":
            block = next_block(items, k, "model")
            path = os.path.join(a.root, it.args.split(" ", 1)[1].strip())
            if block is None or open(path, encoding="utf-8").read() != subst(block.text, a.subst):
                fail(a.doc, it.line, "the ```model block differs from " + path)
            print("file %s matches %s:%d" % (path, os.path.basename(a.doc), block.line))
        else:
            fail(a.doc, it.line, "unknown tutorial marker '%s'" % word)
    for it in items:
        if isinstance(it, Block) and it.lang == "sh" and not any(s[1] is it for s in steps):
            fail(a.doc, it.line, "```sh block without a <!-- tutorial: ... --> marker")
    return steps


def write_script(a, steps):
    """One bash script running every step in one session, each step's
    output in step-N.log; a step that does not do what its marker says
    leaves step-N.log.status."""
    lines = ["set -e", "trap 'echo \"exit $?\" > \"$LOG.status\"' ERR",
             "cd %s" % sh_quote(a.root)]
    for n, (mk, block, _) in enumerate(steps):
        if mk.args.startswith("skip"):
            continue
        body = subst(block.text, a.subst)
        lines.append("LOG=%s" % sh_quote(os.path.join(a.logdir, "step-%d.log" % n)))
        if mk.args == "run fails":
            lines.append("if (\n%s) > \"$LOG\" 2>&1; then\n  echo 'succeeded, "
                         "but the tutorial says it fails' > \"$LOG.status\"\n"
                         "  exit 1\nfi" % body)
        else:
            lines.append("{\n%s} > \"$LOG\" 2>&1" % body)
    lines.append("echo done > %s" % sh_quote(os.path.join(a.logdir, "finished")))
    path = os.path.join(a.logdir, "tutorial.sh")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def unsubst(text, pairs):
    """subst undone: each NEW back to its OLD."""
    for old, new in pairs:
        text = text.replace(new, old)
    return text


def regenerated(runs, pairs):
    """An output block's new text: the matched lines, `...` between runs."""
    lines = []
    for k, run in enumerate(runs):
        lines += (["..."] if k else []) + [unsubst(l, pairs) for l in run]
    return "\n".join(lines) + "\n"


def write_update(a, blocks):
    """Writes DOC to a.update with each output block (by first line)
    replaced by its regenerated text."""
    lines = open(a.doc, encoding="utf-8").read().split("\n")
    for line, text in sorted(blocks.items(), reverse=True):
        end = line
        while lines[end].rstrip() != "```":
            end += 1
        lines[line:end] = text.rstrip("\n").split("\n")
    with open(a.update, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print("tutorial: %d output blocks regenerated into %s" % (len(blocks), a.update))


def cmd_tutorial(a):
    a.subst = [tuple(s.split("=", 1)) for s in a.subst]
    shutil.rmtree(a.logdir, ignore_errors=True)
    os.makedirs(a.logdir)
    steps = tutorial_steps(a, parse(a.doc))
    script = write_script(a, steps)
    env = dict(os.environ, HOME=a.home)
    r = subprocess.run(["bash", script], env=env)
    updates = {}
    for n, (mk, block, expected) in enumerate(steps):
        where = "%s:%d" % (os.path.basename(a.doc), block.line)
        print("### step %d (%s): %s" % (n, where, mk.args))
        print(subst(block.text, a.subst).rstrip("\n"))
        if mk.args.startswith("skip"):
            continue
        log = os.path.join(a.logdir, "step-%d.log" % n)
        if not os.path.exists(log):
            sys.exit("step %d was not reached" % n)
        out = open(log, encoding="utf-8", errors="replace").read()
        print("--- output\n" + out.rstrip("\n"))
        if os.path.exists(log + ".status"):
            fail(a.doc, block.line, "step %d: %s" % (
                n, open(log + ".status").read().strip()))
        if expected is not None:
            err, runs = match_runs(subst(expected.text, a.subst), out, numbers=True)
            if err:
                fail(a.doc, expected.line, err)
            updates[expected.line] = regenerated(runs, a.subst)
            print("--- output matches %s:%d" % (os.path.basename(a.doc), expected.line))
    if r.returncode or not os.path.exists(os.path.join(a.logdir, "finished")):
        sys.exit("the tutorial script failed (exit %d)" % r.returncode)
    print("tutorial: %d steps run, %d skipped" % (
        sum(1 for s in steps if not s[0].args.startswith("skip")),
        sum(1 for s in steps if s[0].args.startswith("skip"))))
    if a.update:
        write_update(a, updates)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snippets")
    s.add_argument("doc")
    s.add_argument("--modelc", required=True)
    s.add_argument("--workdir", required=True)
    t = sub.add_parser("tutorial")
    t.add_argument("doc")
    t.add_argument("--root", required=True)
    t.add_argument("--home", required=True)
    t.add_argument("--logdir", required=True)
    t.add_argument("--subst", action="append", default=[])
    t.add_argument("--update")
    a = ap.parse_args()
    cmd_snippets(a) if a.cmd == "snippets" else cmd_tutorial(a)


if __name__ == "__main__":
    main()
