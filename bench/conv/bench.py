#!/usr/bin/python3
"""bench/conv/bench.py — conv2d through the CPU pipeline: direct vs im2col+GEMM.

For each Fashion-MNIST CNN convolution (batch 64, 3x3, padding 1) builds two
kernels `conv(x, w) -> y` from linalg on tensors and compiles them with
`modelc-backend-test --emit=exe` (the full CPU pipeline, matmuls to
OpenBLAS) linked with harness.c:
  direct: tensor.pad + linalg.conv_2d_nchw_fchw (what convert-mdl-to-linalg
          emits; loops after the pipeline);
  im2col: tensor.pad, one generic gathering patches into (N*H*W) x (C*9),
          linalg.matmul with a transposed weight (-> cblas_sgemm), then
          linalg.transpose back to NCHW.
The input-gradient of a convolution is itself such a convolution with the
channel counts swapped (conv2d_grad_input lowers to conv_2d_nchw_fchw), so
`dX` rows time C<->O swapped shapes. Prints best-of-REPS milliseconds and
checks that both kernels give the same checksum.

Usage: bench.py BUILD_DIR [REPS]   (states OPENBLAS_CORETYPE / threads)
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


def im2col(n, c, h, w, o):
    X, W, Y, XP = types(n, c, h, w, o)
    d = dict(X=X, W=W, Y=Y, XP=XP, n=n, c=c, h=h, w=w, o=o, M=n * h * w, K=c * 9)
    return ("#col_in = affine_map<(n, y, x, c, i, j) -> (n, c, y + i, x + j)>\n"
            "#col_out = affine_map<(n, y, x, c, i, j) -> (n, y, x, c, i, j)>\n"
            "#mA = affine_map<(m, o, k) -> (m, k)>\n#mB = affine_map<(m, o, k) -> (o, k)>\n"
            "#mC = affine_map<(m, o, k) -> (m, o)>\n"
            "func.func @conv(%%x: %(X)s, %%w: %(W)s) -> %(Y)s {\n" + PAD +
            "  %%ce = tensor.empty() : tensor<%(n)dx%(h)dx%(w)dx%(c)dx3x3xf32>\n"
            "  %%col = linalg.generic {indexing_maps = [#col_in, #col_out], iterator_types = "
            "[\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"parallel\", \"parallel\"]}\n"
            "      ins(%%p : %(XP)s) outs(%%ce : tensor<%(n)dx%(h)dx%(w)dx%(c)dx3x3xf32>) {\n"
            "  ^bb0(%%v: f32, %%u: f32):\n    linalg.yield %%v : f32\n"
            "  } -> tensor<%(n)dx%(h)dx%(w)dx%(c)dx3x3xf32>\n"
            "  %%a = tensor.collapse_shape %%col [[0, 1, 2], [3, 4, 5]] : tensor<%(n)dx%(h)dx%(w)dx%(c)dx3x3xf32> into tensor<%(M)dx%(K)dxf32>\n"
            "  %%b = tensor.collapse_shape %%w [[0], [1, 2, 3]] : %(W)s into tensor<%(o)dx%(K)dxf32>\n"
            "  %%me = tensor.empty() : tensor<%(M)dx%(o)dxf32>\n"
            "  %%mz = linalg.fill ins(%%z : f32) outs(%%me : tensor<%(M)dx%(o)dxf32>) -> tensor<%(M)dx%(o)dxf32>\n"
            "  %%mm = linalg.matmul indexing_maps = [#mA, #mB, #mC] ins(%%a, %%b : tensor<%(M)dx%(K)dxf32>, tensor<%(o)dx%(K)dxf32>)\n"
            "      outs(%%mz : tensor<%(M)dx%(o)dxf32>) -> tensor<%(M)dx%(o)dxf32>\n"
            "  %%nhwo = tensor.expand_shape %%mm [[0, 1, 2], [3]] output_shape [%(n)d, %(h)d, %(w)d, %(o)d] : tensor<%(M)dx%(o)dxf32> into tensor<%(n)dx%(h)dx%(w)dx%(o)dxf32>\n"
            "  %%te = tensor.empty() : %(Y)s\n"
            "  %%y = linalg.transpose ins(%%nhwo : tensor<%(n)dx%(h)dx%(w)dx%(o)dxf32>) outs(%%te : %(Y)s) permutation = [0, 3, 1, 2]\n"
            "  return %%y : %(Y)s\n}\n") % d


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
            ti, si = run(build, im2col(*shape[1:]), shape, reps, tmp, "i%d" % i)
            if abs(sd - si) > 1e-4 * max(1.0, abs(sd)):
                sys.exit("checksums differ for %s: %r vs %r" % (shape[0], sd, si))
            print("| %s | %.1f | %.1f | %.1fx |" % (shape[0], td, ti, td / ti))


if __name__ == "__main__":
    main()
