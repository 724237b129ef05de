#!/usr/bin/python3
"""bench/attention/run.py — the runtime's attention against PyTorch, side by side.

One command, one run: measures the machine's FMA peak (bench/compare's
fma_peak.c, at the vector width of the runtime's level, on 1 and 2
threads), times the runtime's modelrt_attention_forward / _backward with
bench-attention (the runtime's own threads: 2 on this machine) and the same
shapes in PyTorch 1.13 (torch_attention.py, torch.set_num_threads(2)), once
with the inherited environment and once with OPENBLAS_CORETYPE set to the
core the CPU's features call for (Debian's OpenBLAS 0.3.21 otherwise picks
its kernels from a table of CPU models), shape by shape so that both sides
of a row see the same load, in --rounds rounds (each side's best round per
shape is kept), and prints the CPU, the flags, the kernels each side used,
the load average and a Markdown table. The peak is measured before the
first round and after each, and the fraction is of the highest. Shapes: batch 16, heads 4,
queries = keys = context.

FLOPs (a multiply-add counts 2): forward 4 B H Tq Tk W, backward 10 B H Tq
Tk W, both halved with the causal mask (PyTorch computes the full score
matrix; the count is the same for both sides). Softmax, masking and the
backward's recomputation are not counted.

    /usr/bin/python3 bench/attention/run.py [--bench build/bin/bench-attention]
        [--reps 20] [--rounds 2] [--widths 32,64] [--contexts 128,512] [--causal 1,0]
        [--isa native|avx2|baseline] [--json OUT.json]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def cpuInfo():
    """lscpu's model name, family and model, and /proc/cpuinfo's flags."""
    info = {}
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        key, _, val = line.partition(":")
        if key.strip() in ("Model name", "CPU family", "Model", "CPU(s)"):
            info[key.strip()] = val.strip()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                info["flags"] = line.split(":", 1)[1].split()
                break
    return info


def featureCore(flags):
    """The OpenBLAS core the CPU's features call for (as CpuFeatures.cpp)."""
    if all(f in flags for f in ("avx512f", "avx512bw", "avx512dq", "avx512vl")):
        return "Cooperlake" if "avx512_bf16" in flags else "SkylakeX"
    return "Haswell" if "avx2" in flags and "fma" in flags else None


def fmaPeak(work, wide):
    """GFLOP/s of fma_peak.c on 1 and 2 threads (AVX-512 when wide)."""
    exe = os.path.join(work, "fma_peak")
    subprocess.run(["cc", "-O2", "-pthread"] + (["-mavx512f"] if wide else ["-mavx2", "-mfma"]) +
                   [os.path.join(ROOT, "bench", "compare", "fma_peak.c"), "-o", exe], check=True)
    out = {}
    for threads in (1, 2):
        line = subprocess.run([exe, str(threads), "0.5"], capture_output=True, text=True,
                              check=True).stdout
        out[threads] = json.loads(line)
    return out


def jsonLines(cmd, env):
    """The JSON objects a command prints, one per line."""
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def runtimeEnv(isa):
    env = dict(os.environ)
    if isa != "native":
        env["MODELRT_CPU_ISA"] = isa
    return env


def key(row):
    return (row["context"], row["width"], row["causal"])


def table(runtime, torchRuns, peak):
    """The Markdown table: per shape, both sides' times, GFLOP/s and ratios."""
    names = list(torchRuns)
    head = ("| context | width | causal | modelc fwd ms | bwd ms | fwd+bwd GFLOP/s | % of FMA peak "
            "| PyTorch fwd ms | bwd ms | fwd+bwd GFLOP/s | modelc / PyTorch |")
    lines = [head, "|" + " --- |" * 11]
    for row in runtime:
        best = min((torchRuns[n][key(row)] for n in names),
                   key=lambda r: r["forward_ms"] + r["backward_ms"])
        t, tt = row["forward_ms"] + row["backward_ms"], best["forward_ms"] + best["backward_ms"]
        lines.append("| %d | %d | %s | %.2f | %.2f | %.1f | %.0f%% | %.2f | %.2f | %.1f | %.1fx |" % (
            row["context"], row["width"], "yes" if row["causal"] else "no", row["forward_ms"],
            row["backward_ms"], row["total_gflops"], 100 * row["total_gflops"] / peak,
            best["forward_ms"], best["backward_ms"], best["total_gflops"], tt / t))
    return "\n".join(lines)


def faster(best, row):
    """Keeps in \p best (by shape) whichever of its row and \p row took less time."""
    old = best.get(key(row))
    if old is None or row["forward_ms"] + row["backward_ms"] < old["forward_ms"] + old["backward_ms"]:
        best[key(row)] = row


def sweep(args, cpu, work):
    """Every round, per shape: the runtime, then PyTorch in each environment
    (so that both sides of a row see the same load); the FMA peak before
    the first round and after each one. Each side's best round per shape."""
    wide = args.isa == "native" and "avx512f" in cpu.get("flags", [])
    core = featureCore(cpu.get("flags", []))
    envs = [("inherited", {})] + ([("OPENBLAS_CORETYPE=" + core, {"OPENBLAS_CORETYPE": core})]
                                  if core else [])
    res = {"peaks": [fmaPeak(work, wide)], "runtime": {}, "torch": {n: {} for n, _ in envs},
           "torch_info": {}}
    ints = lambda text: [int(x) for x in text.split(",")]
    for _ in range(args.rounds):
        for t in ints(args.contexts):
            for w in ints(args.widths):
                for c in ints(args.causal):
                    shape = ["--widths", str(w), "--contexts", str(t), "--causal", str(c)]
                    lines = jsonLines([args.bench, "--reps", str(args.reps)] + shape,
                                      runtimeEnv(args.isa))
                    res["cpu_line"] = lines[0]
                    faster(res["runtime"], lines[1])
                    for name, extra in envs:
                        lines = jsonLines([sys.executable, os.path.join(HERE, "torch_attention.py"),
                                           str(args.reps), "2", str(w), str(t), str(c)],
                                          dict(os.environ, **extra))
                        res["torch_info"][name] = lines[0]
                        faster(res["torch"][name], lines[1])
        res["peaks"].append(fmaPeak(work, wide))
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bench", default=os.path.join(ROOT, "build", "bin", "bench-attention"))
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--widths", default="32,64")
    p.add_argument("--contexts", default="128,512")
    p.add_argument("--causal", default="1,0")
    p.add_argument("--isa", default="native", choices=("native", "avx2", "baseline"))
    p.add_argument("--json", help="write the raw results here")
    args = p.parse_args()
    cpu = cpuInfo()
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as work:
        res = sweep(args, cpu, work)
    load.append(os.getloadavg()[0])
    report(cpu, res, load, args)


def report(cpu, res, load, args):
    """Prints the machine, the kernels and the table; writes the raw JSON.
    The fraction of the peak is of the highest 2-thread peak of the run
    (the machine may be shared)."""
    peaks = res["peaks"]
    peak = {t: max(peaks, key=lambda p: p[t]["gflops"])[t] for t in (1, 2)}
    keep = ("avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16",
            "avx512_fp16", "amx_tile")
    print("CPU: %s (family %s, model %s), %s cores" % (cpu.get("Model name"), cpu.get("CPU family"),
                                                     cpu.get("Model"), cpu.get("CPU(s)")))
    print("flags: " + " ".join(f for f in keep if f in cpu.get("flags", [])))
    print("FMA peak (fma_peak.c, %s), before the first round / after each: %s GFLOP/s on 1 "
          "thread, %s on 2; load average %.2f at the start, %.2f at the end" % (
              peak[1]["isa"], " / ".join("%.1f" % p[1]["gflops"] for p in peaks),
              " / ".join("%.1f" % p[2]["gflops"] for p in peaks), load[0], load[1]))
    print("modelc runtime: %s; %d thread(s); MODELRT_CPU_ISA=%s" % (
        res["cpu_line"]["cpu"], res["cpu_line"]["threads"],
        args.isa if args.isa != "native" else "(unset)"))
    for name, info in res["torch_info"].items():
        print("PyTorch %s (%s): ATen CPU capability %s, %d threads" % (
            info["torch"], name, info["capability"], info["threads"]))
    print("environment: OPENBLAS_CORETYPE=%s" % os.environ.get("OPENBLAS_CORETYPE", "(unset)"))
    print("FLOPs: forward 4 B H T^2 W, backward 10 B H T^2 W, halved when causal; "
          "medians of %d calls, each side's best of %d rounds; PyTorch's best environment "
          "per shape\n" % (args.reps, args.rounds))
    print(table(list(res["runtime"].values()), res["torch"], peak[2]["gflops"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu, "fma_peaks": peaks, "load": load, "cpu_line": res["cpu_line"],
                       "runtime": list(res["runtime"].values()), "torch_info": res["torch_info"],
                       "torch": {n: list(r.values()) for n, r in res["torch"].items()}},
                      f, indent=1)


if __name__ == "__main__":
    main()
