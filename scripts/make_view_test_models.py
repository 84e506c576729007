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
def ints(name, values):
    return helper.make_tensor(name, T.INT64, [len(values)], values)
def save_with(nodes, inputs, outputs, inits, name):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="memplan-tests")
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, name + ".onnx"))
# Outer-axis slice of a live input: e [1,1024] -> y = e[:, -768:768] = [1,512]
# at byte 1024; e is read again after y's last reader: y is a view of e.
save_with([helper.make_node("Exp", ["x"], ["e"]),
           helper.make_node("Slice", ["e", "starts", "ends", "axes"], ["y"]),
           helper.make_node("ReduceSum", ["y"], ["r"], keepdims=1),
           helper.make_node("Add", ["e", "r"], ["o"])],
          [vi("x", T.FLOAT, [1, 1024])], [vi("o", T.FLOAT, [1, 1024])],
          [ints("starts", [-768]), ints("ends", [768]), ints("axes", [1])], "slice_outer")
# Outer-axis slice of an input that dies at the slice: e [1,1024] -> y =
# e[:, 0:256]; a view would keep all of e alive while g = Neg(x) is live:
# it does not pay, y stays a copy.
save_with([helper.make_node("Exp", ["x"], ["e"]),
           helper.make_node("Slice", ["e", "starts", "ends", "axes"], ["y"]),
           helper.make_node("Neg", ["x"], ["g"]),
           helper.make_node("ReduceSum", ["g"], ["s"], keepdims=1),
           helper.make_node("ReduceSum", ["y"], ["r"], keepdims=1),
           helper.make_node("Add", ["s", "r"], ["o"])],
          [vi("x", T.FLOAT, [1, 1024])], [vi("o", T.FLOAT, [1, 1])],
          [ints("starts", [0]), ints("ends", [256]), ints("axes", [1])], "slice_dead_input")
