# Writes the tiny ONNX models of tests/data/onnx/ used by the view tests
# (tests/cli/views_cli_test.cc, tests/io/onnx/views_test.cc). Run with a
# Python that has the onnx package, e.g. /usr/bin/python3.
import os
import onnx
from onnx import helper, TensorProto as T
def save(nodes, inputs, outputs, name):
    g = helper.make_graph(nodes, name, inputs, outputs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="memplan-tests")
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, name + ".onnx"))
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "onnx")
vi = helper.make_tensor_value_info
# Outer-axis concat of two producers: a, b [1,1024] f32 -> c [1,2048] -> y.
save([helper.make_node("Exp", ["x"], ["a"]),
      helper.make_node("Neg", ["x"], ["b"]),
      helper.make_node("Concat", ["a", "b"], ["c"], axis=1),
      helper.make_node("Sigmoid", ["c"], ["y"])],
     [vi("x", T.FLOAT, [1, 1024])], [vi("y", T.FLOAT, [1, 2048])], "concat_outer")
# Inner-axis concat: a, b [2,512] -> c [2,1024] along axis 1: stays a copy.
save([helper.make_node("Exp", ["x"], ["a"]),
      helper.make_node("Neg", ["x"], ["b"]),
      helper.make_node("Concat", ["a", "b"], ["c"], axis=1),
      helper.make_node("Sigmoid", ["c"], ["y"])],
     [vi("x", T.FLOAT, [2, 512])], [vi("y", T.FLOAT, [2, 1024])], "concat_inner")
# Outer-axis split of a dead producer: e [1,2048] -> s1, s2 [1,1024].
save([helper.make_node("Exp", ["x"], ["e"]),
      helper.make_node("Split", ["e"], ["s1", "s2"], axis=1),
      helper.make_node("Neg", ["s1"], ["t1"]),
      helper.make_node("Neg", ["s2"], ["t2"]),
      helper.make_node("Add", ["t1", "t2"], ["y"])],
     [vi("x", T.FLOAT, [1, 2048])], [vi("y", T.FLOAT, [1, 1024])], "split_outer")
