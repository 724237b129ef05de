#!/usr/bin/env python3
"""bench/gpu/compare.py — modelc against PyTorch on the GPU, as one table.

    compare.py FILE.jsonl...

Reads the JSON lines of bench/gpu/modelc_figures.py ("source": "modelc")
and bench/gpu/torch_gpu.py ("source": "torch", "mode": "eager" | "compile");
other lines are ignored. Prints a Markdown table, one row per (model, kind,
batch) that has any figure (and per modelc "variant", as kind "train (V)"):

  model | kind | batch | modelc /s | torch eager /s | torch.compile /s |
  modelc / eager (target >= 2) | modelc / compile (target >= 1)

Ratios are modelc's samples/s over PyTorch's, `2.50x ok` when they meet the
target and `0.80x BELOW` when they do not; `-` when a figure is missing.
Then every recorded error, and a summary line `targets met: K of N`.
Exit status 0 (a benchmark, not a test), 1 when no figure was read.
"""
import json
import sys

TARGETS = {"eager": 2.0, "compile": 1.0}


def readRecords(paths):
    """The figure and error records of every file, in file order."""
    out = []
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if rec.get("source") in ("modelc", "torch") and rec.get("kind") != "env":
                    out.append(rec)
    return out


def column(rec):
    return "modelc" if rec["source"] == "modelc" else rec.get("mode", "eager")


def collect(records):
    """{(model, kind, batch): {column: samples/s}}, in first-seen order, and errors.

    A modelc record with a "variant" (e.g. "no-graphs": MODELRT_CUDA_GRAPHS=0) gets
    its own row, kind "train (graphs)", with the PyTorch figures of its kind.
    """
    rows, errors, variants = {}, [], []
    for rec in records:
        if "error" in rec:
            errors.append("%s %s %s %s batch %s: %s" % (
                rec["source"], rec.get("mode", "") or rec.get("variant", ""),
                rec.get("model", "?"), rec.get("kind", "?"), rec.get("batch", "?"),
                rec["error"]))
            continue
        if "samples_per_s" not in rec:
            continue
        base = (rec.get("model", "?"), rec.get("kind", "?"), int(rec.get("batch", 0)))
        key = base
        if rec["source"] == "modelc" and rec.get("variant"):
            key = (base[0], "%s (%s)" % (base[1], rec["variant"]), base[2])
            variants.append((key, base))
        rows.setdefault(key, {})[column(rec)] = float(rec["samples_per_s"])
    for key, base in variants:
        for mode in ("eager", "compile"):
            if mode in rows.get(base, {}):
                rows[key][mode] = rows[base][mode]
    return rows, errors


def fmtRate(x):
    return "-" if x is None else "{:,.0f}".format(x)


def ratio(mine, theirs, target):
    """(text, met) of mine/theirs against target; met is None when missing."""
    if mine is None or not theirs:
        return "-", None
    r = mine / theirs
    met = r >= target
    return "%.2fx %s" % (r, "ok" if met else "BELOW"), met


def table(rows):
    """The Markdown lines of the table and (met, counted) target totals."""
    lines = ["| model | kind | batch | modelc /s | torch eager /s | torch.compile /s "
             "| modelc / eager (>= 2) | modelc / compile (>= 1) |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    met = counted = 0
    for (model, kind, batch), cols in rows.items():
        mine = cols.get("modelc")
        cells = [model, kind, str(batch), fmtRate(mine), fmtRate(cols.get("eager")),
                 fmtRate(cols.get("compile"))]
        for mode in ("eager", "compile"):
            text, ok = ratio(mine, cols.get(mode), TARGETS[mode])
            cells.append(text)
            if ok is not None:
                counted += 1
                met += ok
        lines.append("| " + " | ".join(cells) + " |")
    return lines, met, counted


def main(argv):
    if not argv:
        sys.stderr.write("usage: compare.py FILE.jsonl...\n")
        return 2
    try:
        rows, errors = collect(readRecords(argv))
    except OSError as e:
        sys.stderr.write("compare.py: %s: %s\n" % (e.filename, e.strerror))
        return 1
    if not rows:
        sys.stderr.write("compare.py: no figures in %s\n" % " ".join(argv))
        for e in errors:
            sys.stderr.write("  error: %s\n" % e)
        return 1
    lines, met, counted = table(rows)
    print("\n".join(lines))
    if errors:
        print("\nerrors:")
        for e in errors:
            print("  " + e)
    print("\ntargets met: %d of %d" % (met, counted))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
