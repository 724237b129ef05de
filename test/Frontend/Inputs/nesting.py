"""nesting.py DIR N — writes DIR/{parens,calls,chain,pipes,subscripts,
negations}.model, each a model whose returned expression nests N levels of
one kind below the statement's own (err_deep_nesting.model)."""
import os
import sys

out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)
bodies = {
    "parens": "(" * n + "x" + ")" * n,
    "calls": "relu(" * n + "x" + ")" * n,
    "chain": "x" + " + x" * n,
    "pipes": "x" + " |> relu" * n,
    "subscripts": "x" + "[:, :]" * n,
    "negations": "-" * n + "x",
}
for name, body in bodies.items():
    with open(os.path.join(out, name + ".model"), "w") as f:
        f.write("model M(x: f32[B, 4]) -> f32[B, 4] {\n  return %s\n}\n" % body)
