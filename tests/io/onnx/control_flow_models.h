// Test helper: small ONNX models with If, Loop and Scan, built in code (see
// onnx_test_models.h). Sizes are chosen so peaks are easy to compute by hand:
// every FLOAT[64] tensor is 256 bytes.
#pragma once

#include <string>

#include "tests/io/onnx/test_models.h"

namespace memplan::testing {

// Main graph: c: BOOL[], x: FLOAT[64] ->
//   a = If 'if1' (c) {then: a = If 'if2' (c) {then: t = Relu(x)  else: e = Neg(x)}
//                     else: s = Sigmoid(x)}
//   b = If 'if3' (c) {then: p = Add(a, x)  else: q = Mul(a, x)}
//   z = Add(a, b)                                       -> output z
// Nested Ifs; `a` stays live across the second conditional.
inline std::string NestedIfsModel(const std::string& file) {
  using onnx::TensorProto;
  OnnxModelBuilder b;
  b.Input("c", TensorProto::BOOL, {}).Input("x", TensorProto::FLOAT, {64}).Output("z");
  OnnxSubgraphBuilder inner_then("if2_then"), inner_else("if2_else");
  inner_then.Node("Relu", {"x"}, {"t"}, "relu");
  inner_then.Output("t");
  inner_else.Node("Neg", {"x"}, {"e"}, "neg");
  inner_else.Output("e");
  OnnxSubgraphBuilder then1("if1_then"), else1("if1_else");
  onnx::NodeProto& if2 = then1.Node("If", {"c"}, {"a2"}, "if2");
  AddGraphAttr(if2, "then_branch", inner_then.graph());
  AddGraphAttr(if2, "else_branch", inner_else.graph());
  then1.Output("a2");
  else1.Node("Sigmoid", {"x"}, {"s"}, "sigmoid");
  else1.Output("s");
  onnx::NodeProto& if1 = b.Node("If", {"c"}, {"a"}, "if1");
  AddGraphAttr(if1, "then_branch", then1.graph());
  AddGraphAttr(if1, "else_branch", else1.graph());
  OnnxSubgraphBuilder then3("if3_then"), else3("if3_else");
  then3.Node("Add", {"a", "x"}, {"p"}, "add");
  then3.Output("p");
  else3.Node("Mul", {"a", "x"}, {"q"}, "mul");
  else3.Output("q");
  onnx::NodeProto& if3 = b.Node("If", {"c"}, {"b"}, "if3");
  AddGraphAttr(if3, "then_branch", then3.graph());
  AddGraphAttr(if3, "else_branch", else3.graph());
  b.Node("Add", {"a", "b"}, {"z"}, "sum");
  return b.Write(file);
}

// c: BOOL[], x: FLOAT[1,64], weights w0..w3: FLOAT[64,64] (16 KiB each) ->
//   g = Relu(MatMul(x, w0) 'mm0') 'relu'
//   y = If 'if1' (c) {then: a = Relu(MatMul(g, w1) 'mm1') 'then_relu'
//                     else: s = Sigmoid(MatMul(g, w2) 'mm2') 'else_sigmoid'}
//   z = Add(MatMul(y, w3) 'mm3', g) 'sum'                -> output z
// A layer chosen by a predicate: g is read in both branches and after the
// If; each branch reads its own weight.
inline std::string IfLayerModel(const std::string& file) {
  using onnx::TensorProto;
  OnnxModelBuilder b;
  b.Input("c", TensorProto::BOOL, {}).Input("x", TensorProto::FLOAT, {1, 64}).Output("z");
  for (const char* w : {"w0", "w1", "w2", "w3"}) b.Weight(w, {64, 64});
  b.Node("MatMul", {"x", "w0"}, {"h"}, "mm0");
  b.Node("Relu", {"h"}, {"g"}, "relu");
  OnnxSubgraphBuilder then1("if1_then"), else1("if1_else");
  then1.Node("MatMul", {"g", "w1"}, {"ta"}, "mm1");
  then1.Node("Relu", {"ta"}, {"a"}, "then_relu");
  then1.Output("a");
  else1.Node("MatMul", {"g", "w2"}, {"sa"}, "mm2");
  else1.Node("Sigmoid", {"sa"}, {"s"}, "else_sigmoid");
  else1.Output("s");
  onnx::NodeProto& if1 = b.Node("If", {"c"}, {"y"}, "if1");
  AddGraphAttr(if1, "then_branch", then1.graph());
  AddGraphAttr(if1, "else_branch", else1.graph());
  b.Node("MatMul", {"y", "w3"}, {"m"}, "mm3");
  b.Node("Add", {"m", "g"}, {"z"}, "sum");
  return b.Write(file);
}

// x: FLOAT[64] -> w = Relu(x) 'relu'
//   h = Loop 'loop1' (M = 4 initializer, cond = true initializer, h0 = Neg(x) 'neg')
//       body(i, cond_in, h_in) { h_out = Add(h_in, w) 'acc'; cond_out = Identity(cond_in) }
//   z = Sigmoid(h) 'out'                                        -> output z
// The body only reads the outer value w (a capture).
inline std::string LoopReadsOuterModel(const std::string& file) {
  using onnx::TensorProto;
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {64}).Output("z");
  b.Ints("trip", {4}, {});
  auto* yes = b.graph().add_initializer();
  yes->set_name("yes");
  yes->set_data_type(TensorProto::BOOL);
  yes->add_int32_data(1);
  b.Node("Relu", {"x"}, {"w"}, "relu");
  b.Node("Neg", {"x"}, {"h0"}, "neg");
  OnnxSubgraphBuilder body("body");
  body.Input("i", TensorProto::INT64, {})
      .Input("cond_in", TensorProto::BOOL, {})
      .Input("h_in", TensorProto::FLOAT, {64});
  body.Node("Identity", {"cond_in"}, {"cond_out"}, "keep_going");
  body.Node("Add", {"h_in", "w"}, {"h_out"}, "acc");
  body.Output("cond_out", TensorProto::BOOL).Output("h_out");
  onnx::NodeProto& loop = b.Node("Loop", {"trip", "yes", "h0"}, {"h"}, "loop1");
  AddGraphAttr(loop, "body", body.graph());
  b.Node("Sigmoid", {"h"}, {"z"}, "out");
  return b.Write(file);
}

// x: FLOAT[64] -> u = Relu(x) 'relu'; h0 = Neg(x) 'neg'
//   h = Loop 'loop1' (M = 3, cond omitted, h0)
//       body(i, cond_in, h_in) { t = Exp(h_in) 'exp'; h_out = Tanh(t) 'tanh' }
//   z = Add(h, u) 'sum'                                        -> output z
// u is live across the whole loop, next to the body's temporaries.
inline std::string LoopNextToOuterModel(const std::string& file) {
  using onnx::TensorProto;
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {64}).Output("z");
  b.Ints("trip", {3}, {});
  b.Node("Relu", {"x"}, {"u"}, "relu");
  b.Node("Neg", {"x"}, {"h0"}, "neg");
  OnnxSubgraphBuilder body("body");
  body.Input("i", TensorProto::INT64, {})
      .Input("cond_in", TensorProto::BOOL, {})
      .Input("h_in", TensorProto::FLOAT, {64});
  body.Node("Exp", {"h_in"}, {"t"}, "exp");
  body.Node("Tanh", {"t"}, {"h_out"}, "tanh");
  body.Output("cond_in", TensorProto::BOOL).Output("h_out");
  onnx::NodeProto& loop = b.Node("Loop", {"trip", "", "h0"}, {"h"}, "loop1");
  AddGraphAttr(loop, "body", body.graph());
  b.Node("Add", {"h", "u"}, {"z"}, "sum");
  return b.Write(file);
}

// c: BOOL[], x: FLOAT[64] ->
//   y = If 'if1' (c) {then: d = Neg(x) 'unused' (nothing reads it); r = Relu(x) 'relu'
//                     else: s = Sigmoid(x) 'sigmoid'}          -> output y
inline std::string UnusedInBranchModel(const std::string& file) {
  using onnx::TensorProto;
  OnnxModelBuilder b;
  b.Input("c", TensorProto::BOOL, {}).Input("x", TensorProto::FLOAT, {64}).Output("y");
  OnnxSubgraphBuilder then_b("then"), else_b("else");
  then_b.Node("Neg", {"x"}, {"d"}, "unused");
  then_b.Node("Relu", {"x"}, {"r"}, "relu");
  then_b.Output("r");
  else_b.Node("Sigmoid", {"x"}, {"s"}, "sigmoid");
  else_b.Output("s");
  onnx::NodeProto& node = b.Node("If", {"c"}, {"y"}, "if1");
  AddGraphAttr(node, "then_branch", then_b.graph());
  AddGraphAttr(node, "else_branch", else_b.graph());
  return b.Write(file);
}

// x: FLOAT[4,16], s0: FLOAT[16] ->
//   s, ys = Scan 'scan1' (s0, x) num_scan_inputs = 1
//       body(s_in, x_t) { s_out = Add(s_in, x_t) 'add'; y_t = Relu(s_out) 'relu' }
//   -> outputs s (FLOAT[16]), ys (FLOAT[4,16])
// A running sum: state s, scan input x (read row by row), scan output ys.
inline std::string ScanModel(const std::string& file) {
  using onnx::TensorProto;
  OnnxModelBuilder b(/*opset=*/13);
  b.Input("x", TensorProto::FLOAT, {4, 16}).Input("s0", TensorProto::FLOAT, {16});
  b.Output("s").Output("ys");
  OnnxSubgraphBuilder body("body");
  body.Input("s_in", TensorProto::FLOAT, {16}).Input("x_t", TensorProto::FLOAT, {16});
  body.Node("Add", {"s_in", "x_t"}, {"s_out"}, "add");
  body.Node("Relu", {"s_out"}, {"y_t"}, "relu");
  body.Output("s_out").Output("y_t");
  onnx::NodeProto& scan = b.Node("Scan", {"s0", "x"}, {"s", "ys"}, "scan1");
  AddIntAttr(scan, "num_scan_inputs", 1);
  AddGraphAttr(scan, "body", body.graph());
  return b.Write(file);
}

// c: BOOL[], x: FLOAT[64] -> w = Relu(x) 'relu'
//   h = Loop 'loop1' (M = 2, cond omitted, h0 = Neg(x) 'neg')
//       body(i, cond_in, h_in) { v = Exp(h_in) 'exp';
//                                 h_out = If 'if1' (c) {then: p = Add(v, w) 'add'  else: q = Mul(v,
//                                 w) 'mul'} }
//   -> output h
// The If inside the body captures v (one level up) and w and c (two levels up).
inline std::string TwoLevelCaptureModel(const std::string& file) {
  using onnx::TensorProto;
  OnnxModelBuilder b;
  b.Input("c", TensorProto::BOOL, {}).Input("x", TensorProto::FLOAT, {64}).Output("h");
  b.Ints("trip", {2}, {});
  b.Node("Relu", {"x"}, {"w"}, "relu");
  b.Node("Neg", {"x"}, {"h0"}, "neg");
  OnnxSubgraphBuilder then_b("then"), else_b("else");
  then_b.Node("Add", {"v", "w"}, {"p"}, "add");
  then_b.Output("p");
  else_b.Node("Mul", {"v", "w"}, {"q"}, "mul");
  else_b.Output("q");
  OnnxSubgraphBuilder body("body");
  body.Input("i", TensorProto::INT64, {})
      .Input("cond_in", TensorProto::BOOL, {})
      .Input("h_in", TensorProto::FLOAT, {64});
  body.Node("Exp", {"h_in"}, {"v"}, "exp");
  onnx::NodeProto& branch = body.Node("If", {"c"}, {"h_out"}, "if1");
  AddGraphAttr(branch, "then_branch", then_b.graph());
  AddGraphAttr(branch, "else_branch", else_b.graph());
  body.Output("cond_in", TensorProto::BOOL).Output("h_out");
  onnx::NodeProto& loop = b.Node("Loop", {"trip", "", "h0"}, {"h"}, "loop1");
  AddGraphAttr(loop, "body", body.graph());
  return b.Write(file);
}

// n: INT64[] (a run-time trip count), x: FLOAT[64] ->
//   h, ys = Loop 'loop1' (n, cond omitted, x) body(i, cond_in, h_in) { h_out = Relu(h_in) 'relu' }
//   with scan output h_out -> refused: ys's length is only known at run time.
inline std::string DynamicScanLoopModel(const std::string& file) {
  using onnx::TensorProto;
  OnnxModelBuilder b;
  b.Input("n", TensorProto::INT64, {}).Input("x", TensorProto::FLOAT, {64});
  b.Output("h").Output("ys");
  OnnxSubgraphBuilder body("body");
  body.Input("i", TensorProto::INT64, {})
      .Input("cond_in", TensorProto::BOOL, {})
      .Input("h_in", TensorProto::FLOAT, {64});
  body.Node("Relu", {"h_in"}, {"h_out"}, "relu");
  body.Node("Identity", {"h_out"}, {"y"}, "row");
  body.Output("cond_in", TensorProto::BOOL).Output("h_out").Output("y");
  onnx::NodeProto& loop = b.Node("Loop", {"n", "", "x"}, {"h", "ys"}, "loop1");
  AddGraphAttr(loop, "body", body.graph());
  return b.Write(file);
}

}  // namespace memplan::testing
