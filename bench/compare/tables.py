"""bench/compare/tables.py — the Markdown report of bench/compare/run.py.

Every figure is the median over the repeats. For PyTorch, each environment's
median is computed first, and "best" is the best environment for that figure
(highest throughput, lowest RSS); accuracy is compared with the median of
all PyTorch runs. Targets are the issue's (modelc/PyTorch ratios).
"""
import statistics

FMA_PEAK_UNMEASURED = 530e9  # older results: 2 cores x 2 AVX-512 FMA x 16 lanes x 2 x ~4.1 GHz
TARGETS = {  # issue 18
    "mlp": {"train_samples_per_s": 2.0, "eval_b1000_images_per_s": 1.25,
            "eval_b1_images_per_s": 3.0},
    "cnn": {"train_samples_per_s": 1.5, "eval_b1000_images_per_s": 3.0,
            "eval_b1_images_per_s": 3.0, "compile_seconds": 3.0},
    # issue 23: bf16 CNN training >= 3x PyTorch's best (f32 or autocast bf16)
    "mlp-bf16": {},
    "cnn-bf16": {"train_samples_per_s": 3.0},
}
# issue 23: modelc's bf16 training against its own f32 (same run).
OWN_F32_TARGETS = {"cnn-bf16": 3.0}


def fmaPeak(results):
    """The measured FMA peak on every core (FLOP/s) and how it was found."""
    m = results.get("machine")
    if not m:
        return FMA_PEAK_UNMEASURED, "530 GFLOP/s (computed, not measured)"
    p = m["fma_peak"][str(m["cores"])]
    return p["gflops"] * 1e9, "the measured %.0f GFLOP/s %s FMA peak" % (p["gflops"], p["isa"])
THROUGHPUTS = [("train_samples_per_s", "training samples/s (1 epoch)"),
               ("train_steady_samples_per_s", "training samples/s (steady, after warm-up)"),
               ("eval_b1000_images_per_s", "eval images/s, batch 1000"),
               ("eval_b1_images_per_s", "eval images/s, batch 1")]
ENV_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY")


def median(runs, key):
    vals = [r[key] for r in runs if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def fmt(v, digits=0):
    if v is None:
        return "—"
    if digits == 0:
        return "{:,.0f}".format(v)
    return "%.*f" % (digits, v)


def verdict(ok):
    return "yes" if ok else "**no**"


# Issue 18's alternative for the MLP's evaluation at batch 1000: a ratio of
# at least 1.25, or at least this fraction of the FMA peak (when both sides
# are near the peak, no ratio can reach 1.25).
EVAL_PEAK_ALTERNATIVE = {"mlp": 0.75}


def evalPeakFraction(mc, key, peak):
    """modelc's evaluation at `key` as a fraction of the FMA peak: images/s
    times the FLOPs per image its kernels did (profile), or None."""
    detail = [r.get(key.replace("_images_per_s", "_detail"), {}).get("model_only", {})
              for r in mc]
    flops = statistics.median([d["flops_per_image"] for d in detail
                               if d.get("flops_per_image")] or [0])
    ours = median(mc, key)
    return ours * flops / peak if ours and flops else None


def throughputRows(name, mc, perEnv, peak):
    rows = []
    for key, label in THROUGHPUTS:
        ours = median(mc, key)
        best = max(((median(runs, key), env) for env, runs in perEnv.items()
                    if median(runs, key) is not None), default=(None, None))
        ratio = ours / best[0] if ours and best[0] else None
        target = TARGETS[name].get(key)
        met = verdict(ratio >= target) if target and ratio else "—"
        targetText = (">= %gx" % target) if target else "—"
        alternative = EVAL_PEAK_ALTERNATIVE.get(name) if key == "eval_b1000_images_per_s" else None
        if alternative:
            fraction = evalPeakFraction(mc, key, peak[0])
            targetText += " or >= %d%% of peak" % (100 * alternative)
            if ratio:
                met = verdict(ratio >= target or (fraction or 0) >= alternative)
        rows.append([label, fmt(ours), fmt(best[0]), best[1] or "—",
                     fmt(ratio, 2), targetText, met])
        if key == "eval_b1000_images_per_s":
            fraction = evalPeakFraction(mc, key, peak[0])
            if fraction is not None:
                rows.append(["eval at batch 1000, fraction of %s (FLOPs of the kernels, "
                             "profile)" % peak[1], "%.1f%%" % (100 * fraction), "—", "—", "—",
                             (">= %d%%" % (100 * alternative)) if alternative else "—",
                             verdict(fraction >= alternative) if alternative else "—"])
    return rows


def otherRows(name, mc, perEnv, peak):
    rss = median(mc, "peak_rss_train_kb")
    bestRss = min((median(runs, "peak_rss_train_kb"), env) for env, runs in perEnv.items())
    ratio = rss / bestRss[0]
    rows = [["peak RSS of training (MiB)", fmt(rss / 1024, 1), fmt(bestRss[0] / 1024, 1),
             bestRss[1], fmt(ratio, 2), "<= 1.0x", verdict(ratio <= 1.0)]]
    comp = median(mc, "compile_seconds")
    limit = TARGETS[name].get("compile_seconds")
    rows.append(["compile time (s)", fmt(comp, 2), "— (eager)", "—", "—",
                 ("<= %.0f s" % limit) if limit else "—",
                 verdict(comp <= limit) if limit else "—"])
    acc = median(mc, "val_accuracy")
    allTorch = [r for runs in perEnv.values() for r in runs]
    tAcc = median(allTorch, "val_accuracy")
    diff = 100 * (acc - tAcc)
    rows.append(["val accuracy after 1 epoch", fmt(acc, 4), fmt(tAcc, 4), "median of all runs",
                 "%+.1f points" % diff, "within 1 point", verdict(abs(diff) <= 1.0)])
    flops = median(mc, "flops_per_sample")
    if flops:
        ours = median(mc, "train_samples_per_s")
        best = max(median(runs, "train_samples_per_s") for runs in perEnv.values())
        rows.append(["training step, fraction of %s" % peak[1],
                     "%.1f%%" % (100 * flops * ours / peak[0]),
                     "%.1f%%" % (100 * flops * best / peak[0]), "(same FLOPs)", "—",
                     ">= %d%%" % (25 if name == "mlp" else 30), "—"])
    return rows


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def envRows(mc, perEnv, envs, modelcEnv):
    rows = []
    envVars = dict(envs)
    modelcRow = ("**modelc** (%s)" % modelcEnv, mc, envVars.get(modelcEnv, {}))
    for label, runs, env in [modelcRow] + [(e, runs, envVars.get(e, {}))
                                           for e, runs in perEnv.items()]:
        env = runs[0].get("env", env) if runs else env  # PyTorch runs record theirs
        vals = [env.get(k, "unset") for k in ENV_VARS] if runs is not mc else \
            ["(not read)"] * len(ENV_VARS)
        rows.append([label] + vals +
                    [fmt(median(runs, k)) for k, _ in THROUGHPUTS] +
                    [fmt(median(runs, "peak_rss_train_kb") / 1024, 1),
                     fmt(median(runs, "val_accuracy"), 4)])
    return rows


def kernelLines(res, results):
    """What each side ran: modelc's `info`, PyTorch's per environment."""
    mc = res["modelc"][0].get("kernels", {}) if res["modelc"] else {}
    lines = ["Kernels: modelc: %s; %s." % (mc.get("CPU", "not recorded"),
                                          mc.get("matrix products", "not recorded"))]
    isa = results.get("torch_onednn_isa", {})
    for env, runs in res["torch"].items():
        k = runs[0].get("kernels", {}) if runs else {}
        if k:
            lines.append("PyTorch (%s): ATen %s, OpenBLAS %s, oneDNN %s." % (
                env, k.get("aten_cpu_capability", "?"), k.get("openblas_core", "not loaded"),
                isa.get(env.replace(", autocast bf16", ""), "?")))
    return lines


def bf16Rows(name, mc, results):
    """modelc bf16 against modelc f32 from the same run (training)."""
    base = results["models"].get(name[:-len("-bf16")])
    if not base:
        return []
    rows = []
    for key, label in THROUGHPUTS[:2]:
        ours, f32 = median(mc, key), median(base["modelc"], key)
        ratio = ours / f32 if ours and f32 else None
        target = OWN_F32_TARGETS.get(name) if key == "train_samples_per_s" else None
        rows.append([label + ", against modelc f32", fmt(ours), fmt(f32), "modelc f32",
                     fmt(ratio, 2), (">= %gx" % target) if target else "—",
                     verdict(ratio >= target) if target and ratio else "—"])
    return rows


def comparedEnvironments(name, res, results):
    """PyTorch's runs to compare with: a bf16 section's autocast runs plus
    the f32 section's (PyTorch's best is whichever is faster)."""
    perEnv = dict(res["torch"])
    if name.endswith("-bf16"):
        base = results["models"].get(name[:-len("-bf16")])
        perEnv.update(base["torch"] if base else {})
    return perEnv


def modelSection(name, res, envs, modelcEnv, results):
    cfg, mc = res["config"], res["modelc"]
    perEnv = comparedEnvironments(name, res, results)
    lines = ["### %s (%s%s)" % (name.upper(), res["source"].split("/")[-1],
                                ", modelc --precision=bf16" if name.endswith("-bf16") else ""), "",
             "Training: %s images, 1 epoch, batch 64; accuracy on %s test images. "
             "modelc eval differential over N0/N1 = %d/%d images (batch 1000) and "
             "%d/%d (batch 1). modelc FLOPs per training sample (`info`): %s." % (
                 cfg["train"] or 60000, cfg["test"] or 10000, cfg["b1000"][0], cfg["b1000"][1],
                 cfg["b1"][0], cfg["b1"][1], fmt(median(mc, "flops_per_sample"))), ""]
    lines.append(table(["figure", "modelc", "PyTorch best", "best environment",
                        "modelc/PyTorch", "target", "met"],
                       throughputRows(name, mc, perEnv, fmaPeak(results)) +
                       (bf16Rows(name, mc, results) if name.endswith("-bf16") else []) +
                       otherRows(name, mc, perEnv, fmaPeak(results))))
    lines += [""] + ["* " + l for l in kernelLines(res, results)]
    lines += ["", "Every environment (medians; PyTorch: torch.set_num_threads(2)):", ""]
    lines.append(table(["run", "OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY",
                        "train samples/s", "steady samples/s", "eval b1000 img/s",
                        "eval b1 img/s", "peak RSS MiB", "val acc"],
                       envRows(mc, perEnv, envs, modelcEnv)))
    return "\n".join(lines)


# Issue 22's targets for examples/charlm (modelc/PyTorch ratio; relative
# difference of the validation losses).
CHARLM_TRAIN_TARGET, CHARLM_LOSS_TARGET = 2.0, 0.02
# Generation: >= 5x a naive full-window PyTorch loop, >= 1x one with a key/value cache.
CHARLM_GEN_NAIVE_TARGET, CHARLM_GEN_CACHED_TARGET = 5.0, 1.0


def bestOf(perEnv, key):
    """(median, environment) of PyTorch's best environment for `key`."""
    return max(((median(runs, key), env) for env, runs in perEnv.items()
                if median(runs, key) is not None), default=(None, None))


def charlmSection(res, envs, modelcEnv, results):
    """The charlm table: training tokens/s, validation loss, generation."""
    cfg, mc, perEnv = res["config"], res["modelc"], res["torch"]
    peak = fmaPeak(results)
    allTorch = [r for runs in perEnv.values() for r in runs]
    lines = ["### CHARLM (%s)" % res["source"].split("/")[-1], "",
             "Training: one epoch of the first %s bytes of the fortunes (%s characters; "
             "examples/charlm/prepare.sh), %d optimizer steps of batch %d windows of %d "
             "characters, AdamW with the example's cosine schedule and clip_norm; validation "
             "loss per character on the slice's last 5%% (non-overlapping windows). Seeds: "
             "repeat r uses seed r on both sides. Generation: temperature 1 from a line break; "
             "modelc (250 - 50) / (T(250) - T(50)) of whole `generate` commands, PyTorch 200 "
             "tokens in the process. modelc FLOPs per training sample (`info`, products): %s." % (
                 fmt(cfg["bytes"]), fmt(cfg["tokens"]), cfg["steps"], cfg["batch"],
                 cfg["context"], fmt(median(mc, "flops_per_sample"))), ""]
    rows = []
    for key, label, target in (
            ("train_tokens_per_s", "training tokens/s (%d steps)" % cfg["steps"],
             CHARLM_TRAIN_TARGET),
            ("train_steady_tokens_per_s", "training tokens/s (steady, after warm-up)", None)):
        ours, best = median(mc, key), bestOf(perEnv, key)
        ratio = ours / best[0] if ours and best[0] else None
        rows.append([label, fmt(ours), fmt(best[0]), best[1] or "—", fmt(ratio, 2),
                     (">= %gx" % target) if target else "—",
                     verdict(ratio >= target) if target and ratio else "—"])
    ours, theirs = median(mc, "val_loss"), median(allTorch, "val_loss")
    rel = (ours - theirs) / theirs if ours and theirs else None
    rows.append(["validation loss per character after %d steps (nats)" % cfg["steps"],
                 fmt(ours, 4), fmt(theirs, 4), "median of all runs",
                 "%+.1f%%" % (100 * rel) if rel is not None else "—",
                 "within %d%%" % (100 * CHARLM_LOSS_TARGET),
                 verdict(abs(rel) <= CHARLM_LOSS_TARGET) if rel is not None else "—"])
    ours = median(mc, "gen_tokens_per_s")
    for key, label, target in (
            ("gen_naive_tokens_per_s", "generation tokens/s vs PyTorch, full window per token "
                                       "(naive)", CHARLM_GEN_NAIVE_TARGET),
            ("gen_cached_tokens_per_s", "generation tokens/s vs PyTorch, key/value cache",
             CHARLM_GEN_CACHED_TARGET)):
        best = bestOf(perEnv, key)
        ratio = ours / best[0] if ours and best[0] else None
        rows.append([label, fmt(ours), fmt(best[0]), best[1] or "—", fmt(ratio, 2),
                     ">= %gx" % target, verdict(ratio >= target) if ratio else "—"])
    passive = res.get("modelc_passive") or []
    if passive:
        for key, label in (("train_tokens_per_s", "training tokens/s"),
                           ("train_steady_tokens_per_s", "training tokens/s (steady)")):
            ours, best = median(passive, key), bestOf(perEnv, key)
            ratio = ours / best[0] if ours and best[0] else None
            rows.append(["%s, modelc with OMP_WAIT_POLICY=PASSIVE" % label, fmt(ours),
                         fmt(best[0]), best[1] or "—", fmt(ratio, 2), "—", "—"])
    rss = median(mc, "peak_rss_train_kb")
    bestRss = min((median(runs, "peak_rss_train_kb"), env) for env, runs in perEnv.items())
    rows.append(["peak RSS of training (MiB)", fmt(rss / 1024, 1), fmt(bestRss[0] / 1024, 1),
                 bestRss[1], fmt(rss / bestRss[0], 2), "—", "—"])
    rows.append(["compile time (s)", fmt(median(mc, "compile_seconds"), 2), "— (eager)", "—",
                 "—", "—", "—"])
    flops = median(mc, "flops_per_sample")
    if flops:
        T = cfg["context"]
        ours = median(mc, "train_tokens_per_s") / T
        best = bestOf(perEnv, "train_tokens_per_s")[0] / T
        rows.append(["training step, fraction of %s (products' FLOPs)" % peak[1],
                     "%.1f%%" % (100 * flops * ours / peak[0]),
                     "%.1f%%" % (100 * flops * best / peak[0]), "(same FLOPs)", "—", "—", "—"])
    lines.append(table(["figure", "modelc", "PyTorch best", "best environment",
                        "modelc/PyTorch", "target", "met"], rows))
    lines += [""] + ["* " + l for l in kernelLines(res, results)]
    lines += ["", "Every run (PyTorch: torch.set_num_threads(2); one line per repeat):", ""]
    envRows_ = []
    envVars = dict(envs)
    modelcRuns = [("**modelc** (%s)" % modelcEnv, mc)]
    if passive:
        modelcRuns.append(("**modelc** (OMP_WAIT_POLICY=PASSIVE)", passive))
    for label, runs in modelcRuns + list(perEnv.items()):
        for r in runs:
            env = r.get("env", envVars.get(label, {}))
            vals = [env.get(k, "unset") for k in ENV_VARS]
            if runs is mc or runs is passive:  # modelc reads only OMP_WAIT_POLICY of them
                vals = ["(not read)", "(not read)", env.get("OMP_WAIT_POLICY", "unset")]
            envRows_.append([label, r.get("seed", "—")] + vals + [
                fmt(r["train_tokens_per_s"]), fmt(r.get("train_steady_tokens_per_s")),
                fmt(r["val_loss"], 4),
                fmt(r.get("gen_tokens_per_s", r.get("gen_naive_tokens_per_s"))),
                fmt(r.get("gen_cached_tokens_per_s")),
                fmt(r["peak_rss_train_kb"] / 1024, 1)])
    lines.append(table(["run", "seed", "OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS",
                        "OMP_WAIT_POLICY", "train tokens/s", "steady tokens/s", "val loss",
                        "generate tokens/s (modelc; PyTorch naive)", "PyTorch cached tokens/s",
                        "peak RSS MiB"], envRows_))
    return "\n".join(lines)


def report(results, envs):
    head = ("## modelc vs PyTorch, %s: %d repeat(s)%s; load average before %s, after %s; "
            "%.1f min" % (
                results.get("date", "date not recorded"), results["repeats"], " (--quick)" if results["quick"] else "",
                "/".join("%.2f" % x for x in results["load_before"]),
                "/".join("%.2f" % x for x in results["load_after"]), results["minutes"]))
    parts = [head]
    m = results.get("machine")
    if m:
        peaks = ", ".join("%s thread(s) %.0f GFLOP/s" % (t, p["gflops"])
                          for t, p in sorted(m["fma_peak"].items()))
        parts.append("Configuration **%s**. CPU: %s (family %s, model %s), %d cores; measured "
                     "%s FMA peak (bench/compare/fma_peak.c): %s. Flags: %s." % (
                         m["config"], m.get("model name", "?"), m.get("cpu family", "?"),
                         m.get("model", "?"), m["cores"],
                         next(iter(m["fma_peak"].values()))["isa"], peaks, m["flags"]))
    for name, res in results["models"].items():
        section = charlmSection if name == "charlm" else \
            (lambda *a: modelSection(name, *a))
        parts.append(section(res, envs, results["modelc_env"], results))
    return "\n\n".join(parts)
