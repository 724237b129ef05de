#!/usr/bin/env python3
"""bench/compare/run.py — modelc against PyTorch, side by side, in one run.

    /usr/bin/python3 bench/compare/run.py [--quick] [--models mlp,cnn]
        [--repeats 3] [--cnn-train-images 2560] [--charlm-steps 200]
        [--precisions f32,bf16] [--modelc BIN] [--work DIR]
        [--report RESULTS.json]

For each model (mlp: bench/compare/mlp.model, 784-256-128-10; cnn:
examples/fashion_mnist/cnn.model) and each repeat it
  * compiles the model with modelc (wall time = compile time);
  * trains one epoch, batch 64, seed R for repeat R (`NET train --epochs 1
    --batch 64 --seed R`, the seed PyTorch's runs of that repeat take), reading
    the runtime's own training throughput from its TensorBoard file
    (`epoch/throughput`: samples/s of the epoch's training loop, evaluation
    excluded; "steady": median of the `step/throughput` windows of 10 steps
    after the first), the val accuracy from metrics.csv, and the peak RSS of
    the whole command from wait4();
  * measures eval images/s at batch 1000 and 1 of the model alone, as
    PyTorch's figure is (data in memory): `NET eval --profile` on N1 images
    reports the time spent in the eval_step calls (forward, loss, accuracy;
    the loader's copying and normalising excluded; the profiling hooks
    included). Also recorded: the difference of two whole `NET eval`
    commands on N0 and N1 images (plain IDX files swapped in for the test
    set), (N1 - N0) / (T(N1) - T(N0)), where reading and normalising each
    image stay in;
  * runs torch_models.py (the same model, data in memory, batch 64, Adam,
    torch.set_num_threads(2)) once in each of six environments.
With --precisions f32,bf16, each model runs twice: as above, then compiled
with `--precision=bf16` beside PyTorch under torch.autocast bf16 in each
environment (results key NAME-bf16); the bf16 section compares modelc bf16
with PyTorch's best of f32 and autocast, and with modelc's own f32.
Then prints Markdown tables: modelc against PyTorch's best environment for
each figure, with the ratio and the issue's target, and every environment's
figures. The raw results go to WORK/results.json.

charlm (`--models charlm`, not among the defaults: one repeat takes ~10
minutes on an idle 2-core machine, far more when it is loaded): a copy of
examples/charlm/charlm.model beside the first BYTES of the fortunes
(examples/charlm/prepare.sh WORK/charlm/fortunes.txt BYTES, BYTES chosen so
that one epoch of its training part is --charlm-steps optimizer steps of
batch 32), trained for that one epoch with `NET train --epochs 1 --seed R`
(the copy is not edited: the schedule's length follows --epochs); tokens/s
= the runtime's samples/s x 128 from its TensorBoard file, the validation
loss per character from metrics.csv (the slice's last 5 %, non-overlapping
windows), generation tokens/s from `NET generate --tokens K --temperature 1
--seed 1` as (250 - 50) / (T(250) - T(50)), each T the median of 3 whole
commands; the same once more with OMP_WAIT_POLICY=PASSIVE (a row of its
own, not the headline figure); torch_models.py --model charlm does the same
in each PyTorch environment (its docstring), with a naive and a
key/value-cached loop.

The modelc executable runs in the inherited environment unless
--modelc-env names one of the six (it links OpenBLAS for its matrix
products, so the OpenBLAS variables affect it too).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e", "Inputs"))
import subset_idx  # noqa: E402  (readIdx / writeIdx / writeSplit)
import tables  # noqa: E402  (the Markdown report)
import tfevents  # noqa: E402  (reads the runtime's TensorBoard scalars)

SRC = "/usr/share/datasets/fashion-mnist"
PYTHON = "/usr/bin/python3"
ENV_BASES = [("inherited", {}),
             ("OPENBLAS_NUM_THREADS=1", {"OPENBLAS_NUM_THREADS": "1"}),
             ("OMP_WAIT_POLICY=PASSIVE", {"OMP_WAIT_POLICY": "PASSIVE"})]
# The AVX2 configuration: both sides limited to AVX2 + FMA.
AVX2_TORCH = {"ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2",
              "OPENBLAS_CORETYPE": "Haswell"}
AVX2_MODELC = {"MODELRT_CPU_ISA": "avx2"}
# Per model: the .model file, the training/test subset sizes (0 = all) and
# the (N0, N1) image counts of the differential eval at batch 1000 and 1,
# and how many passes over the test set PyTorch's batch-1000 eval times.
MODELS = {
    "mlp": {"source": os.path.join(HERE, "mlp.model"), "train": 0, "test": 0,
            "b1000": (1000, 60000), "b1": (1000, 20000), "torch_eval_repeats": 3},
    "cnn": {"source": os.path.join(ROOT, "examples", "fashion_mnist", "cnn.model"),
            "train": 2560, "test": 2000, "b1000": (1000, 2000), "b1": (50, 300),
            "torch_eval_repeats": 1},
}
# charlm: examples/charlm/charlm.model on a slice of the fortunes (prepare.sh).
CHARLM = {"source": os.path.join(ROOT, "examples", "charlm", "charlm.model"),
          "prepare": os.path.join(ROOT, "examples", "charlm", "prepare.sh"),
          "context": 128, "batch": 32, "validation": 0.05, "gen_tokens": (50, 250)}
QUICK = {"mlp": {"train": 10000, "test": 2000, "b1000": (1000, 10000), "b1": (200, 2000)},
         "cnn": {"train": 640, "test": 1000, "b1000": (1000, 2000), "b1": (50, 250)}}


def cpuFlags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return line.split(":", 1)[1].split()
    return []


def featureCore(flags):
    """The OpenBLAS core this CPU's features call for (as the runtime's
    CpuFeatures.cpp chooses it)."""
    if all(f in flags for f in ("avx512f", "avx512bw", "avx512dq", "avx512vl")):
        return "Cooperlake" if "avx512_bf16" in flags else "SkylakeX"
    return "Haswell" if "avx2" in flags and "fma" in flags else None


def environments(config="native"):
    """The PyTorch environments: (name, env dict). Native: the three bases
    as inherited, and with the OpenBLAS core that the CPU's features call
    for (an OpenBLAS that does not know the CPU model otherwise falls back
    to SSE3 kernels). AVX2: the three bases limited to AVX2 + FMA."""
    out = []
    if config == "avx2":
        for name, extra in ENV_BASES:
            env = dict(os.environ)
            env.update(extra)
            env.update(AVX2_TORCH)
            out.append((name + ", AVX2", env))
        return out
    core = featureCore(cpuFlags())
    for setCore in (False, True) if core else (False,):
        for name, extra in ENV_BASES:
            env = dict(os.environ)
            env.update(extra)
            if setCore:
                env["OPENBLAS_CORETYPE"] = core
                name += ", OPENBLAS_CORETYPE=" + core
            out.append((name, env))
    return out


def modelcEnvironment(config):
    env = dict(os.environ)
    if config == "avx2":
        env.update(AVX2_MODELC)
    return env


def machineInfo(work, config):
    """The CPU (model, family/model, flags) and its FMA peak measured with
    fma_peak.c at the configuration's vector width on 1 and all cores."""
    info = {"config": config, "cores": os.cpu_count()}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, val = line.partition(":")
            key = key.strip()
            if key in ("model name", "cpu family", "model") and key not in info:
                info[key] = val.strip()
    flags = cpuFlags()
    info["flags"] = " ".join(flags)
    wide = config == "native" and "avx512f" in flags
    exe = os.path.join(work, "fma_peak")
    subprocess.run(["cc", "-O2", "-pthread"] + (["-mavx512f"] if wide else ["-mavx2", "-mfma"]) +
                   [os.path.join(HERE, "fma_peak.c"), "-o", exe], check=True)
    info["fma_peak"] = {}
    for threads in sorted({1, os.cpu_count()}):
        out = subprocess.run([exe, str(threads), "0.5"], capture_output=True, text=True,
                             check=True).stdout
        info["fma_peak"][str(threads)] = json.loads(out)
    return info


def modelcKernels(net, env):
    """The CPU, matrix-product, bf16-product and convolution lines of
    `NET info` (the last two where the program has them)."""
    out = subprocess.run([net, "info"], capture_output=True, text=True, env=env,
                         check=True).stdout
    return {k: line.split(":", 1)[1].strip() for line in out.splitlines()
            for k in ("CPU", "matrix products", "bf16 products", "convolutions")
            if line.startswith(k + ":")}


def torchOneDnnIsa(env):
    """oneDNN's instruction set in a PyTorch environment (its verbose log of
    one small convolution)."""
    code = ("import torch; torch.nn.functional.conv2d(torch.randn(2, 3, 8, 8), "
            "torch.randn(4, 3, 3, 3))")
    e = dict(env)
    e["ONEDNN_VERBOSE"] = "1"
    out = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, env=e).stdout
    m = re.search(r"isa:(.*)", out)
    return m.group(1).strip() if m else "not reported"


def timed(cmd, env=None, cwd=None, log=None):
    """Runs cmd; returns (seconds, peak RSS in KiB, stdout). Fails loudly."""
    with open(log or os.devnull, "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=err if log else subprocess.PIPE,
                             stderr=err)
        out = p.stdout.read() if p.stdout else b""
        _, status, usage = os.wait4(p.pid, 0)
        secs = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("failed (exit %d): %s%s" % (p.returncode, " ".join(cmd),
                                             ("; see " + log) if log else ""))
    return secs, usage.ru_maxrss, out.decode()


def prepareData(work, name, cfg):
    """Writes the model's data dir (links to the originals or subsets) and its
    .model copy whose `root` points there; returns (model path, data dir)."""
    data = os.path.join(work, name, "data")
    os.makedirs(data, exist_ok=True)
    placeSplit(data, "train", cfg["train"])
    placeSplit(data, "t10k", cfg["test"])
    with open(cfg["source"]) as f:
        text = f.read()
    rewritten = re.sub(r'(\broot\s*=\s*)"%s"' % re.escape(SRC),
                       lambda m: '%s"%s"' % (m.group(1), data), text)
    if rewritten == text:
        sys.exit("%s: no `root = \"%s\"` line to rewrite" % (cfg["source"], SRC))
    model = os.path.join(work, name, name + ".model")
    with open(model, "w") as f:
        f.write(rewritten)
    return model, data


def placeSplit(data, prefix, count):
    """The first `count` samples of a split (0: a link to the original)."""
    for kind in ("images-idx3", "labels-idx1"):
        dst = os.path.join(data, "%s-%s-ubyte.gz" % (prefix, kind))
        if os.path.lexists(dst):
            os.remove(dst)
        if not count:
            os.symlink(os.path.join(SRC, os.path.basename(dst)), dst)
    if count:
        subset_idx.writeSplit(SRC, data, prefix, count, False)


def writeEvalSet(work, name, count):
    """Plain IDX files with the first `count` training images and labels."""
    d = os.path.join(work, name, "eval%d" % count)
    os.makedirs(d, exist_ok=True)
    subset_idx.writeSplit(SRC, d, "train", count, True)
    return d


def swapTestSet(data, evalDir):
    """Puts an eval set where the executable reads its test set (the runtime
    reads plain or gzip IDX whatever the name)."""
    for kind in ("images-idx3", "labels-idx1"):
        dst = os.path.join(data, "t10k-%s-ubyte.gz" % kind)
        if os.path.lexists(dst):
            os.remove(dst)
        shutil.copyfile(os.path.join(evalDir, "train-%s-ubyte" % kind), dst)


def flopsPerSample(net):
    """train FLOPs per sample from `NET info --batch 64` (0 when unknown)."""
    out = subprocess.run([net, "info", "--batch", "64"], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("FLOPs per training step (batch 64):"):
            return float(line.split(":")[1]) / 64
    return 0.0


def readAccuracy(ckDir):
    with open(os.path.join(ckDir, "metrics.csv")) as f:
        rows = f.read().splitlines()
    header, last = rows[0].split(","), rows[-1].split(",")
    return float(last[header.index("val_accuracy")])


def trainModelc(net, work, name, r, env):
    """One `NET train` run: throughput, steady throughput, RSS, accuracy."""
    ck = os.path.join(work, name, "ck%d" % r)
    shutil.rmtree(ck, ignore_errors=True)
    log = os.path.join(work, name, "train%d.log" % r)
    secs, rss, _ = timed([net, "train", "--epochs", "1", "--batch", "64", "--seed", str(r + 1),
                          "--device", "cpu", "--checkpoint-dir", ck, "--log-every", "10"],
                         env=env, log=log)
    scalars = tfevents.readScalars(ck)
    epoch = scalars.get("epoch/throughput", [])
    steps = scalars.get("step/throughput", [])
    if not epoch:
        sys.exit("%s: no epoch/throughput scalar in the TensorBoard file" % ck)
    steady = statistics.median(steps[1:]) if len(steps) > 1 else None
    return {"train_samples_per_s": epoch[-1], "train_steady_samples_per_s": steady,
            "train_command_seconds": secs, "peak_rss_train_kb": rss,
            "val_accuracy": readAccuracy(ck), "checkpoint": os.path.join(ck, "last.safetensors")}


def evalModelc(net, data, evalDirs, checkpoint, batch, counts, env, reps):
    """Differential eval images/s at `batch` from whole-command times."""
    times = {}
    for n in counts:
        swapTestSet(data, evalDirs[n])
        cmd = [net, "eval", "--checkpoint", checkpoint, "--batch", str(batch), "--device", "cpu"]
        times[n] = statistics.median(timed(cmd, env=env)[0] for _ in range(reps))
    n0, n1 = counts
    dt = times[n1] - times[n0]
    model = modelOnlyEval(net, checkpoint, batch, env)
    return {"images_per_s": model["images_per_s"],
            "model_only": model,
            "differential_images_per_s": (n1 - n0) / dt if dt > 0 else None,
            "seconds": {str(n): t for n, t in times.items()},
            "whole_command_images_per_s": n1 / times[n1]}


KERNEL_ROW = re.compile(r"^\s+([0-9.]+)\s+[0-9.]+%\s+\d+\s+([0-9.]+|-)\s+\S", re.M)


def modelOnlyEval(net, checkpoint, batch, env):
    """Images/s of the model alone, like PyTorch's figure (data in memory):
    `eval --profile` times every eval_step call (forward, loss, accuracy),
    not the loader's copying and normalising (the "evaluation" phase of the
    report). The profiling hooks around each kernel are included. Also the
    FLOPs per image that the kernels did (each kernel's time x GFLOP/s, as
    the profile counts them), for the fraction of the FMA peak."""
    cmd = [net, "eval", "--checkpoint", checkpoint, "--batch", str(batch), "--device", "cpu",
           "--profile"]
    out = timed(cmd, env=env)[2]
    n = int(re.search(r"\((\d+) samples\)", out).group(1))
    secs = float(re.search(r"^\s*evaluation\s+([0-9.]+) s", out, re.M).group(1))
    flops = sum(float(ms) * 1e-3 * float(rate) * 1e9
                for ms, rate in KERNEL_ROW.findall(out) if rate != "-")
    return {"images_per_s": n / secs if secs > 0 else None, "samples": n, "seconds": secs,
            "flops_per_image": flops / n if n else None}


def runTorch(name, cfg, env, seed, quick, autocast=False):
    cmd = [PYTHON, os.path.join(HERE, "torch_models.py"), "--model", name,
           "--train-images", str(cfg["train"]), "--test-images", str(cfg["test"]),
           "--seed", str(seed), "--eval-repeats", "1" if quick else str(cfg["torch_eval_repeats"]),
           "--batch1-images", str(cfg["b1"][1] - cfg["b1"][0])] + \
        (["--autocast"] if autocast else [])
    secs, rss, out = timed(cmd, env=env)
    r = json.loads(out.strip().splitlines()[-1])
    r["command_seconds"] = secs
    return r


def modelcRepeat(args, work, name, cfg, r, env, evalDirs, data, model, precision):
    """Compile, train and eval once; returns a dict of figures."""
    net = os.path.join(work, name, name)
    extra = ["--target-cpu=haswell"] if args.config == "avx2" else []
    extra += ["--precision=%s" % precision] if precision != "f32" else []
    compSecs, compRss, _ = timed([args.modelc, model, "-o", net] + extra)
    res = {"compile_seconds": compSecs, "compile_peak_rss_kb": compRss,
           "flops_per_sample": flopsPerSample(net)}
    res["kernels"] = modelcKernels(net, env)
    res.update(trainModelc(net, work, name, r, env))
    for batch, key in ((1000, "b1000"), (1, "b1")):
        e = evalModelc(net, data, evalDirs, res["checkpoint"], batch, cfg[key], env,
                       1 if args.quick else 3)
        res["eval_%s_images_per_s" % key] = e["images_per_s"]
        res["eval_%s_detail" % key] = e
    return res


def benchModel(args, work, name, envs, modelcEnv, precision="f32"):
    """One model at one precision. bf16: modelc --precision=bf16, and PyTorch
    under torch.autocast bf16 in each environment (the report compares it
    with the f32 runs' environments too, when the run has them)."""
    cfg = dict(MODELS[name])
    if args.quick:
        cfg.update(QUICK[name])
    if name == "cnn" and args.cnn_train_images is not None:
        cfg["train"] = args.cnn_train_images
    model, data = prepareData(work, name, cfg)
    evalDirs = {n: writeEvalSet(work, name, n) for n in set(cfg["b1000"] + cfg["b1"])}
    autocast = precision == "bf16"
    tag = ", autocast bf16" if autocast else ""
    out = {"config": {k: v for k, v in cfg.items() if k != "source"}, "precision": precision,
           "source": cfg["source"], "modelc": [], "torch": {e + tag: [] for e, _ in envs}}
    for r in range(args.repeats):
        # Each repeat's eval swaps eval sets in for the test set: restore it.
        placeSplit(data, "t10k", cfg["test"])
        print("[%s %s] repeat %d: modelc" % (name, precision, r + 1), file=sys.stderr,
              flush=True)
        out["modelc"].append(modelcRepeat(args, work, name, cfg, r, modelcEnv, evalDirs,
                                          data, model, precision))
        for envName, env in envs:
            print("[%s %s] repeat %d: pytorch, %s%s" % (name, precision, r + 1, envName, tag),
                  file=sys.stderr, flush=True)
            out["torch"][envName + tag].append(runTorch(name, cfg, env, r + 1, args.quick,
                                                        autocast))
    return out


def charlmBytes(steps):
    """The bytes of fortunes whose training part is `steps` batches of 32
    windows of 128 (prepare.sh cuts at a line end, a few characters take two
    bytes: the epoch stays `steps` long as long as that loses less than a
    batch's 4096 characters)."""
    tokens = steps * CHARLM["batch"] * CHARLM["context"] + 1
    return int(tokens / (1 - CHARLM["validation"])) + 1


def charlmSteps(path):
    """Optimizer steps of one epoch of `path`, as modelc's loader counts them
    (support/include/modelsupport/Text.h, Dataset.cpp's splitStream)."""
    with open(path, encoding="utf-8") as f:
        n = len(f.read())
    train = n - int(round(n * CHARLM["validation"]))
    windows = (train - 1) // CHARLM["context"]
    return (windows + CHARLM["batch"] - 1) // CHARLM["batch"], n


def prepareCharlm(args, work):
    """WORK/charlm: the slice of the fortunes and the copy of the model."""
    d = os.path.join(work, "charlm")
    os.makedirs(d, exist_ok=True)
    text = os.path.join(d, "fortunes.txt")
    subprocess.run(["bash", CHARLM["prepare"], text, str(charlmBytes(args.charlm_steps))],
                   check=True, stdout=subprocess.DEVNULL)
    model = os.path.join(d, "charlm.model")
    shutil.copyfile(CHARLM["source"], model)
    steps, tokens = charlmSteps(text)
    return model, text, steps, tokens


def charlmGenerate(net, d, ck, env, reps):
    """Tokens/s of `NET generate` from the difference of K0 and K1 tokens."""
    times = {}
    for k in CHARLM["gen_tokens"]:
        cmd = [net, "generate", "--checkpoint", ck, "--tokens", str(k), "--temperature", "1",
               "--seed", "1"]
        times[k] = statistics.median(timed(cmd, env=env, cwd=d)[0] for _ in range(reps))
    k0, k1 = CHARLM["gen_tokens"]
    dt = times[k1] - times[k0]
    return {"tokens_per_s": (k1 - k0) / dt if dt > 0 else None,
            "seconds": {str(k): t for k, t in times.items()},
            "whole_command_tokens_per_s": k1 / times[k1]}


def charlmModelc(args, work, r, env, model, steps, tag=""):
    """Compile, train one epoch (seed r + 1), generate; one dict of figures."""
    d = os.path.dirname(model)
    net = os.path.join(d, "charlm")
    extra = ["--target-cpu=haswell"] if args.config == "avx2" else []
    compSecs, compRss, _ = timed([args.modelc, model, "-o", net] + extra, cwd=d)
    res = {"compile_seconds": compSecs, "compile_peak_rss_kb": compRss,
           "flops_per_sample": flopsPerSample(net), "kernels": modelcKernels(net, env),
           "env": {k: env[k] for k in ("OMP_WAIT_POLICY", "MODELRT_CPU_ISA") if k in env}}
    ck = os.path.join(d, "ck%s%d" % (tag, r))
    shutil.rmtree(ck, ignore_errors=True)
    log = os.path.join(d, "train%s%d.log" % (tag, r))
    secs, rss, _ = timed([net, "train", "--epochs", "1", "--seed", str(r + 1), "--device", "cpu",
                          "--checkpoint-dir", ck, "--log-every", "10"], env=env, cwd=d, log=log)
    scalars = tfevents.readScalars(ck)
    epoch = scalars.get("epoch/throughput", [])
    windows = scalars.get("step/throughput", [])
    if not epoch:
        sys.exit("%s: no epoch/throughput scalar in the TensorBoard file" % ck)
    with open(os.path.join(ck, "metrics.csv")) as f:
        rows = f.read().splitlines()
    header, last = rows[0].split(","), rows[-1].split(",")
    T = CHARLM["context"]
    res.update({"train_tokens_per_s": epoch[-1] * T,
                "train_steady_tokens_per_s":
                    statistics.median(windows[1:]) * T if len(windows) > 1 else None,
                "train_command_seconds": secs, "peak_rss_train_kb": rss,
                "steps": int(last[header.index("step")]),
                "val_loss": float(last[header.index("val_loss")]),
                "train_loss": float(last[header.index("train_loss")]), "seed": r + 1})
    if res["steps"] != steps:
        sys.exit("charlm: modelc took %d steps, the text calls for %d" % (res["steps"], steps))
    g = charlmGenerate(net, d, os.path.join(ck, "last.safetensors"), env, 1 if args.quick else 3)
    res["gen_tokens_per_s"] = g["tokens_per_s"]
    res["gen_detail"] = g
    return res


def benchCharlm(args, work, envs, modelcEnv):
    model, text, steps, tokens = prepareCharlm(args, work)
    out = {"config": {"steps": steps, "tokens": tokens, "bytes": os.path.getsize(text),
                      "batch": CHARLM["batch"], "context": CHARLM["context"],
                      "gen_tokens": list(CHARLM["gen_tokens"])},
           "source": CHARLM["source"], "modelc": [], "torch": {e: [] for e, _ in envs}}
    # modelc once more with OMP_WAIT_POLICY=PASSIVE: its OpenMP team spins
    # at every join by default, which a loaded machine punishes (the README).
    passive = dict(modelcEnv, OMP_WAIT_POLICY="PASSIVE")
    out["modelc_passive"] = []
    for r in range(args.repeats):
        print("[charlm] repeat %d: modelc (%d steps)" % (r + 1, steps), file=sys.stderr,
              flush=True)
        out["modelc"].append(charlmModelc(args, work, r, modelcEnv, model, steps))
        print("[charlm] repeat %d: modelc, OMP_WAIT_POLICY=PASSIVE" % (r + 1), file=sys.stderr,
              flush=True)
        out["modelc_passive"].append(charlmModelc(args, work, r, passive, model, steps,
                                                  "passive"))
        for envName, env in envs:
            print("[charlm] repeat %d: pytorch, %s" % (r + 1, envName), file=sys.stderr,
                  flush=True)
            cmd = [PYTHON, os.path.join(HERE, "torch_models.py"), "--model", "charlm",
                   "--text", text, "--seed", str(r + 1),
                   "--gen-tokens", str(CHARLM["gen_tokens"][1] - CHARLM["gen_tokens"][0])]
            secs, rss, o = timed(cmd, env=env)
            res = json.loads(o.strip().splitlines()[-1])
            res["command_seconds"] = secs
            if res["steps"] != steps:
                sys.exit("charlm: PyTorch took %d steps, modelc %d" % (res["steps"], steps))
            out["torch"][envName].append(res)
    return out


def commonArguments(ap):
    """--modelc, --work and --report, which run.py and accuracy.py share."""
    ap.add_argument("--modelc", default=os.path.join(ROOT, "build", "bin", "modelc"))
    ap.add_argument("--work", default=None, help="work directory (default: a new temp dir)")
    ap.add_argument("--report", metavar="RESULTS.json", default=None,
                    help="only print the tables of an earlier run's results.json")


def main():
    ap = argparse.ArgumentParser(description="modelc vs PyTorch on Fashion-MNIST")
    ap.add_argument("--quick", action="store_true", help="1 repeat, small subsets")
    ap.add_argument("--models", default="mlp,cnn")
    ap.add_argument("--repeats", type=int, default=None, help="default 3 (quick: 1)")
    ap.add_argument("--cnn-train-images", type=int, default=None,
                    help="CNN training subset (default 2560; 0 = all 60000)")
    ap.add_argument("--charlm-steps", type=int, default=200,
                    help="charlm: optimizer steps (one epoch of a slice of the fortunes)")
    ap.add_argument("--precisions", default="f32",
                    help="comma-separated: f32 and/or bf16 (modelc --precision=bf16 against "
                         "PyTorch's best of f32 and torch.autocast bf16)")
    ap.add_argument("--config", choices=("native", "avx2"), default="native",
                    help="native: every feature of the CPU; avx2: both sides limited to "
                         "AVX2 + FMA (modelc --target-cpu=haswell, MODELRT_CPU_ISA=avx2; "
                         "PyTorch ATEN_CPU_CAPABILITY=avx2, ONEDNN_MAX_CPU_ISA=AVX2, "
                         "OPENBLAS_CORETYPE=Haswell)")
    commonArguments(ap)
    args = ap.parse_args()
    if args.report:
        with open(args.report) as f:
            results = json.load(f)
        print(tables.report(results, environments(results.get("config", "native"))))
        return
    if args.repeats is None:
        args.repeats = 1 if args.quick else 3
    names = [m for m in args.models.split(",") if m]
    for m in names:
        if m not in MODELS and m != "charlm":
            sys.exit("unknown model '%s' (mlp, cnn, charlm)" % m)
    precisions = [p for p in args.precisions.split(",") if p]
    for p in precisions:
        if p not in ("f32", "bf16"):
            sys.exit("unknown precision '%s' (f32, bf16)" % p)
    envs = environments(args.config)
    modelcEnv = modelcEnvironment(args.config)
    work = args.work or tempfile.mkdtemp(prefix="modelc-compare-")
    os.makedirs(work, exist_ok=True)
    started = time.time()
    load = os.getloadavg()
    results = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "load_before": load, "config": args.config,
               "modelc_env": "MODELRT_CPU_ISA=avx2" if args.config == "avx2" else "inherited",
               "machine": machineInfo(work, args.config),
               "torch_onednn_isa": {e: torchOneDnnIsa(env) for e, env in envs},
               "quick": args.quick,
               "repeats": args.repeats, "models": {}}
    for m in names:
        if m == "charlm":
            results["models"][m] = benchCharlm(args, work, envs, modelcEnv)
        else:
            for p in precisions:
                key = m if p == "f32" else m + "-bf16"
                results["models"][key] = benchModel(args, work, m, envs, modelcEnv, p)
    results["load_after"] = os.getloadavg()
    results["minutes"] = (time.time() - started) / 60
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(tables.report(results, envs))
    print("raw results: %s" % os.path.join(work, "results.json"))


if __name__ == "__main__":
    main()
