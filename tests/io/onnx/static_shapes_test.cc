// Shapes resolved by folding at import (io/onnx/fold.h), folded nodes taking
// no step, and the one error for dims that stay symbolic
// (io/onnx/symbolic_dims.h), on small hand-built graphs.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/onnx/importer.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

using ::memplan::testing::AddIntAttr;
using ::memplan::testing::AddIntConstant;
using ::memplan::testing::AddIntsAttr;
using ::memplan::testing::ErrorOf;
using ::memplan::testing::OnnxModelBuilder;
using onnx::TensorProto;

std::vector<std::string> Opcodes(const Program& p) {
  std::vector<std::string> opcodes;
  for (const Op& op : p.ops) opcodes.push_back(op.opcode);
  return opcodes;
}

// torch's `cls_token.expand(x.shape[0], -1, -1)` then `cat((cls, x), 1)`, as
// the exporter writes it: the Expand target is Where(Equal(shape,
// ConstantOfShape([3], 1) * -1), ones, shape). Without folding the Expand
// output has unknown dims ("dim 0 'unk__0' is symbolic").
TEST(OnnxStaticShapesTest, TorchExpandChainFoldsAwayAndTakesNoStep) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2, 4, 8}).Weight("cls", {1, 1, 8}).Output("y");
  b.Ints("zero", {0}, {}).Ints("axes", {0}).Ints("free", {-1, -1}).Ints("three", {3});
  b.Ints("minus_one", {-1}, {});
  b.Node("Shape", {"x"}, {"s"});
  b.Node("Gather", {"s", "zero"}, {"batch"});
  b.Node("Unsqueeze", {"batch", "axes"}, {"batch1"});
  onnx::NodeProto& concat = b.Node("Concat", {"batch1", "free"}, {"shape"});
  AddIntAttr(concat, "axis", 0);
  onnx::NodeProto& fill = b.Node("ConstantOfShape", {"three"}, {"ones"});
  auto* value = fill.add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto::TENSOR);
  value->mutable_t()->set_data_type(TensorProto::INT64);
  value->mutable_t()->add_dims(1);
  value->mutable_t()->add_int64_data(1);
  b.Node("Mul", {"ones", "minus_one"}, {"minus_ones"});
  b.Node("Equal", {"shape", "minus_ones"}, {"is_free"});
  b.Node("Where", {"is_free", "ones", "shape"}, {"target"});
  b.Node("Expand", {"cls", "target"}, {"cls_b"});
  onnx::NodeProto& cat = b.Node("Concat", {"cls_b", "x"}, {"y"});
  AddIntAttr(cat, "axis", 1);
  absl::StatusOr<Program> p = ImportOnnx(b.Write("expand_chain.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  // The Expand of the weight is then constant-only: it is computed before
  // the run (hoist_constants.h), and its target, read by nothing else, goes.
  EXPECT_EQ(Opcodes(*p), (std::vector<std::string>{"onnx.Concat"}));
  const Value& cls_b = p->values.at(p->FindValue("cls_b"));
  EXPECT_EQ(cls_b.defining_op, kNoId);
  EXPECT_EQ(cls_b.lifetime, Lifetime::kConstant);
  for (const char* gone :
       {"s", "batch", "batch1", "shape", "ones", "minus_ones", "is_free", "target"}) {
    EXPECT_EQ(p->FindValue(gone), kNoId) << gone;
  }
  EXPECT_EQ(p->values.at(p->FindValue("cls_b")).type->dims, (std::vector<std::int64_t>{2, 1, 8}));
  EXPECT_EQ(p->values.at(p->FindValue("y")).type->dims, (std::vector<std::int64_t>{2, 5, 8}));
}

// torchvision's shifted-window mask: `mask = zeros(H, W); mask[a:b, c:d] = k`
// exports as ScatterND into a ConstantOfShape; the masked values then reshape
// by a computed shape.
TEST(OnnxStaticShapesTest, ScatterNDMaskAndComputedReshapeFold) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2, 2}).Output("y");
  b.Ints("hw", {2, 2}).Ints("idx", {1, 0, 1, 1}, {2, 2}).Ints("flat", {-1});
  onnx::NodeProto& fill = b.Node("ConstantOfShape", {"hw"}, {"zeros"});
  (void)fill;
  AddIntConstant(b, "upd_i", {3, 4});
  onnx::NodeProto& cast = b.Node("Cast", {"upd_i"}, {"upd"});
  AddIntAttr(cast, "to", TensorProto::FLOAT);
  b.Node("ScatterND", {"zeros", "idx", "upd"}, {"mask"});
  b.Node("Reshape", {"mask", "flat"}, {"mask_flat"});
  b.Node("Shape", {"mask_flat"}, {"n"});
  b.Node("Reshape", {"x", "n"}, {"x_flat"});
  b.Node("Add", {"x_flat", "mask_flat"}, {"y"});
  absl::StatusOr<Program> p = ImportOnnx(b.Write("scatter_mask.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(Opcodes(*p), (std::vector<std::string>{"onnx.Reshape", "onnx.Add"}));
  const Value& mask = p->values.at(p->FindValue("mask_flat"));
  EXPECT_EQ(mask.defining_op, kNoId);
  EXPECT_EQ(mask.size, 16);
  EXPECT_EQ(p->values.at(p->FindValue("y")).type->dims, (std::vector<std::int64_t>{4}));
}

// Dims that follow from two symbolic inputs and from a NonZero: one error
// names them all, with one --dim hint per name.
TEST(OnnxStaticShapesTest, OneErrorNamesEveryInputDimAndDataOp) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {"batch", 4});
  b.Input("ids", TensorProto::INT64, {"batch", "seq"});
  b.Input("m", TensorProto::FLOAT, {3});
  b.Output("r").Output("e").Output("z", TensorProto::INT64);
  b.Node("Relu", {"x"}, {"r"}, "relu");
  // The shape of a symbolic input feeds an Expand: its first dim follows from
  // the inputs (inference gives it [batch, 3]). Counted: x 1, ids 2, r 1, e 1,
  // z 1.
  b.Node("Shape", {"ids"}, {"s"}, "shape");
  b.Node("Expand", {"m", "s"}, {"e"}, "expand");  // [3] to [batch, seq]: needs seq == 3
  b.Node("NonZero", {"m"}, {"z"}, "nz");
  const std::string path = b.Write("symbolic_everywhere.onnx");
  EXPECT_EQ(ErrorOf(path),
            path + ": error: 6 tensor dims are symbolic; they follow from input dims: 'batch' "
                   "(input 'x' dim 0), 'seq' (input 'ids' dim 1) and from data computed at run "
                   "time by node 'nz' (NonZero) (output 'z' dim 1 'unk__0'); bind them with "
                   "--dim batch=VALUE --dim seq=VALUE --dim unk__0=VALUE");
  OnnxImportOptions options;
  options.dims = {{"batch", 2}, {"seq", 3}};
  EXPECT_EQ(ErrorOf(path, options),
            path + ": error: 1 tensor dim is symbolic; it follows from data computed at run time "
                   "by node 'nz' (NonZero) (output 'z' dim 1 'unk__0'); bind it with --dim "
                   "unk__0=VALUE");
  options.dims["unk__0"] = 2;
  absl::StatusOr<Program> p = ImportOnnx(path, options);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->values.at(p->FindValue("e")).type->dims, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(p->values.at(p->FindValue("z")).type->dims, (std::vector<std::int64_t>{1, 2}));
}

// A Reshape whose shape is read from an activation depends on data: the
// error names that node.
TEST(OnnxStaticShapesTest, ShapeComputedFromActivationsIsData) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {6}).Input("k", TensorProto::INT64, {2}).Output("y");
  b.Node("Abs", {"k"}, {"dims"}, "abs");
  b.Node("Reshape", {"x", "dims"}, {"y"}, "reshape");
  const std::string path = b.Write("data_reshape.onnx");
  EXPECT_EQ(ErrorOf(path),
            path + ": error: 1 tensor dim is symbolic; it follows from data computed at run "
                   "time by node 'reshape' (Reshape) (output 'y' of unknown rank)");
}

}  // namespace
}  // namespace memplan
