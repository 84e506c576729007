#include "io/onnx/fold.h"

#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

using memplan::testing::AddIntAttr;
using memplan::testing::AddIntsAttr;

KnownTensor Vec(std::vector<std::int64_t> v) {
  KnownTensor t;
  t.dims = {static_cast<std::int64_t>(v.size())};
  t.values = std::move(v);
  return t;
}

KnownTensor Scalar(std::int64_t v) {
  KnownTensor t;
  t.values = {v};
  return t;
}

onnx::NodeProto Node(const std::string& op_type, int inputs) {
  onnx::NodeProto node;
  node.set_op_type(op_type);
  for (int i = 0; i < inputs; ++i) node.add_input("in" + std::to_string(i));
  node.add_output("out");
  return node;
}

std::optional<KnownTensor> Fold(const onnx::NodeProto& node, std::vector<const KnownTensor*> values,
                              int opset = 13) {
  std::vector<FoldInput> inputs;
  for (const KnownTensor* v : values) inputs.push_back(FoldInput{v, nullptr});
  return FoldNode(node, opset, inputs);
}

TEST(OnnxFoldTest, ShapeWithStartAndEnd) {
  const std::vector<std::int64_t> dims = {1, 3, 224, 224};
  const std::vector<FoldInput> in = {FoldInput{nullptr, &dims}};
  EXPECT_EQ(FoldNode(Node("Shape", 1), 13, in), Vec({1, 3, 224, 224}));
  onnx::NodeProto tail = Node("Shape", 1);
  AddIntAttr(tail, "start", -2);
  EXPECT_EQ(FoldNode(tail, 15, in), Vec({224, 224}));
  // Before opset 15 the attributes do not exist.
  EXPECT_EQ(FoldNode(tail, 13, in), Vec({1, 3, 224, 224}));
  EXPECT_EQ(FoldNode(Node("Size", 1), 13, in), Scalar(150528));
  const std::vector<FoldInput> unknown = {FoldInput{}};
  EXPECT_EQ(FoldNode(Node("Shape", 1), 13, unknown), std::nullopt);
}

TEST(OnnxFoldTest, GatherSliceConcat) {
  const KnownTensor shape = Vec({8, 128, 768});
  const KnownTensor last = Scalar(-1);
  EXPECT_EQ(Fold(Node("Gather", 2), {&shape, &last}), Scalar(768));
  const KnownTensor out_of_range = Scalar(3);
  EXPECT_EQ(Fold(Node("Gather", 2), {&shape, &out_of_range}), std::nullopt);

  const KnownTensor start = Vec({-1}), end = Vec({std::numeric_limits<std::int64_t>::min()}),
                  axis = Vec({0}), step = Vec({-1});
  // Reversal with a negative step and an end clamped to -1.
  EXPECT_EQ(Fold(Node("Slice", 5), {&shape, &start, &end, &axis, &step}), Vec({768, 128, 8}));
  const KnownTensor zero = Vec({0}), two = Vec({2});
  EXPECT_EQ(Fold(Node("Slice", 3), {&shape, &zero, &two}), Vec({8, 128}));
  onnx::NodeProto old_slice = Node("Slice", 1);  // opset < 10: bounds are attributes
  AddIntsAttr(old_slice, "starts", {1});
  AddIntsAttr(old_slice, "ends", {100});
  EXPECT_EQ(Fold(old_slice, {&shape}, 9), Vec({128, 768}));

  onnx::NodeProto concat = Node("Concat", 2);
  AddIntAttr(concat, "axis", 0);
  EXPECT_EQ(Fold(concat, {&shape, &two}), Vec({8, 128, 768, 2}));
}

TEST(OnnxFoldTest, UnsqueezeSqueeze) {
  const KnownTensor six = Scalar(6);
  const KnownTensor axes = Vec({0});
  KnownTensor expected = Vec({6});
  EXPECT_EQ(Fold(Node("Unsqueeze", 2), {&six, &axes}), expected);
  onnx::NodeProto old_unsqueeze = Node("Unsqueeze", 1);
  AddIntsAttr(old_unsqueeze, "axes", {0, -1});
  expected.dims = {1, 1};
  EXPECT_EQ(Fold(old_unsqueeze, {&six}, 11), expected);
  EXPECT_EQ(Fold(Node("Squeeze", 1), {&expected}), six);
}

TEST(OnnxFoldTest, Arithmetic) {
  const KnownTensor a = Vec({7, -7}), two = Scalar(2);
  EXPECT_EQ(Fold(Node("Div", 2), {&a, &two}), Vec({3, -3}));  // truncates toward zero
  EXPECT_EQ(Fold(Node("Mul", 2), {&two, &a}), Vec({14, -14}));
  EXPECT_EQ(Fold(Node("Sub", 2), {&a, &a}), Vec({0, 0}));
  const KnownTensor zero = Scalar(0);
  EXPECT_EQ(Fold(Node("Div", 2), {&a, &zero}), std::nullopt);
  const KnownTensor big = Scalar(std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(Fold(Node("Add", 2), {&big, &big}), std::nullopt);
  const KnownTensor three = Vec({1, 2, 3});
  EXPECT_EQ(Fold(Node("Add", 2), {&a, &three}), std::nullopt);  // [2] and [3] do not broadcast
}

TEST(OnnxFoldTest, CastAndConstants) {
  onnx::NodeProto cast = Node("Cast", 1);
  AddIntAttr(cast, "to", onnx::TensorProto::INT32);
  const KnownTensor v = Vec({5});
  std::optional<KnownTensor> cast32 = Fold(cast, {&v});
  ASSERT_TRUE(cast32.has_value());
  EXPECT_EQ(cast32->elem_type, onnx::TensorProto::INT32);
  EXPECT_EQ(cast32->values, (std::vector<std::int64_t>{5}));
  const KnownTensor huge = Vec({std::int64_t{1} << 40});
  EXPECT_EQ(Fold(cast, {&huge}), std::nullopt);

  onnx::NodeProto ints = Node("Constant", 0);
  AddIntsAttr(ints, "value_ints", {4, 5});
  EXPECT_EQ(Fold(ints, {}), Vec({4, 5}));
  EXPECT_EQ(KnownTensorFromProto(KnownTensorToProto(Vec({1, 2, 3}))), Vec({1, 2, 3}));

  onnx::TensorProto external = KnownTensorToProto(Vec({1}));
  external.set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(KnownTensorFromProto(external), std::nullopt);
  onnx::TensorProto strings;
  strings.set_data_type(onnx::TensorProto::STRING);
  strings.add_string_data("a");
  EXPECT_EQ(KnownTensorFromProto(strings), std::nullopt);
}

KnownTensor Shaped(std::vector<std::int64_t> dims, std::vector<std::int64_t> v,
                   std::int32_t elem_type = onnx::TensorProto::INT64) {
  KnownTensor t;
  t.elem_type = elem_type;
  t.dims = std::move(dims);
  t.values = std::move(v);
  return t;
}

KnownTensor Bools(std::vector<std::int64_t> v) {
  KnownTensor t = Vec(std::move(v));
  t.elem_type = onnx::TensorProto::BOOL;
  return t;
}

KnownTensor Floats(std::vector<std::int64_t> dims, std::vector<double> v) {
  KnownTensor t;
  t.elem_type = onnx::TensorProto::FLOAT;
  t.dims = std::move(dims);
  t.reals = std::move(v);
  return t;
}

// torch's expand(B, -1, -1) on a [1, 1, 32] tensor with B = 2: the target
// shape's -1 entries are replaced by 1 through ConstantOfShape -> Mul ->
// Equal -> Where before Expand.
TEST(OnnxFoldTest, TorchExpandChain) {
  const KnownTensor shape = Vec({2, -1, -1});
  const KnownTensor three = Vec({3});
  onnx::NodeProto fill = Node("ConstantOfShape", 1);
  auto* value = fill.add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto::TENSOR);
  *value->mutable_t() = KnownTensorToProto(Vec({1}));
  const std::optional<KnownTensor> ones = Fold(fill, {&three});
  ASSERT_EQ(ones, Vec({1, 1, 1}));
  const KnownTensor minus_one = Scalar(-1);
  const std::optional<KnownTensor> minus_ones = Fold(Node("Mul", 2), {&*ones, &minus_one});
  ASSERT_EQ(minus_ones, Vec({-1, -1, -1}));
  const std::optional<KnownTensor> is_free = Fold(Node("Equal", 2), {&shape, &*minus_ones});
  ASSERT_EQ(is_free, Bools({0, 1, 1}));
  const std::optional<KnownTensor> target = Fold(Node("Where", 3), {&*is_free, &*ones, &shape});
  ASSERT_EQ(target, Vec({2, 1, 1}));
  const KnownTensor cls = Floats({1, 1, 2}, {0.5, -0.25});
  EXPECT_EQ(Fold(Node("Expand", 2), {&cls, &*target}),
            Floats({2, 1, 2}, {0.5, -0.25, 0.5, -0.25}));
  // ConstantOfShape without a value attribute fills FLOAT zeros.
  const KnownTensor two_by_two = Vec({2, 2});
  EXPECT_EQ(Fold(Node("ConstantOfShape", 1), {&two_by_two}), Floats({2, 2}, {0, 0, 0, 0}));
}

TEST(OnnxFoldTest, ReshapeZeroAndMinusOne) {
  const KnownTensor x = Shaped({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const KnownTensor keep_then_rest = Vec({0, -1});
  EXPECT_EQ(Fold(Node("Reshape", 2), {&x, &keep_then_rest}),
            Shaped({2, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  const KnownTensor rest_then_two = Vec({-1, 2});
  EXPECT_EQ(Fold(Node("Reshape", 2), {&x, &rest_then_two})->dims,
            (std::vector<std::int64_t>{6, 2}));
  const KnownTensor two_free = Vec({-1, -1});
  EXPECT_EQ(Fold(Node("Reshape", 2), {&x, &two_free}), std::nullopt);
  const KnownTensor five = Vec({5, -1});
  EXPECT_EQ(Fold(Node("Reshape", 2), {&x, &five}), std::nullopt);  // 12 is not a multiple of 5
  // With allowzero a 0 is a real zero-sized dim: 12 elements cannot fit.
  onnx::NodeProto allowzero = Node("Reshape", 2);
  AddIntAttr(allowzero, "allowzero", 1);
  EXPECT_EQ(Fold(allowzero, {&x, &keep_then_rest}, 14), std::nullopt);
}

TEST(OnnxFoldTest, SliceOnEveryAxisWithNegativeIndices) {
  const KnownTensor x = Shaped({3, 4}, {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
  // Rows from the second to the last, columns 3, 1 (step -2 from -1).
  const KnownTensor starts = Vec({-2, -1}), ends = Vec({100, -5}), axes = Vec({0, -1}),
                    steps = Vec({1, -2});
  EXPECT_EQ(Fold(Node("Slice", 5), {&x, &starts, &ends, &axes, &steps}),
            Shaped({2, 2}, {13, 11, 23, 21}));
  // Axes left out: the bounds apply to axes 0, 1, ...
  const KnownTensor s0 = Vec({1}), e0 = Vec({2});
  EXPECT_EQ(Fold(Node("Slice", 3), {&x, &s0, &e0}), Shaped({1, 4}, {10, 11, 12, 13}));
  // An empty slice.
  const KnownTensor s1 = Vec({3}), e1 = Vec({1});
  EXPECT_EQ(Fold(Node("Slice", 3), {&x, &s1, &e1}), Shaped({0, 4}, {}));
  const KnownTensor zero_step = Vec({0});
  const KnownTensor ax0 = Vec({0});
  EXPECT_EQ(Fold(Node("Slice", 5), {&x, &s0, &e0, &ax0, &zero_step}), std::nullopt);
}

TEST(OnnxFoldTest, Range) {
  const KnownTensor zero = Scalar(0), seven = Scalar(7), three = Scalar(3), minus = Scalar(-2);
  EXPECT_EQ(Fold(Node("Range", 3), {&zero, &seven, &three}), Vec({0, 3, 6}));
  EXPECT_EQ(Fold(Node("Range", 3), {&seven, &zero, &minus}), Vec({7, 5, 3, 1}));
  EXPECT_EQ(Fold(Node("Range", 3), {&seven, &zero, &three}), Vec({}));
  const KnownTensor none = Scalar(0);
  EXPECT_EQ(Fold(Node("Range", 3), {&zero, &seven, &none}), std::nullopt);
  const KnownTensor f0 = Floats({}, {0.5}), f1 = Floats({}, {2.0}), fd = Floats({}, {0.5});
  EXPECT_EQ(Fold(Node("Range", 3), {&f0, &f1, &fd}), Floats({3}, {0.5, 1.0, 1.5}));
  const KnownTensor huge = Scalar(kMaxFoldElements + 1), one = Scalar(1);
  EXPECT_EQ(Fold(Node("Range", 3), {&zero, &huge, &one}), std::nullopt);
}

TEST(OnnxFoldTest, GatherConcatTileTransposeOnMatrices) {
  const KnownTensor m = Shaped({2, 3}, {1, 2, 3, 4, 5, 6});
  onnx::NodeProto gather = Node("Gather", 2);
  AddIntAttr(gather, "axis", 1);
  const KnownTensor cols = Vec({-1, 0});
  EXPECT_EQ(Fold(gather, {&m, &cols}), Shaped({2, 2}, {3, 1, 6, 4}));
  onnx::NodeProto concat = Node("Concat", 2);
  AddIntAttr(concat, "axis", 1);
  const KnownTensor col = Shaped({2, 1}, {7, 8});
  EXPECT_EQ(Fold(concat, {&m, &col}), Shaped({2, 4}, {1, 2, 3, 7, 4, 5, 6, 8}));
  const KnownTensor reps = Vec({1, 2});
  EXPECT_EQ(Fold(Node("Tile", 2), {&col, &reps}), Shaped({2, 2}, {7, 7, 8, 8}));
  EXPECT_EQ(Fold(Node("Transpose", 1), {&m}), Shaped({3, 2}, {1, 4, 2, 5, 3, 6}));
}

TEST(OnnxFoldTest, BroadcastingModMinMaxAndLogic) {
  const KnownTensor a = Vec({7, -7}), three = Scalar(3), minus_three = Scalar(-3);
  EXPECT_EQ(Fold(Node("Mod", 2), {&a, &three}), Vec({1, 2}));  // the divisor's sign
  EXPECT_EQ(Fold(Node("Mod", 2), {&a, &minus_three}), Vec({-2, -1}));
  onnx::NodeProto fmod = Node("Mod", 2);
  AddIntAttr(fmod, "fmod", 1);
  EXPECT_EQ(Fold(fmod, {&a, &three}), Vec({1, -1}));  // the dividend's sign
  const KnownTensor col = Shaped({2, 1}, {1, 5});
  const KnownTensor row = Vec({2, 3, 4});
  EXPECT_EQ(Fold(Node("Max", 2), {&col, &row}), Shaped({2, 3}, {2, 3, 4, 5, 5, 5}));
  EXPECT_EQ(Fold(Node("Less", 2), {&col, &row}), Shaped({2, 3}, {1, 1, 1, 0, 0, 0},
                                                          onnx::TensorProto::BOOL));
  const KnownTensor t = Bools({1, 0}), f = Bools({0, 0});
  EXPECT_EQ(Fold(Node("Or", 2), {&t, &f}), Bools({1, 0}));
  EXPECT_EQ(Fold(Node("Not", 1), {&t}), Bools({0, 1}));
  EXPECT_EQ(Fold(Node("Add", 2), {&t, &f}), std::nullopt);  // no arithmetic on BOOL
}

// F.interpolate(scale_factor=2) in opset 9-style exports: the output size is
// floor(float(dim) * 2) cast back to INT64.
TEST(OnnxFoldTest, FloatScaleArithmeticAndCasts) {
  const KnownTensor dims = Vec({1, 8, 15, 15});
  onnx::NodeProto to_float = Node("Cast", 1);
  AddIntAttr(to_float, "to", onnx::TensorProto::FLOAT);
  const std::optional<KnownTensor> f = Fold(to_float, {&dims});
  ASSERT_EQ(f, Floats({4}, {1, 8, 15, 15}));
  const KnownTensor scale = Floats({}, {1.5});
  const std::optional<KnownTensor> scaled = Fold(Node("Mul", 2), {&*f, &scale});
  ASSERT_EQ(scaled, Floats({4}, {1.5, 12, 22.5, 22.5}));
  const std::optional<KnownTensor> floor = Fold(Node("Floor", 1), {&*scaled});
  onnx::NodeProto to_int = Node("Cast", 1);
  AddIntAttr(to_int, "to", onnx::TensorProto::INT64);
  EXPECT_EQ(Fold(to_int, {&*floor}), Vec({1, 12, 22, 22}));
  EXPECT_EQ(Fold(to_int, {&*scaled}), Vec({1, 12, 22, 22}));  // truncates toward zero
  EXPECT_EQ(Fold(Node("Round", 1), {&*scaled}), Floats({4}, {2, 12, 22, 22}));  // half to even
  const KnownTensor inf = Floats({}, {std::numeric_limits<double>::infinity()});
  EXPECT_EQ(Fold(to_int, {&inf}), std::nullopt);
}

TEST(OnnxFoldTest, Reductions) {
  const KnownTensor m = Shaped({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(Fold(Node("ReduceProd", 1), {&m}), Shaped({1, 1}, {720}));
  onnx::NodeProto rows = Node("ReduceSum", 2);
  AddIntAttr(rows, "keepdims", 0);
  const KnownTensor axis1 = Vec({1});
  EXPECT_EQ(Fold(rows, {&m, &axis1}), Vec({6, 15}));
  onnx::NodeProto old_max = Node("ReduceMax", 1);
  AddIntsAttr(old_max, "axes", {0});
  EXPECT_EQ(Fold(old_max, {&m}), Shaped({1, 3}, {4, 5, 6}));
}

TEST(OnnxFoldTest, ElementCountIsBounded) {
  const KnownTensor big = Vec({kMaxFoldElements + 1});
  EXPECT_EQ(Fold(Node("ConstantOfShape", 1), {&big}), std::nullopt);
  const KnownTensor x = Scalar(1);
  const KnownTensor wide = Vec({64, 65});
  EXPECT_EQ(Fold(Node("Expand", 2), {&x, &wide}), std::nullopt);
}

TEST(OnnxFoldTest, OtherOpsAndDomainsAreNotFolded) {
  const KnownTensor v = Vec({1, 2});
  EXPECT_EQ(Fold(Node("Relu", 1), {&v}), std::nullopt);
  onnx::NodeProto custom = Node("Identity", 1);
  custom.set_domain("com.example");
  EXPECT_EQ(Fold(custom, {&v}), std::nullopt);
}

}  // namespace
}  // namespace memplan
