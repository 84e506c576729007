#include "io/onnx/cost.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

OnnxTensorType F32(std::vector<std::int64_t> dims) {
  OnnxTensorType t;
  t.type.dtype = "f32";
  t.type.dims = dims;
  t.bytes = 4;
  for (std::int64_t d : dims) t.bytes *= d;
  return t;
}

onnx::NodeProto Node(const std::string& op_type) {
  onnx::NodeProto node;
  node.set_op_type(op_type);
  return node;
}

TEST(OnnxCostTest, ConvWithBias) {
  // X [1,3,8,8] * W [4,3,3,3] + B [4] -> Y [1,4,6,6]: 144 outputs x 27 MACs.
  const OnnxTensorType x = F32({1, 3, 8, 8}), w = F32({4, 3, 3, 3}), b = F32({4}),
                       y = F32({1, 4, 6, 6});
  const std::vector<const OnnxTensorType*> in = {&x, &w, &b}, out = {&y};
  const OpCost cost = OnnxNodeCost(Node("Conv"), in, out);
  EXPECT_DOUBLE_EQ(cost.flops, 2.0 * 144 * 27 + 144);
  EXPECT_DOUBLE_EQ(cost.transcendentals, 0);
  EXPECT_EQ(cost.bytes_accessed, 768 + 432 + 16 + 576);
}

TEST(OnnxCostTest, GroupedConvWithoutBias) {
  // Depthwise: X [1,8,5,5], W [8,1,3,3] (group 8) -> Y [1,8,3,3]: 72 outputs x 9 MACs.
  const OnnxTensorType x = F32({1, 8, 5, 5}), w = F32({8, 1, 3, 3}), y = F32({1, 8, 3, 3});
  const std::vector<const OnnxTensorType*> in = {&x, &w}, out = {&y};
  EXPECT_DOUBLE_EQ(OnnxNodeCost(Node("Conv"), in, out).flops, 2.0 * 72 * 9);
}

TEST(OnnxCostTest, ConvTranspose) {
  // X [1,2,3,3], W [2,4,2,2] -> Y [1,4,6,6]: each of 18 inputs scatters into 16 outputs.
  const OnnxTensorType x = F32({1, 2, 3, 3}), w = F32({2, 4, 2, 2}), y = F32({1, 4, 6, 6});
  const std::vector<const OnnxTensorType*> in = {&x, &w, nullptr}, out = {&y};
  EXPECT_DOUBLE_EQ(OnnxNodeCost(Node("ConvTranspose"), in, out).flops, 2.0 * 18 * 16);
}

TEST(OnnxCostTest, Gemm) {
  // A [2,3] x B [3,4] + C [4] -> Y [2,4].
  const OnnxTensorType a = F32({2, 3}), b = F32({3, 4}), c = F32({4}), y = F32({2, 4});
  const std::vector<const OnnxTensorType*> in = {&a, &b, &c}, out = {&y};
  const OpCost cost = OnnxNodeCost(Node("Gemm"), in, out);
  EXPECT_DOUBLE_EQ(cost.flops, 2.0 * 2 * 4 * 3 + 8);
  EXPECT_EQ(cost.bytes_accessed, 24 + 48 + 16 + 32);
  // Transposed A [3,2] gives the same K.
  const OnnxTensorType at = F32({3, 2});
  const std::vector<const OnnxTensorType*> in_t = {&at, &b};
  EXPECT_DOUBLE_EQ(OnnxNodeCost(Node("Gemm"), in_t, out).flops, 2.0 * 2 * 4 * 3);
}

TEST(OnnxCostTest, BatchedMatMul) {
  // A [2,5,3] x B [3,4] -> Y [2,5,4].
  const OnnxTensorType a = F32({2, 5, 3}), b = F32({3, 4}), y = F32({2, 5, 4});
  const std::vector<const OnnxTensorType*> in = {&a, &b}, out = {&y};
  const OpCost cost = OnnxNodeCost(Node("MatMul"), in, out);
  EXPECT_DOUBLE_EQ(cost.flops, 2.0 * 40 * 3);
  EXPECT_EQ(cost.bytes_accessed, 120 + 48 + 160);
}

TEST(OnnxCostTest, Elementwise) {
  const OnnxTensorType x = F32({2, 3}), bias = F32({3}), y = F32({2, 3});
  const std::vector<const OnnxTensorType*> in = {&x, &bias}, out = {&y};
  const OpCost add = OnnxNodeCost(Node("Add"), in, out);
  EXPECT_DOUBLE_EQ(add.flops, 6);
  EXPECT_DOUBLE_EQ(add.transcendentals, 0);
  EXPECT_EQ(add.bytes_accessed, 24 + 12 + 24);

  const std::vector<const OnnxTensorType*> unary = {&x};
  const OpCost exp = OnnxNodeCost(Node("Exp"), unary, out);
  EXPECT_DOUBLE_EQ(exp.flops, 0);
  EXPECT_DOUBLE_EQ(exp.transcendentals, 6);
  EXPECT_EQ(exp.bytes_accessed, 48);

  const std::vector<const OnnxTensorType*> three = {&x, &x, &x};
  EXPECT_DOUBLE_EQ(OnnxNodeCost(Node("Sum"), three, out).flops, 12);
  EXPECT_DOUBLE_EQ(OnnxNodeCost(Node("Mean"), three, out).flops, 18);
}

TEST(OnnxCostTest, PoolingNormalizationSoftmaxReduction) {
  const OnnxTensorType x = F32({1, 2, 4, 4}), pooled = F32({1, 2, 2, 2});
  const std::vector<const OnnxTensorType*> in = {&x}, out = {&pooled};
  onnx::NodeProto pool = Node("MaxPool");
  memplan::testing::AddIntsAttr(pool, "kernel_shape", {3, 3});
  EXPECT_DOUBLE_EQ(OnnxNodeCost(pool, in, out).flops, 8.0 * 9);

  const OnnxTensorType gap = F32({1, 2, 1, 1});
  const std::vector<const OnnxTensorType*> gap_out = {&gap};
  EXPECT_DOUBLE_EQ(OnnxNodeCost(Node("GlobalAveragePool"), in, gap_out).flops, 32);

  const std::vector<const OnnxTensorType*> same = {&x};
  EXPECT_DOUBLE_EQ(OnnxNodeCost(Node("BatchNormalization"), in, same).flops, 64);
  const OpCost instance = OnnxNodeCost(Node("InstanceNormalization"), in, same);
  EXPECT_DOUBLE_EQ(instance.flops, 7.0 * 32);
  EXPECT_DOUBLE_EQ(instance.transcendentals, 2);
  onnx::NodeProto layer = Node("LayerNormalization");
  memplan::testing::AddIntAttr(layer, "axis", 2);
  EXPECT_DOUBLE_EQ(OnnxNodeCost(layer, in, same).transcendentals, 2);

  const OpCost softmax = OnnxNodeCost(Node("Softmax"), in, same);
  EXPECT_DOUBLE_EQ(softmax.flops, 4.0 * 32);
  EXPECT_DOUBLE_EQ(softmax.transcendentals, 32);
  EXPECT_DOUBLE_EQ(OnnxNodeCost(Node("ReduceMean"), in, gap_out).flops, 32);
}

TEST(OnnxCostTest, DataMovementAndDefault) {
  const OnnxTensorType x = F32({2, 3}), y = F32({3, 2}), shape = F32({2});
  const std::vector<const OnnxTensorType*> in = {&x}, out = {&y};
  const OpCost transpose = OnnxNodeCost(Node("Transpose"), in, out);
  EXPECT_DOUBLE_EQ(transpose.flops, 0);
  EXPECT_EQ(transpose.bytes_accessed, 48);
  // Shape reads only metadata.
  const std::vector<const OnnxTensorType*> shape_out = {&shape};
  EXPECT_EQ(OnnxNodeCost(Node("Shape"), in, shape_out).bytes_accessed, 8);
  // Custom-domain ops get the default even when named like a standard op.
  onnx::NodeProto custom = Node("Relu");
  custom.set_domain("com.example");
  const OpCost c = OnnxNodeCost(custom, in, out);
  EXPECT_DOUBLE_EQ(c.flops, 0);
  EXPECT_EQ(c.bytes_accessed, 48);
}

}  // namespace
}  // namespace memplan
