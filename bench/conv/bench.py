#!/usr/bin/python3
"""bench/conv/bench.py — conv2d through the CPU pipeline: direct vs im2col+GEMM.

For each Fashion-MNIST CNN convolution (batch 64, 3x3, padding 1) builds two
kernels `conv(x, w) -> y` from linalg on tensors and compiles them with
`modelc-backend-test --emit=exe` (the full CPU pipeline, matmuls to
OpenBLAS) linked with harness.c:
  direct: tensor.pad + linalg.conv_2d_nchw_fchw (what convert-mdl-to-linalg
          emits; loops after the pipeline);
  im2col: mdl.conv2d lowered by `modelc-opt --convert-mdl-to-linalg`
          (compiler/lib/Conversion/MDLToLinalg/Im2Col.cpp: tensor.generate
          gathering patches into (C*9) x (N*H*W), one rank-2 contraction ->
          cblas_sgemm, one generic back to NCHW). A hand-written
          generic + collapse_shape + linalg.matmul version does NOT reach
          BLAS: the pipeline's elementwise fusion / reshape propagation fold
          the reshapes into the matmul.
The `dX` row times a convolution with C<->O swapped (the cost of the old
transposed-convolution lowering of conv2d_grad_input; the new one is a GEMM
of the same size plus col2im). Prints best-of-REPS milliseconds and
checks that both kernels give the same checksum.

Usage: bench.py BUILD_DIR [REPS]   (states OPENBLAS_CORETYPE / threads)

runtime_conv.cpp times the runtime's own convolution functions
(modelrt_conv2d_*, oneDNN primitives and im2col + sgemm) on the same shapes;
build it from the repository root with
  g++ -O2 -std=c++17 -I runtime/include bench/conv/runtime_conv.cpp \
      build-rt/lib/libmodelrt.a -lgomp -ldl -lz -lpthread -o /tmp/runtime_conv

runtime_pool.cpp times the runtime's pooling functions (modelrt_max_pool2d_*,
modelrt_avg_pool2d_*) on the CNN's 2x2 / 2 poolings and ResNet's 3x3 / 2
padding 1, next to plain scalar loops; build it the same way:
  g++ -O2 -std=c++17 -I runtime/include bench/conv/runtime_pool.cpp \
      build-rt/lib/libmodelrt.a -lgomp -ldl -lz -lpthread -o /tmp/runtime_pool
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES = (  # name, N, C, H, W, O
    ("conv1 fwd 1->32 28x28", 64, 1, 28, 28, 32),
    ("conv2 fwd 32->64 14x14", 64, 32, 14, 14, 64),
    ("conv2 dX 64->32 14x14", 64, 64, 14, 14, 32),
)


def types(n, c, h, w, o):
    return ("tensor<%dx%dx%dx%dxf32>" % (n, c, h, w), "tensor<%dx%dx3x3xf32>" % (o, c),
            "tensor<%dx%dx%dx%dxf32>" % (n, o, h, w), "tensor<%dx%dx%dx%dxf32>" % (n, c, h + 2, w + 2))


PAD = """  %%z = arith.constant 0.0 : f32
  %%p = tensor.pad %%x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%%a: index, %%b: index, %%c: index, %%d: index):
    tensor.yield %%z : f32
  } : %(X)s to %(XP)s
"""


def direct(n, c, h, w, o):
    X, W, Y, XP = types(n, c, h, w, o)
    d = dict(X=X, W=W, Y=Y, XP=XP)
    return ("func.func @conv(%%x: %(X)s, %%w: %(W)s) -> %(Y)s {\n" + PAD +
            "  %%e = tensor.empty() : %(Y)s\n"
            "  %%acc = linalg.fill ins(%%z : f32) outs(%%e : %(Y)s) -> %(Y)s\n"
            "  %%y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}\n"
            "      ins(%%p, %%w : %(XP)s, %(W)s) outs(%%acc : %(Y)s) -> %(Y)s\n"
            "  return %%y : %(Y)s\n}\n") % d


def lowered(build, n, c, h, w, o):
    """What `--convert-mdl-to-linalg` emits for mdl.conv2d today (groups = 1:
    im2col via tensor.generate + one rank-2 contraction -> cblas_sgemm)."""
    X, W, Y, _ = types(n, c, h, w, o)
    text = ("func.func @conv(%%x: %s, %%w: %s) -> %s {\n"
            "  %%y = mdl.conv2d %%x, %%w {padding = array<i64: 1, 1>} : %s, %s -> %s\n"
            "  return %%y : %s\n}\n") % (X, W, Y, X, W, Y, Y)
    return subprocess.run([os.path.join(build, "bin", "modelc-opt"), "-", "--convert-mdl-to-linalg"],
                          input=text, check=True, capture_output=True, text=True).stdout


def run(build, text, shape, reps, tmp, tag):
    src = os.path.join(tmp, tag + ".mlir")
    exe = os.path.join(tmp, tag + ".exe")
    with open(src, "w") as f:
        f.write(text)
    subprocess.run([os.path.join(build, "bin", "modelc-backend-test"), src, "--emit=exe",
                    "--link-input=" + os.path.join(HERE, "harness.c"), "-o", exe], check=True)
    _, n, c, h, w, o = shape
    out = subprocess.run([exe, str(n), str(c), str(h), str(w), str(o), "3", "1", str(reps)],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def main():
    build = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print("OPENBLAS_CORETYPE=%s OPENBLAS_NUM_THREADS=%s" % (
        os.environ.get("OPENBLAS_CORETYPE", "(unset)"), os.environ.get("OPENBLAS_NUM_THREADS", "(unset)")))
    print("| conv | direct ms | im2col+GEMM ms | speed-up |")
    print("| --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for i, shape in enumerate(SHAPES):
            td, sd = run(build, direct(*shape[1:]), shape, reps, tmp, "d%d" % i)
            ti, si = run(build, lowered(build, *shape[1:]), shape, reps, tmp, "i%d" % i)
            if abs(sd - si) > 1e-4 * max(1.0, abs(sd)):
                sys.exit("checksums differ for %s: %r vs %r" % (shape[0], sd, si))
            print("| %s | %.1f | %.1f | %.1fx |" % (shape[0], td, ti, td / ti))


if __name__ == "__main__":
    main()
