#!/usr/bin/env python3
"""Checks an exported ONNX model with the onnx package (Debian's python3-onnx).

onnx_check.py MODEL.onnx

Runs onnx.checker.check_model(full_check=True) (which includes shape
inference) and strict shape inference, then prints the opset, the graph's
inputs and outputs with their shapes (a symbolic dimension by name), the
ONNX op types used, the inferred output shape and the metadata, for
FileCheck. Exits 1 with the checker's message when the model is invalid.
"""
import sys

import onnx


def dims(value):
    shape = value.type.tensor_type.shape.dim
    return "x".join(d.dim_param or str(d.dim_value) for d in shape)


def main():
    model = onnx.load(sys.argv[1])
    try:
        onnx.checker.check_model(model, full_check=True)
        inferred = onnx.shape_inference.infer_shapes(
            model, check_type=True, strict_mode=True)
    except Exception as e:  # the checker's exceptions have several types
        print(f"{sys.argv[1]}: invalid ONNX model: {e}")
        return 1
    print("checker: ok")
    print("opset:", ", ".join(f"{o.domain or 'ai.onnx'} {o.version}"
                              for o in model.opset_import))
    for v in model.graph.input:
        print(f"input {v.name}: {dims(v)}")
    for v in inferred.graph.output:
        print(f"output {v.name}: {dims(v)}")
    print("ops:", " ".join(sorted({n.op_type for n in model.graph.node})))
    for p in model.metadata_props:
        print(f"metadata {p.key}: {p.value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
