#include "io/onnx/fold.h"

#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

using memplan::testing::AddIntAttr;
using memplan::testing::AddIntsAttr;

IntTensor Vec(std::vector<std::int64_t> v) {
  IntTensor t;
  t.dims = {static_cast<std::int64_t>(v.size())};
  t.values = std::move(v);
  return t;
}

IntTensor Scalar(std::int64_t v) {
  IntTensor t;
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

std::optional<IntTensor> Fold(const onnx::NodeProto& node, std::vector<const IntTensor*> values,
                              int opset = 13) {
  std::vector<FoldInput> inputs;
  for (const IntTensor* v : values) inputs.push_back(FoldInput{v, nullptr});
  return FoldIntNode(node, opset, inputs);
}

TEST(OnnxFoldTest, ShapeWithStartAndEnd) {
  const std::vector<std::int64_t> dims = {1, 3, 224, 224};
  const std::vector<FoldInput> in = {FoldInput{nullptr, &dims}};
  EXPECT_EQ(FoldIntNode(Node("Shape", 1), 13, in), Vec({1, 3, 224, 224}));
  onnx::NodeProto tail = Node("Shape", 1);
  AddIntAttr(tail, "start", -2);
  EXPECT_EQ(FoldIntNode(tail, 15, in), Vec({224, 224}));
  // Before opset 15 the attributes do not exist.
  EXPECT_EQ(FoldIntNode(tail, 13, in), Vec({1, 3, 224, 224}));
  EXPECT_EQ(FoldIntNode(Node("Size", 1), 13, in), Scalar(150528));
  const std::vector<FoldInput> unknown = {FoldInput{}};
  EXPECT_EQ(FoldIntNode(Node("Shape", 1), 13, unknown), std::nullopt);
}

TEST(OnnxFoldTest, GatherSliceConcat) {
  const IntTensor shape = Vec({8, 128, 768});
  const IntTensor last = Scalar(-1);
  EXPECT_EQ(Fold(Node("Gather", 2), {&shape, &last}), Scalar(768));
  const IntTensor out_of_range = Scalar(3);
  EXPECT_EQ(Fold(Node("Gather", 2), {&shape, &out_of_range}), std::nullopt);

  const IntTensor start = Vec({-1}), end = Vec({std::numeric_limits<std::int64_t>::min()}),
                  axis = Vec({0}), step = Vec({-1});
  // Reversal with a negative step and an end clamped to -1.
  EXPECT_EQ(Fold(Node("Slice", 5), {&shape, &start, &end, &axis, &step}), Vec({768, 128, 8}));
  const IntTensor zero = Vec({0}), two = Vec({2});
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
  const IntTensor six = Scalar(6);
  const IntTensor axes = Vec({0});
  IntTensor expected = Vec({6});
  EXPECT_EQ(Fold(Node("Unsqueeze", 2), {&six, &axes}), expected);
  onnx::NodeProto old_unsqueeze = Node("Unsqueeze", 1);
  AddIntsAttr(old_unsqueeze, "axes", {0, -1});
  expected.dims = {1, 1};
  EXPECT_EQ(Fold(old_unsqueeze, {&six}, 11), expected);
  EXPECT_EQ(Fold(Node("Squeeze", 1), {&expected}), six);
}

TEST(OnnxFoldTest, Arithmetic) {
  const IntTensor a = Vec({7, -7}), two = Scalar(2);
  EXPECT_EQ(Fold(Node("Div", 2), {&a, &two}), Vec({3, -3}));  // truncates toward zero
  EXPECT_EQ(Fold(Node("Mul", 2), {&two, &a}), Vec({14, -14}));
  EXPECT_EQ(Fold(Node("Sub", 2), {&a, &a}), Vec({0, 0}));
  const IntTensor zero = Scalar(0);
  EXPECT_EQ(Fold(Node("Div", 2), {&a, &zero}), std::nullopt);
  const IntTensor big = Scalar(std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(Fold(Node("Add", 2), {&big, &big}), std::nullopt);
  const IntTensor three = Vec({1, 2, 3});
  EXPECT_EQ(Fold(Node("Add", 2), {&a, &three}), std::nullopt);  // no general broadcasting
}

TEST(OnnxFoldTest, CastAndConstants) {
  onnx::NodeProto cast = Node("Cast", 1);
  AddIntAttr(cast, "to", onnx::TensorProto::INT32);
  const IntTensor v = Vec({5});
  std::optional<IntTensor> cast32 = Fold(cast, {&v});
  ASSERT_TRUE(cast32.has_value());
  EXPECT_EQ(cast32->elem_type, onnx::TensorProto::INT32);
  EXPECT_EQ(cast32->values, (std::vector<std::int64_t>{5}));
  const IntTensor huge = Vec({std::int64_t{1} << 40});
  EXPECT_EQ(Fold(cast, {&huge}), std::nullopt);

  onnx::NodeProto ints = Node("Constant", 0);
  AddIntsAttr(ints, "value_ints", {4, 5});
  EXPECT_EQ(Fold(ints, {}), Vec({4, 5}));
  EXPECT_EQ(IntTensorFromProto(IntTensorToProto(Vec({1, 2, 3}))), Vec({1, 2, 3}));

  onnx::TensorProto external = IntTensorToProto(Vec({1}));
  external.set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(IntTensorFromProto(external), std::nullopt);
  onnx::TensorProto floats;
  floats.set_data_type(onnx::TensorProto::FLOAT);
  floats.add_float_data(1);
  EXPECT_EQ(IntTensorFromProto(floats), std::nullopt);
}

TEST(OnnxFoldTest, OtherOpsAndDomainsAreNotFolded) {
  const IntTensor v = Vec({1, 2});
  EXPECT_EQ(Fold(Node("Relu", 1), {&v}), std::nullopt);
  onnx::NodeProto custom = Node("Identity", 1);
  custom.set_domain("com.example");
  EXPECT_EQ(Fold(custom, {&v}), std::nullopt);
}

}  // namespace
}  // namespace memplan
