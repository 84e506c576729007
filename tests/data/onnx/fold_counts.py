#!/usr/bin/python3
"""Counts, independently of memplan's code, the ops and values its ONNX
importer should produce once shape computations fold (the expected counts of
tests/io/onnx/real_models_test.cc):

    /usr/bin/python3 tests/data/onnx/fold_counts.py MODEL.onnx...

prints `MODEL ops values`. A node folds when it is a supported op with one
output, all its inputs are known values (inline initializers or Constant
nodes of at most 4096 elements, or folded outputs; Shape and Size need only
static dims) and its output has at most 4096 elements, with shapes from onnx's
own shape inference (data propagation on). ops = the nodes that stay; values
= graph inputs + initializers + outputs of the nodes that stay + folded
outputs a staying node or graph output reads. One pass of onnx inference does
not see through every chain memplan iterates over, so this matches memplan on
models whose shapes onnx resolves alone (the shared torchvision and zoo-light
models), not on tests/data/onnx's exports.
"""
import onnx, glob, os, sys, numpy as np
from onnx import numpy_helper
SUP = set("""Constant Shape Size ConstantOfShape Range Identity Cast Gather Concat Slice Squeeze
Unsqueeze Reshape Flatten Expand Tile Transpose ScatterND Add Sub Mul Div Mod Pow Min Max Neg Abs
Floor Ceil Round Sqrt Reciprocal Sign Equal Less Greater LessOrEqual GreaterOrEqual Not And Or Xor
Where ReduceSum ReduceProd ReduceMin ReduceMax""".split())
OKT = {1, 6, 7, 9, 11}  # FLOAT INT32 INT64 BOOL DOUBLE
def numel(dims):
    n = 1
    for d in dims: n *= d
    return n
def count(path):
    m = onnx.load(path, load_external_data=False)
    g = m.graph
    mi = onnx.shape_inference.infer_shapes(m, data_prop=True)
    shapes = {}
    for v in list(mi.graph.value_info) + list(mi.graph.output) + list(mi.graph.input):
        t = v.type.tensor_type
        if t.HasField('shape') and all(d.HasField('dim_value') for d in t.shape.dim):
            shapes[v.name] = ([d.dim_value for d in t.shape.dim], t.elem_type)
    known = set()
    for i in g.initializer:
        ext = i.data_location == onnx.TensorProto.EXTERNAL
        if i.data_type in OKT and not ext and numel(i.dims) <= 4096: known.add(i.name)
    inits = set(i.name for i in g.initializer)
    kept, folded = [], set()
    for n in g.node:
        out = n.output[0] if len(n.output) == 1 else None
        ok = n.domain in ('', 'ai.onnx') and out and n.op_type in SUP
        if ok and n.op_type in ('Shape', 'Size'):
            ok = n.input[0] in shapes or n.input[0] in inits
        elif ok:
            ok = all(i == '' or i in known for i in n.input)
        if ok and n.op_type == 'Constant':
            t = next((a.t for a in n.attribute if a.name == 'value'), None)
            ok = t is None or (t.data_type in OKT and numel(t.dims) <= 4096)
        elif ok:
            s = shapes.get(out)
            ok = s is not None and numel(s[0]) <= 4096 and s[1] in OKT
        if ok:
            known.add(out); folded.add(out)
        else:
            kept.append(n)
    read = set(i for n in kept for i in n.input) | set(o.name for o in g.output)
    values = len([i for i in g.input if i.name not in inits]) + len(inits)
    values += sum(1 for n in kept for o in n.output if o) + len(folded & read)
    return len(kept), values
for f in sys.argv[1:]:
    print(f, *count(f))
