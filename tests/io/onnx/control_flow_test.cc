// ONNX If, Loop and Scan lowered to conditional and while (io/onnx/control_flow.cc):
// the program structure, scoped names, captures, trip counts and refusals.
// Plans and peaks of the same models: tests/cli/onnx_control_flow_cli_test.cc.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "io/onnx/importer.h"
#include "tests/io/onnx/control_flow_models.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using namespace memplan::testing;  // NOLINT
using onnx::TensorProto;

Program ImportModel(const std::string& path) {
  absl::StatusOr<Program> program = ImportOnnx(path, {});
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : Program{};
}

const Computation& Comp(const Program& p, const std::string& name) {
  for (const Computation& c : p.computations) {
    if (c.name == name) return c;
  }
  ADD_FAILURE() << "no computation @" << name;
  static const Computation none;
  return none;
}

// The op of `computation` with opcode `opcode` (the first one).
const Op& OpOf(const Program& p, const std::string& computation, const std::string& opcode) {
  for (OpId id : Comp(p, computation).ops) {
    if (p.ops[id].opcode == opcode) return p.ops[id];
  }
  ADD_FAILURE() << "no " << opcode << " in @" << computation;
  static const Op none;
  return none;
}

std::vector<std::string> Names(const Program& p, const std::vector<ValueId>& values) {
  std::vector<std::string> names;
  for (ValueId v : values) names.push_back(p.values[v].name);
  return names;
}

std::vector<std::string> CalleeNames(const Program& p, const Op& op) {
  std::vector<std::string> names;
  for (ComputationId c : op.callees) names.push_back(p.computations[c].name);
  return names;
}

TEST(OnnxControlFlowTest, NestedIfsCaptureThroughEachLevel) {
  const Program p = ImportModel(NestedIfsModel("nested_ifs.onnx"));
  const Op& if1 = OpOf(p, "g", "conditional");
  // Predicate c, then the captures of both branches: c (read by the nested
  // If in the then branch) and x.
  EXPECT_THAT(Names(p, if1.operands), ElementsAre("c", "c", "x"));
  EXPECT_THAT(Names(p, if1.results), ElementsAre("a"));
  EXPECT_THAT(CalleeNames(p, if1), ElementsAre("if1/then", "if1/else"));
  EXPECT_THAT(Names(p, Comp(p, "if1/then").params), ElementsAre("if1/then/c", "if1/then/x"));
  const Op& if2 = OpOf(p, "if1/then", "conditional");
  EXPECT_THAT(Names(p, if2.operands), ElementsAre("if1/then/c", "if1/then/x"));
  EXPECT_THAT(CalleeNames(p, if2), ElementsAre("if1/then/if2/then", "if1/then/if2/else"));
  EXPECT_THAT(Names(p, Comp(p, "if1/then/if2/else").results), ElementsAre("if1/then/if2/else/e"));
  // The second If reads a (computed by the first) and x.
  const Op& if3 = p.ops[Comp(p, "g").ops[1]];
  EXPECT_EQ(if3.opcode, "conditional");
  EXPECT_THAT(Names(p, if3.operands), ElementsAre("c", "a", "x"));
}

TEST(OnnxControlFlowTest, LoopWithConstantTripCountAndCapture) {
  const Program p = ImportModel(LoopReadsOuterModel("loop_reads.onnx"));
  const Op& loop = OpOf(p, "g", "while");
  EXPECT_EQ(loop.trip_count, 4);
  EXPECT_THAT(CalleeNames(p, loop), ElementsAre("loop1/cond", "loop1/body"));
  // Counter, condition (a copy: the initializer `yes` is read-only), h0
  // (taken over: the loop is its last reader), M, the capture w.
  EXPECT_THAT(Names(p, loop.operands),
              ElementsAre("loop1/i.init", "loop1/cond_in.init", "h0", "trip", "w"));
  EXPECT_THAT(Names(p, loop.results), ElementsAre("loop1/i.final", "loop1/cond_in.final", "h",
                                                  "loop1/trip.final", "loop1/w.final"));
  EXPECT_EQ(OpOf(p, "g", "copy").operands, std::vector<ValueId>{p.FindValue("yes")});
  // The body returns M and the capture unchanged (pass-through).
  EXPECT_THAT(
      Names(p, Comp(p, "loop1/body").results),
      ElementsAre("loop1/i.next", "loop1/cond_out", "loop1/h_out", "loop1/trip", "loop1/w"));
  EXPECT_THAT(Names(p, OpOf(p, "loop1/cond", "compare").operands),
              ElementsAre("loop1/cond/i", "loop1/cond/cond_in", "loop1/cond/trip"));
}

TEST(OnnxControlFlowTest, RunTimeTripCountAndAnInitialValueReadLater) {
  // h = Loop(n, -, h0) { h_out = Relu(h_in) }; z = Add(h, h0): h0 is read after
  // the loop, which overwrites its loop-carried value, so the loop gets a copy.
  OnnxModelBuilder b;
  b.Input("n", TensorProto::INT64, {}).Input("x", TensorProto::FLOAT, {64}).Output("z");
  b.Node("Neg", {"x"}, {"h0"}, "neg");
  OnnxSubgraphBuilder body("body");
  body.Input("i", TensorProto::INT64, {})
      .Input("cond_in", TensorProto::BOOL, {})
      .Input("h_in", TensorProto::FLOAT, {64});
  body.Node("Relu", {"h_in"}, {"h_out"}, "relu");
  body.Output("cond_in", TensorProto::BOOL).Output("h_out");
  onnx::NodeProto& loop = b.Node("Loop", {"n", "", "h0"}, {"h"}, "loop1");
  AddGraphAttr(loop, "body", body.graph());
  b.Node("Add", {"h", "h0"}, {"z"}, "sum");
  const Program p = ImportModel(b.Write("loop_runtime_m.onnx"));
  const Op& op = OpOf(p, "g", "while");
  EXPECT_EQ(op.trip_count, std::nullopt);
  EXPECT_THAT(Names(p, op.operands),
              ElementsAre("loop1/i.init", "loop1/cond_in.init", "loop1/h_in.init", "n"));
  EXPECT_EQ(OpOf(p, "g", "copy").operands, std::vector<ValueId>{p.FindValue("h0")});
  // Without a condition input the loop starts from a fresh `true`.
  EXPECT_EQ(OpOf(p, "g", "broadcast").results,
            std::vector<ValueId>{p.FindValue("loop1/cond_in.init")});
}

TEST(OnnxControlFlowTest, TripCountFoldedFromShapes) {
  // M = Gather(Shape(x), 0) = 5 for x: FLOAT[5, 64]; ys stacks 5 rows.
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {5, 64}).Output("ys");
  b.Node("Shape", {"x"}, {"shape"}, "shape");
  AddIntConstant(b, "zero", {0}, {});
  b.Node("Gather", {"shape", "zero"}, {"m"}, "len");
  OnnxSubgraphBuilder body("body");
  body.Input("i", TensorProto::INT64, {}).Input("cond_in", TensorProto::BOOL, {});
  body.Node("Gather", {"x", "i"}, {"row"}, "row");
  body.Node("Relu", {"row"}, {"y"}, "relu");
  body.Output("cond_in", TensorProto::BOOL).Output("y");
  onnx::NodeProto& loop = b.Node("Loop", {"m", ""}, {"ys"}, "loop1");
  AddGraphAttr(loop, "body", body.graph());
  const Program p = ImportModel(b.Write("loop_shape_m.onnx"));
  EXPECT_EQ(OpOf(p, "g", "while").trip_count, 5);
  EXPECT_EQ(p.values[p.FindValue("ys")].size, 5 * 64 * 4);
  EXPECT_EQ(p.values[p.FindValue("ys")].type->dims, (std::vector<std::int64_t>{5, 64}));
}

TEST(OnnxControlFlowTest, ScanReadsRowsAsViewsAndAccumulatesInPlace) {
  const Program p = ImportModel(ScanModel("scan.onnx"));
  const Op& scan = OpOf(p, "g", "while");
  EXPECT_EQ(scan.trip_count, 4);
  EXPECT_THAT(Names(p, scan.operands),
              ElementsAre("scan1/iter.init", "scan1/s_in.init", "scan1/ys.init", "x"));
  EXPECT_THAT(Names(p, scan.results),
              ElementsAre("scan1/iter.final", "s", "ys", "scan1/x.all.final"));
  const Value& row = p.values[p.FindValue("scan1/x_t")];
  EXPECT_EQ(row.alias, AliasKind::kView);
  EXPECT_EQ(p.values[row.alias_of].name, "scan1/x.all");
  EXPECT_EQ(row.size, 64);
  const Value& acc = p.values[p.FindValue("scan1/ys.next")];
  EXPECT_EQ(acc.alias, AliasKind::kTied);
  EXPECT_EQ(p.values[acc.alias_of].name, "scan1/ys");
  EXPECT_EQ(acc.size, 4 * 16 * 4);
  EXPECT_EQ(p.values[p.FindValue("ys")].type->dims, (std::vector<std::int64_t>{4, 16}));
}

TEST(OnnxControlFlowTest, CapturesAtTwoLevels) {
  const Program p = ImportModel(TwoLevelCaptureModel("two_level.onnx"));
  // c and w are read by the If inside the body: captured by the Loop first.
  EXPECT_THAT(Names(p, OpOf(p, "g", "while").operands),
              ElementsAre("loop1/i.init", "loop1/cond_in.init", "h0", "trip", "c", "w"));
  EXPECT_THAT(Names(p, OpOf(p, "loop1/body", "conditional").operands),
              ElementsAre("loop1/c", "loop1/v", "loop1/w"));
  EXPECT_THAT(Names(p, Comp(p, "loop1/if1/else").params),
              ElementsAre("loop1/if1/else/v", "loop1/if1/else/w"));
}

TEST(OnnxControlFlowTest, BranchResultsThatAreNotFreshAreCopied) {
  // then returns the captured x itself, else returns a Constant.
  OnnxModelBuilder b;
  b.Input("c", TensorProto::BOOL, {})
      .Input("x", TensorProto::INT64, {2})
      .Output("y", TensorProto::INT64);
  OnnxSubgraphBuilder then_b("then"), else_b("else");
  then_b.Output("x", TensorProto::INT64);
  onnx::NodeProto& k = else_b.Node("Constant", {}, {"k"}, "k");
  auto* attr = k.add_attribute();
  attr->set_name("value");
  attr->set_type(onnx::AttributeProto::TENSOR);
  attr->mutable_t()->set_data_type(TensorProto::INT64);
  attr->mutable_t()->add_dims(2);
  attr->mutable_t()->add_int64_data(1);
  attr->mutable_t()->add_int64_data(2);
  else_b.Output("k", TensorProto::INT64);
  onnx::NodeProto& node = b.Node("If", {"c"}, {"y"}, "pick");
  AddGraphAttr(node, "then_branch", then_b.graph());
  AddGraphAttr(node, "else_branch", else_b.graph());
  const Program p = ImportModel(b.Write("if_copies.onnx"));
  EXPECT_THAT(Names(p, Comp(p, "pick/then").results), ElementsAre("pick/then/x.out"));
  EXPECT_THAT(Names(p, Comp(p, "pick/else").results), ElementsAre("pick/else/k.out"));
  EXPECT_EQ(OpOf(p, "pick/else", "copy").operands,
            std::vector<ValueId>{p.FindValue("pick/else/k")});
}

TEST(OnnxControlFlowTest, Refusals) {
  std::string path = DynamicScanLoopModel("dynamic.onnx");
  EXPECT_EQ(ErrorOf(path),
            path +
                ": error: node 'loop1' (Loop): scan output 'ys' grows by one element per "
                "iteration, but the trip count M 'n' is not a constant; the length of a scan "
                "output is then only known at run time (memplan plans static sizes: give M "
                "as an initializer or a constant, or return the values as loop-carried "
                "tensors)");

  OnnxModelBuilder sizes;
  sizes.Input("c", TensorProto::BOOL, {})
      .Input("x", TensorProto::FLOAT, {64})
      .Input("x2", TensorProto::FLOAT, {32})
      .Output("y");
  OnnxSubgraphBuilder then_b("then"), else_b("else");
  then_b.Node("Relu", {"x"}, {"r"}, "relu");
  then_b.Output("r");
  else_b.Node("Relu", {"x2"}, {"s"}, "relu2");
  else_b.Output("s");
  onnx::NodeProto& node = sizes.Node("If", {"c"}, {"y"}, "if1");
  AddGraphAttr(node, "then_branch", then_b.graph());
  AddGraphAttr(node, "else_branch", else_b.graph());
  path = sizes.Write("if_sizes.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node 'if1' (If): output 0 is 256 bytes in the then branch "
                               "('r') but 128 bytes in the else branch ('s'); branches whose "
                               "results differ in size are not supported");

  // An error inside a subgraph names where it is.
  OnnxModelBuilder inner;
  inner.Input("c", TensorProto::BOOL, {}).Input("x", TensorProto::FLOAT, {4}).Output("y");
  OnnxSubgraphBuilder good("then"), bad("else");
  good.Node("Relu", {"x"}, {"r"}, "relu");
  good.Output("r");
  bad.Node("Relu", {"nowhere"}, {"s"}, "lost");
  bad.Output("s");
  onnx::NodeProto& branch = inner.Node("If", {"c"}, {"y"}, "if1");
  AddGraphAttr(branch, "then_branch", good.graph());
  AddGraphAttr(branch, "else_branch", bad.graph());
  path = inner.Write("if_undefined.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node 'lost' (Relu) in the else_branch of node 'if1' "
                               "(If): reads tensor 'nowhere', which no graph input, initializer "
                               "or earlier node defines");
}

TEST(OnnxControlFlowTest, BundledRnnLoop) {
  const Program p = ImportModel(MEMPLAN_SOURCE_DIR "/examples/rnn_loop.onnx");
  const Op& loop = OpOf(p, "torch_jit", "while");
  // M = x.size(0) = 16, exported as a Constant.
  EXPECT_EQ(loop.trip_count, 16);
  EXPECT_THAT(CalleeNames(p, loop), ElementsAre("/Loop/cond", "/Loop/body"));
  // Slices whose bounds come from Shape arithmetic in the body are sized
  // (folded inside the subgraph): a third of the [4, 192] gate output.
  EXPECT_EQ(p.values[p.FindValue("/Loop//cell/Slice_output_0")].size, 4 * 64 * 4);
}

}  // namespace
}  // namespace memplan
