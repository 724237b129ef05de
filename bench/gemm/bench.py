#!/usr/bin/env python3
"""bench/gemm/bench.py — measures float32 GEMM on modelc's shapes two ways:
the MLIR transform-dialect path (tile, vectorise, hoist, outer products;
schedule in schedule.mlir, lowered with mlir-opt/mlir-translate/llc -O3) and
OpenBLAS cblas_sgemm, both called from harness.c on the same buffers, checked
against each other. Usage: bench.py [--threads N]. Prints a Markdown table.
Run it once per OPENBLAS_CORETYPE setting you want to compare."""
import os, subprocess, sys, tempfile

LLVM = "/usr/lib/llvm-22/bin"
HERE = os.path.dirname(os.path.abspath(__file__))
# (name, M, N, K, transA, transB): C[MxN] += op(A)[MxK] * op(B)[KxN]
SHAPES = [
    ("fc1 fwd  x@W1", 64, 256, 784, 0, 0),
    ("fc1 dX   dY@W1^T", 64, 784, 256, 0, 1),
    ("fc1 dW   X^T@dY", 784, 256, 64, 1, 0),
    ("fc2 fwd  h@W2", 64, 10, 256, 0, 0),
    ("fc2 dX   dY@W2^T", 64, 256, 10, 0, 1),
    ("fc2 dW   h^T@dY", 256, 10, 64, 1, 0),
    ("conv3x3 im2col fwd", 50176, 32, 288, 0, 0),
    ("conv3x3 im2col dW", 288, 32, 50176, 1, 0),
    ("conv3x3 im2col dX", 50176, 288, 32, 0, 1),
]

def kernel(m, n, k, ta, tb):
    ashape = f"{k}x{m}" if ta else f"{m}x{k}"
    bshape = f"{n}x{k}" if tb else f"{k}x{n}"
    amap = "(d2, d0)" if ta else "(d0, d2)"
    bmap = "(d1, d2)" if tb else "(d2, d1)"
    maps = (f"indexing_maps = [affine_map<(d0, d1, d2) -> {amap}>, "
            f"affine_map<(d0, d1, d2) -> {bmap}>, "
            f"affine_map<(d0, d1, d2) -> (d0, d1)>]")
    return f"""
func.func @gemm(%a: tensor<{ashape}xf32>, %b: tensor<{bshape}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul {maps} ins(%a, %b : tensor<{ashape}xf32>, tensor<{bshape}xf32>) outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""

LOWER = ["--transform-interpreter", "--canonicalize", "--cse",
         "--one-shot-bufferize=bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map",
         "--canonicalize", "--cse", "--canonicalize",
         "--buffer-results-to-out-params=hoist-static-allocs modify-public-functions", "--canonicalize",
         "--convert-vector-to-scf=full-unroll", "--convert-linalg-to-loops", "--lower-affine",
         "--convert-scf-to-cf", "--expand-strided-metadata", "--lower-affine",
         "--convert-vector-to-llvm", "--convert-to-llvm", "--convert-ub-to-llvm", "--reconcile-unrealized-casts"]

def build(tmp, shape):
    _, m, n, k, ta, tb = shape
    src = os.path.join(tmp, "k.mlir")
    with open(src, "w") as f:
        f.write(kernel(m, n, k, ta, tb))
    ll = os.path.join(tmp, "k.ll")
    obj = os.path.join(tmp, "k.o")
    lowered = subprocess.run([f"{LLVM}/mlir-opt", src,
        "--transform-preload-library=transform-library-paths="
        + os.path.join(HERE, "schedule.mlir")] + LOWER,
                             check=True, capture_output=True, text=True).stdout
    with open(os.path.join(tmp, "k.llvm.mlir"), "w") as f:
        f.write(lowered)
    subprocess.run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir",
                    os.path.join(tmp, "k.llvm.mlir"), "-o", ll], check=True)
    # The X86 back end takes FMA contraction only from IR fast-math flags;
    # modelc's pipeline sets `contract` on arith ops, here we patch the IR.
    text = open(ll).read()
    for op in ("fmul", "fadd"):
        text = text.replace(f" = {op} ", f" = {op} contract ")
    open(ll, "w").write(text)
    subprocess.run([f"{LLVM}/llc", "-O3", "-mcpu=native",
                    "-relocation-model=pic", "-filetype=obj", ll, "-o", obj],
                   check=True)
    exe = os.path.join(tmp, "bench")
    subprocess.run(["cc", "-O2", os.path.join(HERE, "harness.c"), obj,
                    "-o", exe, "-lopenblas", "-lm"], check=True)
    return exe

def main():
    threads = "1"
    if "--threads" in sys.argv:
        threads = sys.argv[sys.argv.index("--threads") + 1]
    env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
    print(f"OPENBLAS_CORETYPE={env.get('OPENBLAS_CORETYPE', '(unset)')}, "
          f"OPENBLAS_NUM_THREADS={threads}, MLIR path single-threaded\n")
    print("| shape | M x N x K | tA | tB | MLIR GFLOP/s | OpenBLAS GFLOP/s | max rel diff |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in SHAPES:
            exe = build(tmp, shape)
            name, m, n, k, ta, tb = shape
            out = subprocess.run([exe, str(m), str(n), str(k), str(ta), str(tb)],
                                 check=True, capture_output=True, text=True,
                                 env=env).stdout.split()
            print(f"| {name} | {m}x{n}x{k} | {ta} | {tb} | {out[0]} | {out[1]} | {out[2]} |")
            sys.stdout.flush()

if __name__ == "__main__":
    main()
