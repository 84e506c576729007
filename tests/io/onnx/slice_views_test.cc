// Slice views of the ONNX importer (io/onnx/alias.h, io/onnx/slice_view.h):
// the resolved `starts` the importer records, the byte offset of a contiguous
// window, and the rule for when the view pays.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/onnx/importer.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

using ::memplan::testing::AddIntsAttr;
using ::memplan::testing::ImportOk;
using ::memplan::testing::OnnxModelBuilder;
using ::memplan::testing::ValueNamed;
using onnx::TensorProto;

const std::string kSliceModels = MEMPLAN_SOURCE_DIR "/tests/data/onnx/";

// The `starts` attribute of `name`'s defining op, empty when absent.
std::vector<std::int64_t> StartsOf(const Program& p, std::string_view name) {
  const Value& v = ValueNamed(p, name);
  std::vector<std::int64_t> out;
  if (v.defining_op == kNoId) return out;
  for (const Attribute& a : p.ops[v.defining_op].attributes) {
    if (a.key != "starts") continue;
    for (const AttrValue& i : a.value.list) out.push_back(i.i);
  }
  return out;
}

// e = Exp(x[shape]); y = Slice(e, starts, ends, axes[, steps]); r =
// ReduceSum(y); o = Add(e, r): e is read after y's last reader, so a
// contiguous window pays.
std::string LiveInputSlice(const std::string& file, std::initializer_list<testing::Dim> shape,
                           std::vector<std::int64_t> starts, std::vector<std::int64_t> ends,
                           std::vector<std::int64_t> axes, std::vector<std::int64_t> steps = {}) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, shape).Output("o");
  b.Ints("starts", starts).Ints("ends", ends).Ints("axes", axes);
  std::vector<std::string> inputs = {"e", "starts", "ends", "axes"};
  if (!steps.empty()) {
    b.Ints("steps", steps);
    inputs.push_back("steps");
  }
  b.Node("Exp", {"x"}, {"e"});
  b.Node("Slice", inputs, {"y"});
  b.Node("ReduceSum", {"y"}, {"r"});
  b.Node("Add", {"e", "r"}, {"o"});
  return b.Write(file);
}

// slice_outer.onnx: e f32[1,1024], y = e[:, -768:768] = elements [256, 768).
TEST(OnnxSliceViewsTest, OuterSliceOfALiveInputIsAViewAtItsByteOffset) {
  const Program p = ImportOk(kSliceModels + "slice_outer.onnx");
  const Value& y = ValueNamed(p, "y");
  EXPECT_EQ(StartsOf(p, "y"), (std::vector<std::int64_t>{0, 256}));
  EXPECT_EQ(y.alias, AliasKind::kView);
  EXPECT_EQ(y.alias_of, p.FindValue("e"));
  EXPECT_EQ(y.view_offset, 1024);
  EXPECT_EQ(p.ops[y.defining_op].cost.bytes_accessed, 0);
  // --no-alias: a copy (its cost counts all operands read: 4 KiB + 24 B of
  // indices, and 2 KiB written); the starts are still recorded.
  const Program copy = ImportOk(kSliceModels + "slice_outer.onnx", false);
  EXPECT_EQ(ValueNamed(copy, "y").alias, AliasKind::kNone);
  EXPECT_EQ(copy.ops[ValueNamed(copy, "y").defining_op].cost.bytes_accessed, 6168);
  EXPECT_EQ(StartsOf(copy, "y"), (std::vector<std::int64_t>{0, 256}));
}

// Negative and clamped indices: [-3, INT64_MAX) of 8 rows is rows 5-7;
// [-100, 2) clamps to rows 0-1.
TEST(OnnxSliceViewsTest, NegativeAndClampedIndicesResolveBeforeTheOffset) {
  const std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const Program tail = ImportOk(LiveInputSlice("slice_tail.onnx", {1, 8, 4}, {-3}, {kMax}, {-2}));
  EXPECT_EQ(StartsOf(tail, "y"), (std::vector<std::int64_t>{0, 5, 0}));
  EXPECT_EQ(ValueNamed(tail, "y").size, 48);
  EXPECT_EQ(ValueNamed(tail, "y").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(tail, "y").view_offset, 80);  // 5 rows of 4 floats
  const Program head = ImportOk(LiveInputSlice("slice_head.onnx", {1, 8, 4}, {-100}, {2}, {1}));
  EXPECT_EQ(StartsOf(head, "y"), (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_EQ(ValueNamed(head, "y").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(head, "y").view_offset, 0);
}

// x[2,8,4][1:2, 2:5, :] takes one index of dim 0 and whole rows after dim
// 1: one run starting at element 1*32 + 2*4 = 40 (byte 160).
TEST(OnnxSliceViewsTest, OneIndexOfAnOuterDimThenARangeIsContiguous) {
  const Program p =
      ImportOk(LiveInputSlice("slice_nested.onnx", {2, 8, 4}, {1, 2}, {2, 5}, {0, 1}));
  EXPECT_EQ(StartsOf(p, "y"), (std::vector<std::int64_t>{1, 2, 0}));
  EXPECT_EQ(ValueNamed(p, "y").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(p, "y").view_offset, 160);
}

// Windows that are not one run stay copies: an inner axis (x[:, :, 1:3] is
// 8 runs of 2), an outer axis under a dim > 1 (x[0:2, 2:5] of [2,8,4] is 2
// runs), a step of 2 (no starts recorded).
TEST(OnnxSliceViewsTest, WindowsThatAreNotOneRunStayCopies) {
  const Program inner = ImportOk(LiveInputSlice("slice_inner.onnx", {1, 8, 4}, {1}, {3}, {2}));
  EXPECT_EQ(StartsOf(inner, "y"), (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_EQ(ValueNamed(inner, "y").alias, AliasKind::kNone);
  const Program under = ImportOk(LiveInputSlice("slice_under.onnx", {2, 8, 4}, {2}, {5}, {1}));
  EXPECT_EQ(ValueNamed(under, "y").alias, AliasKind::kNone);
  const Program strided =
      ImportOk(LiveInputSlice("slice_strided.onnx", {1, 8, 4}, {0}, {8}, {1}, {2}));
  EXPECT_TRUE(StartsOf(strided, "y").empty());
  EXPECT_EQ(ValueNamed(strided, "y").alias, AliasKind::kNone);
}

// slice_dead_input.onnx: e dies at the slice while y is read three steps
// later; the view would hold all 4 KiB of e there instead of y's 1 KiB.
TEST(OnnxSliceViewsTest, SliceOfADyingInputStaysACopy) {
  const Program p = ImportOk(kSliceModels + "slice_dead_input.onnx");
  EXPECT_EQ(StartsOf(p, "y"), (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(ValueNamed(p, "y").alias, AliasKind::kNone);
  // A copy: 4 KiB + 24 B read, 1 KiB written.
  EXPECT_EQ(p.ops[ValueNamed(p, "y").defining_op].cost.bytes_accessed, 5144);
}

// The view's readers count through its own views and in-place results: y
// = Slice(e), z = Reshape(y), w = Neg(z) read last by the final Add, after
// e's last read: the view would outlive e, so y is a copy. When e is read
// last instead, y becomes a view and z, w follow it.
TEST(OnnxSliceViewsTest, ReadersThroughViewsAndTiesDecide) {
  auto model = [](const std::string& file, bool e_last) {
    OnnxModelBuilder b;
    b.Input("x", TensorProto::FLOAT, {1, 8, 4}).Output("o");
    b.Ints("starts", {0}).Ints("ends", {4}).Ints("axes", {1}).Ints("shape", {16});
    b.Node("Exp", {"x"}, {"e"});
    b.Node("Slice", {"e", "starts", "ends", "axes"}, {"y"});
    b.Node("Reshape", {"y", "shape"}, {"z"});
    b.Node("Neg", {"z"}, {"w"});
    b.Node("ReduceSum", {e_last ? "w" : "e"}, {"r"});
    b.Node("Add", {e_last ? "e" : "w", "r"}, {"o"});
    return b.Write(file);
  };
  const Program late = ImportOk(model("slice_late_reader.onnx", false));
  EXPECT_EQ(ValueNamed(late, "y").alias, AliasKind::kNone);
  const Program early = ImportOk(model("slice_early_reader.onnx", true));
  EXPECT_EQ(ValueNamed(early, "y").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(early, "z").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(early, "w").alias, AliasKind::kNone);  // e is still to be read
}

// y = e[:, 0:1] of e[1,8,4], m = Mul(e, y) broadcasting y over e, e's last
// read: writing m into e in place would overwrite y's row while it is read
// for the other rows, so m gets its own storage.
TEST(OnnxSliceViewsTest, NoInPlaceWriteOverAWindowStillRead) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 8, 4}).Output("o");
  b.Ints("starts", {0}).Ints("ends", {1}).Ints("axes", {1});
  b.Node("Exp", {"x"}, {"e"});
  b.Node("Slice", {"e", "starts", "ends", "axes"}, {"y"});
  b.Node("Mul", {"e", "y"}, {"m"});
  b.Node("Neg", {"m"}, {"o"});
  const Program p = ImportOk(b.Write("slice_mul.onnx"));
  EXPECT_EQ(ValueNamed(p, "y").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(p, "m").alias, AliasKind::kNone);
}

// Opset 9 Slice takes starts, ends and axes as attributes (ends past the
// dim clamp).
TEST(OnnxSliceViewsTest, Opset9AttributesResolveToo) {
  OnnxModelBuilder b(9, 4);
  b.Input("x", TensorProto::FLOAT, {1, 8, 4}).Output("o");
  b.Node("Exp", {"x"}, {"e"});
  onnx::NodeProto& slice = b.Node("Slice", {"e"}, {"y"});
  AddIntsAttr(slice, "starts", {6});
  AddIntsAttr(slice, "ends", {100});
  AddIntsAttr(slice, "axes", {1});
  b.Node("ReduceSum", {"y"}, {"r"});
  b.Node("Add", {"e", "r"}, {"o"});
  const Program p = ImportOk(b.Write("slice_opset9.onnx"));
  EXPECT_EQ(StartsOf(p, "y"), (std::vector<std::int64_t>{0, 6, 0}));
  EXPECT_EQ(ValueNamed(p, "y").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(p, "y").view_offset, 96);
}

}  // namespace
}  // namespace memplan
