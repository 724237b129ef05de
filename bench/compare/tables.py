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
}


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
                isa.get(env, "?")))
    return lines


def modelSection(name, res, envs, modelcEnv, results):
    cfg, mc, perEnv = res["config"], res["modelc"], res["torch"]
    lines = ["### %s (%s)" % (name.upper(), res["source"].split("/")[-1]), "",
             "Training: %s images, 1 epoch, batch 64; accuracy on %s test images. "
             "modelc eval differential over N0/N1 = %d/%d images (batch 1000) and "
             "%d/%d (batch 1). modelc FLOPs per training sample (`info`): %s." % (
                 cfg["train"] or 60000, cfg["test"] or 10000, cfg["b1000"][0], cfg["b1000"][1],
                 cfg["b1"][0], cfg["b1"][1], fmt(median(mc, "flops_per_sample"))), ""]
    lines.append(table(["figure", "modelc", "PyTorch best", "best environment",
                        "modelc/PyTorch", "target", "met"],
                       throughputRows(name, mc, perEnv, fmaPeak(results)) +
                       otherRows(name, mc, perEnv, fmaPeak(results))))
    lines += [""] + ["* " + l for l in kernelLines(res, results)]
    lines += ["", "Every environment (medians; PyTorch: torch.set_num_threads(2)):", ""]
    lines.append(table(["run", "OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY",
                        "train samples/s", "steady samples/s", "eval b1000 img/s",
                        "eval b1 img/s", "peak RSS MiB", "val acc"],
                       envRows(mc, perEnv, envs, modelcEnv)))
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
        parts.append(modelSection(name, res, envs, results["modelc_env"], results))
    return "\n\n".join(parts)
