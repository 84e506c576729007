// Concat and Split views of the ONNX importer (io/onnx/alias.h) and the
// constant-only ops that leave the schedule (io/onnx/hoist_constants.h).
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/onnx/importer.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

using ::memplan::testing::AddIntAttr;
using ::memplan::testing::ImportOk;
using ::memplan::testing::OnnxModelBuilder;
using ::memplan::testing::ValueNamed;
using onnx::TensorProto;

const std::string kData = MEMPLAN_SOURCE_DIR "/tests/data/onnx/";

std::vector<std::string> EntryOpcodes(const Program& p) {
  std::vector<std::string> out;
  for (OpId o : p.computations[p.entry].ops) out.push_back(p.ops[o].opcode);
  return out;
}

std::vector<std::string> EntryParams(const Program& p) {
  std::vector<std::string> out;
  for (ValueId v : p.computations[p.entry].params) out.push_back(p.values[v].name);
  return out;
}

TEST(OnnxViewsTest, OuterConcatGathersItsDeadInputs) {
  const Program p = ImportOk(kData + "concat_outer.onnx");
  const Value& c = ValueNamed(p, "c");
  EXPECT_EQ(c.alias, AliasKind::kNone);
  EXPECT_EQ(c.gathers, (std::vector<GatheredOperand>{{p.FindValue("a"), 0}, {p.FindValue("b"), 4096}}));
  EXPECT_EQ(p.ops[c.defining_op].cost.bytes_accessed, 0);
  // --no-alias: a plain copy reading 8 KiB and writing 8 KiB.
  const Program copy = ImportOk(kData + "concat_outer.onnx", false);
  EXPECT_TRUE(ValueNamed(copy, "c").gathers.empty());
  EXPECT_EQ(copy.ops[ValueNamed(copy, "c").defining_op].cost.bytes_accessed, 16384);
}

TEST(OnnxViewsTest, InnerConcatStaysACopy) {
  const Program p = ImportOk(kData + "concat_inner.onnx");
  EXPECT_TRUE(ValueNamed(p, "c").gathers.empty());
  // Reads 8 KiB, writes 8 KiB.
  EXPECT_EQ(p.ops[ValueNamed(p, "c").defining_op].cost.bytes_accessed, 16384);
}

TEST(OnnxViewsTest, OuterSplitPiecesAreViews) {
  const Program p = ImportOk(kData + "split_outer.onnx");
  EXPECT_EQ(ValueNamed(p, "s1").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(p, "s1").alias_of, p.FindValue("e"));
  EXPECT_EQ(ValueNamed(p, "s1").view_offset, 0);
  EXPECT_EQ(ValueNamed(p, "s2").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(p, "s2").view_offset, 4096);
  EXPECT_EQ(p.ops[ValueNamed(p, "s1").defining_op].cost.bytes_accessed, 0);
  // t1 = Neg(s1) runs while s2 (same buffer) is still to be read; t2 = Neg(s2)
  // is the set's last use and writes in place.
  EXPECT_EQ(ValueNamed(p, "t1").alias, AliasKind::kNone);
  EXPECT_EQ(ValueNamed(p, "t2").alias, AliasKind::kTied);
  const Program copy = ImportOk(kData + "split_outer.onnx", false);
  EXPECT_EQ(ValueNamed(copy, "s2").alias, AliasKind::kNone);
}

// x[1,2,4] -> a = Exp(x), b = Neg(x); concat(a, a), a concat whose input is
// read afterwards, a concat of a graph input, and a concat of a split piece
// (inside a larger set) all stay copies; an outer concat of concats nests.
TEST(OnnxViewsTest, ConcatViewsNeedDistinctDeadInputsOfTheirOwn) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 2, 4}).Output("o1").Output("o2").Output("o3").Output("o4");
  b.Node("Exp", {"x"}, {"a"});
  AddIntAttr(b.Node("Concat", {"a", "a"}, {"twice"}), "axis", 1);        // same input twice
  b.Node("Neg", {"twice"}, {"o1"});
  b.Node("Neg", {"x"}, {"n"});
  AddIntAttr(b.Node("Concat", {"n", "x"}, {"with_input"}), "axis", 1);   // a graph input
  b.Node("Neg", {"with_input"}, {"o2"});
  b.Node("Sin", {"x"}, {"s"});
  b.Node("Cos", {"x"}, {"k"});
  AddIntAttr(b.Node("Concat", {"s", "k"}, {"live"}), "axis", 1);         // s is read again below
  b.Node("Add", {"live", "live"}, {"o3"});
  b.Node("Tanh", {"s"}, {"ts"});
  b.Node("Exp", {"x"}, {"e"});
  b.Node("Neg", {"x"}, {"f"});
  AddIntAttr(b.Node("Concat", {"e", "f"}, {"ef"}), "axis", 1);           // [1,4,4]
  b.Node("Erf", {"x"}, {"g"});
  b.Node("Exp", {"g"}, {"g2"});
  b.Node("Relu", {"x"}, {"h"});
  b.Node("Exp", {"h"}, {"h2"});
  AddIntAttr(b.Node("Concat", {"g2", "h2"}, {"gh"}), "axis", 1);        // [1,4,4]
  AddIntAttr(b.Node("Concat", {"ef", "gh"}, {"outer"}), "axis", 1);     // [1,8,4]: nested
  b.Node("Add", {"outer", "outer"}, {"o4"});
  const Program p = ImportOk(b.Write("concat_rules.onnx"));
  EXPECT_TRUE(ValueNamed(p, "twice").gathers.empty());
  EXPECT_TRUE(ValueNamed(p, "with_input").gathers.empty());
  EXPECT_TRUE(ValueNamed(p, "live").gathers.empty());
  EXPECT_EQ(ValueNamed(p, "ef").gathers,
            (std::vector<GatheredOperand>{{p.FindValue("e"), 0}, {p.FindValue("f"), 32}}));
  EXPECT_EQ(ValueNamed(p, "outer").gathers,
            (std::vector<GatheredOperand>{{p.FindValue("ef"), 0}, {p.FindValue("gh"), 64}}));
}

// Graph outputs written in place: the caller's buffer holds the whole alias
// set of a dead transient (a tie, a view, a concat gather), once per set.
// x[1,2,64] (512 B); every op below is on 512-byte tensors unless noted.
TEST(OnnxViewsTest, GraphOutputsAreWrittenInPlace) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 2, 64}).Weight("w", {64, 64}).Weight("bias", {64});
  b.Ints("flat", {1, 128});
  b.Output("logits_out").Output("flat_out").Output("cat_out").Output("twin1").Output("twin2");
  b.Output("kept");
  b.Node("MatMul", {"x", "w"}, {"logits"});
  b.Node("Add", {"logits", "bias"}, {"logits_out"});     // tied: logits lives in the output
  b.Node("Relu", {"x"}, {"r"});
  b.Node("Reshape", {"r", "flat"}, {"flat_out"});        // a view: r lives in the output
  b.Node("Exp", {"x"}, {"a"});
  b.Node("Neg", {"x"}, {"n"});
  AddIntAttr(b.Node("Concat", {"a", "n"}, {"cat_out"}), "axis", 1);  // [1,4,64], gathered
  b.Node("Sin", {"x"}, {"s"});
  b.Node("Reshape", {"s", "flat"}, {"twin1"});           // s lives in twin1 ...
  b.Node("Reshape", {"s", "flat"}, {"twin2"});           // ... so twin2 stays a copy
  b.Node("Cos", {"x"}, {"c"});
  b.Node("Tanh", {"c"}, {"kept"});                       // c read below: kept is no tie
  b.Node("Exp", {"c"}, {"c2"});
  b.Output("c2_out");
  b.Node("Neg", {"c2"}, {"c2_out"});
  const std::string path = b.Write("outputs_in_place.onnx");
  const Program p = ImportOk(path);
  EXPECT_EQ(ValueNamed(p, "logits_out").alias, AliasKind::kTied);
  EXPECT_EQ(ValueNamed(p, "logits_out").alias_of, p.FindValue("logits"));
  EXPECT_EQ(ValueNamed(p, "flat_out").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(p, "flat_out").alias_of, p.FindValue("r"));
  EXPECT_EQ(ValueNamed(p, "cat_out").gathers,
            (std::vector<GatheredOperand>{{p.FindValue("a"), 0}, {p.FindValue("n"), 512}}));
  EXPECT_EQ(ValueNamed(p, "twin1").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(p, "twin2").alias, AliasKind::kNone);
  EXPECT_EQ(ValueNamed(p, "kept").alias, AliasKind::kNone);
  EXPECT_EQ(ValueNamed(p, "c2_out").alias, AliasKind::kTied);
  // Every output keeps the external lifetime; --no-alias writes none in place.
  for (const char* name : {"logits_out", "flat_out", "cat_out", "twin1", "twin2", "kept"}) {
    EXPECT_EQ(ValueNamed(p, name).lifetime, Lifetime::kExternal) << name;
  }
  const Program copy = ImportOk(path, false);
  for (const char* name : {"logits_out", "flat_out", "twin1", "c2_out"}) {
    EXPECT_EQ(ValueNamed(copy, name).alias, AliasKind::kNone) << name;
  }
  EXPECT_TRUE(ValueNamed(copy, "cat_out").gathers.empty());
}

// W[4,3] -> Transpose -> Wt; V[3,4] -> Reshape -> Vr (a view);
// Shape(x) -> Reshape's shape; Constant node -> Add. Only the MatMul, the Add
// and the Reshape of x stay in the schedule.
TEST(OnnxViewsTest, ConstantOnlyOpsLeaveTheSchedule) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 3}).Weight("W", {4, 3}).Weight("V", {3, 4});
  b.Ints("shape34", {3, 4}).Output("y");
  b.Node("Transpose", {"W"}, {"Wt"});          // [3,4], 48 bytes: a new constant
  b.Node("Reshape", {"V", "shape34"}, {"Vr"});  // same bytes as V
  b.Node("Add", {"Wt", "Vr"}, {"WV"});          // constant arithmetic
  b.Node("MatMul", {"x", "WV"}, {"m"});         // [1,4]
  b.Node("Shape", {"m"}, {"ms"});
  b.Node("Reshape", {"m", "ms"}, {"y"});
  const std::string path = b.Write("hoist.onnx");
  const Program p = ImportOk(path);
  EXPECT_EQ(EntryOpcodes(p), (std::vector<std::string>{"onnx.MatMul", "onnx.Reshape"}));
  // The folded results are constant parameters (ms, from the shape folding,
  // first); W, V and shape34, read only by folded ops, are gone, and Vr is V
  // itself (folded away with it).
  EXPECT_EQ(EntryParams(p), (std::vector<std::string>{"x", "ms", "WV"}));
  EXPECT_EQ(ValueNamed(p, "WV").lifetime, Lifetime::kConstant);
  EXPECT_EQ(ValueNamed(p, "WV").defining_op, kNoId);
  EXPECT_EQ(ValueNamed(p, "ms").size, 16);
  EXPECT_EQ(p.FindValue("Wt"), kNoId);
  EXPECT_EQ(p.FindValue("Vr"), kNoId);

  // Without aliasing the reshaped weight is a constant of its own too, but
  // WV still replaces everything it was computed from.
  const Program copy = ImportOk(path, false);
  EXPECT_EQ(EntryOpcodes(copy), (std::vector<std::string>{"onnx.MatMul", "onnx.Reshape"}));
  EXPECT_EQ(EntryParams(copy), (std::vector<std::string>{"x", "ms", "WV"}));
}

// A weight read by a real op and by a folded op stays; so does one nobody reads.
TEST(OnnxViewsTest, WeightsStillReadStay) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {3, 3}).Weight("W", {3, 3}).Weight("unused", {2}).Output("y");
  b.Node("Transpose", {"W"}, {"Wt"});
  b.Node("MatMul", {"x", "W"}, {"xw"});
  b.Node("MatMul", {"xw", "Wt"}, {"y"});
  const Program p = ImportOk(b.Write("hoist_kept.onnx"));
  EXPECT_EQ(EntryOpcodes(p), (std::vector<std::string>{"onnx.MatMul", "onnx.MatMul"}));
  EXPECT_EQ(EntryParams(p), (std::vector<std::string>{"x", "W", "unused", "Wt"}));
}

// mobilenet_v3_small: the weights' constant-only ops (steps 0-44 before)
// leave the schedule, so the entry starts with its first convolution.
TEST(OnnxViewsTest, MobilenetV3StartsWithACompute) {
  const std::string model = MEMPLAN_SHARED_DIR "/data/onnx/torchvision/mobilenet_v3_small.onnx";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " is absent";
  const Program p = ImportOk(model);
  const std::vector<std::string> ops = EntryOpcodes(p);
  ASSERT_FALSE(ops.empty());
  EXPECT_EQ(ops.front(), "onnx.Conv");
  for (OpId o : p.computations[p.entry].ops) {
    for (ValueId r : p.ops[o].results) {
      EXPECT_NE(p.values[r].lifetime, Lifetime::kConstant) << p.values[r].name;
    }
  }
}

}  // namespace
}  // namespace memplan
