#include "io/onnx/importer.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

using ::memplan::testing::AddIntConstant;
using ::memplan::testing::AddIntsAttr;
using ::memplan::testing::ErrorOf;
using ::memplan::testing::OnnxModelBuilder;
using ::memplan::testing::ValueNamed;
using onnx::TensorProto;
using ::testing::HasSubstr;

const Op& DefiningOp(const Program& p, std::string_view name) {
  return p.ops.at(ValueNamed(p, name).defining_op);
}

TEST(OnnxImporterTest, ImportsGemmRelu) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 4}).Weight("W", {4, 3}).Weight("B", {3}).Output("z");
  b.Node("Gemm", {"x", "W", "B"}, {"y"}, "fc");
  b.Node("Relu", {"y"}, {"z"}, "act");
  const std::string path = b.Write("gemm_relu.onnx");
  absl::StatusOr<Program> p = ImportOnnx(path, {});
  ASSERT_TRUE(p.ok()) << p.status();

  EXPECT_EQ(p->name, "g");
  EXPECT_EQ(p->source, path);
  ASSERT_EQ(p->computations.size(), 1u);
  const Computation& main = p->computations[p->entry];
  EXPECT_EQ(main.name, "g");
  // The graph input, then the initializers as constant params: no ops.
  ASSERT_EQ(main.params.size(), 3u);
  EXPECT_EQ(p->values[main.params[1]].name, "W");
  EXPECT_EQ(p->values[main.params[2]].name, "B");
  ASSERT_EQ(main.ops.size(), 2u);
  EXPECT_EQ(p->ops[main.ops[0]].opcode, "onnx.Gemm");
  EXPECT_EQ(p->ops[main.ops[1]].opcode, "onnx.Relu");
  ASSERT_EQ(main.results.size(), 1u);
  EXPECT_EQ(p->values[main.results[0]].name, "z");

  const Value& x = ValueNamed(*p, "x");
  EXPECT_EQ(x.size, 16);
  EXPECT_EQ(x.lifetime, Lifetime::kExternal);
  EXPECT_EQ(x.defining_op, kNoId);
  EXPECT_EQ(ValueNamed(*p, "W").size, 48);
  EXPECT_EQ(ValueNamed(*p, "W").lifetime, Lifetime::kConstant);
  EXPECT_EQ(ValueNamed(*p, "B").size, 12);
  const Value& y = ValueNamed(*p, "y");
  EXPECT_EQ(y.size, 12);
  EXPECT_EQ(y.lifetime, std::nullopt);
  ASSERT_TRUE(y.type.has_value());
  EXPECT_EQ(y.type->dtype, "f32");
  EXPECT_EQ(y.type->dims, (std::vector<std::int64_t>{1, 3}));
  const Value& z = ValueNamed(*p, "z");
  EXPECT_EQ(z.lifetime, Lifetime::kExternal);
  // y dies at the Relu and spans z's bytes: the Relu writes into the output.
  EXPECT_EQ(z.alias, AliasKind::kTied);
  EXPECT_EQ(z.alias_of, p->FindValue("y"));

  const Op& gemm = DefiningOp(*p, "y");
  EXPECT_EQ(gemm.operands,
            (std::vector<ValueId>{p->FindValue("x"), p->FindValue("W"), p->FindValue("B")}));
  EXPECT_DOUBLE_EQ(gemm.cost.flops, 2 * 1 * 3 * 4 + 3);
  EXPECT_EQ(gemm.cost.bytes_accessed, 16 + 48 + 12 + 12);
  ASSERT_EQ(gemm.attributes.size(), 1u);
  EXPECT_EQ(gemm.attributes[0].key, "name");
  EXPECT_EQ(gemm.attributes[0].value.s, "fc");
  EXPECT_DOUBLE_EQ(DefiningOp(*p, "z").cost.flops, 3);
}

// x -> Exp e -> Relu r -> Flatten f (view)
//               r -> Sigmoid g;  Add(g, f) h -> Neg out (graph output)
OnnxModelBuilder AliasChain() {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2, 4}).Output("out");
  b.Node("Exp", {"x"}, {"e"});
  b.Node("Relu", {"e"}, {"r"});
  b.Node("Flatten", {"r"}, {"f"});
  b.Node("Sigmoid", {"r"}, {"g"});
  b.Node("Add", {"g", "f"}, {"h"});
  b.Node("Neg", {"h"}, {"out"});
  return b;
}

TEST(OnnxImporterTest, ViewsAndInPlaceTies) {
  absl::StatusOr<Program> p = ImportOnnx(AliasChain().Write("alias_chain.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  // e reads a graph input: never tied into it.
  EXPECT_EQ(ValueNamed(*p, "e").alias, AliasKind::kNone);
  // e dies at the Relu: written in place.
  EXPECT_EQ(ValueNamed(*p, "r").alias, AliasKind::kTied);
  EXPECT_EQ(ValueNamed(*p, "r").alias_of, p->FindValue("e"));
  EXPECT_EQ(ValueNamed(*p, "f").alias, AliasKind::kView);
  EXPECT_EQ(ValueNamed(*p, "f").alias_of, p->FindValue("r"));
  EXPECT_EQ(ValueNamed(*p, "f").view_offset, 0);
  EXPECT_EQ(DefiningOp(*p, "f").cost.bytes_accessed, 0);
  // r's alias set {e, r, f} is still read after the Sigmoid (by the Add via f).
  EXPECT_EQ(ValueNamed(*p, "g").alias, AliasKind::kNone);
  // Both Add operands die there; the first eligible one is taken.
  EXPECT_EQ(ValueNamed(*p, "h").alias, AliasKind::kTied);
  EXPECT_EQ(ValueNamed(*p, "h").alias_of, p->FindValue("g"));
  // h's set {g, h} dies at the Neg: the output takes it, so the Sigmoid, the
  // Add and the Neg all write the caller's buffer.
  EXPECT_EQ(ValueNamed(*p, "out").alias, AliasKind::kTied);
  EXPECT_EQ(ValueNamed(*p, "out").alias_of, p->FindValue("h"));
}

TEST(OnnxImporterTest, AliasingCanBeTurnedOff) {
  OnnxImportOptions options;
  options.alias = false;
  absl::StatusOr<Program> p = ImportOnnx(AliasChain().Write("alias_chain_off.onnx"), options);
  ASSERT_TRUE(p.ok()) << p.status();
  for (const Value& v : p->values) EXPECT_EQ(v.alias, AliasKind::kNone) << v.name;
  EXPECT_EQ(DefiningOp(*p, "f").cost.bytes_accessed, 64);
}

// Constants too large to fold (64 x 65 = 4160 elements, above
// kMaxFoldElements) are computed before the run (hoist_constants.h) and the
// small ones (the shapes) fold (shapes.cc): both become constant entry
// parameters, or disappear when only folded ops read them.
TEST(OnnxImporterTest, ValuesComputedFromConstantsAreConstants) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {64, 65}).Ints("shape", {64, 65}).Output("m");
  b.Node("ConstantOfShape", {"shape"}, {"c"});  // f32 zeros [64, 65]
  b.Node("Shape", {"x"}, {"s"});
  AddIntConstant(b, "k", {65, 64});
  b.Node("Reshape", {"c", "k"}, {"rc"});
  b.Node("Reshape", {"rc", "s"}, {"rc2"});
  b.Node("Add", {"x", "rc2"}, {"sum"});
  b.Node("Neg", {"c"}, {"n"});
  onnx::NodeProto& random = b.Node("RandomNormal", {}, {"rn"});
  AddIntsAttr(random, "shape", {64, 65});
  b.Node("Mul", {"sum", "rn"}, {"t"});
  b.Node("Mul", {"t", "n"}, {"m"});
  absl::StatusOr<Program> p = ImportOnnx(b.Write("constants.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();

  // c and n become constant parameters; the reshapes of c are c itself;
  // shape, k and s, read only by folded ops, are gone.
  for (const char* name : {"c", "n"}) {
    EXPECT_EQ(ValueNamed(*p, name).lifetime, Lifetime::kConstant) << name;
    EXPECT_EQ(ValueNamed(*p, name).defining_op, kNoId) << name;
  }
  EXPECT_EQ(ValueNamed(*p, "c").size, 64 * 65 * 4);
  for (const char* name : {"shape", "s", "k", "rc", "rc2"}) EXPECT_EQ(p->FindValue(name), kNoId) << name;
  EXPECT_EQ(DefiningOp(*p, "sum").operands, (std::vector<ValueId>{p->FindValue("x"), p->FindValue("c")}));
  // Nothing is written into a constant or a graph input.
  EXPECT_EQ(ValueNamed(*p, "n").alias, AliasKind::kNone);
  EXPECT_EQ(ValueNamed(*p, "sum").alias, AliasKind::kNone);
  EXPECT_EQ(ValueNamed(*p, "sum").lifetime, std::nullopt);
  // Random values are never constants.
  EXPECT_EQ(ValueNamed(*p, "rn").lifetime, std::nullopt);
  EXPECT_EQ(ValueNamed(*p, "t").alias, AliasKind::kTied);
  EXPECT_EQ(ValueNamed(*p, "t").alias_of, p->FindValue("sum"));
  EXPECT_EQ(ValueNamed(*p, "m").lifetime, Lifetime::kExternal);
}

// bert-style split: Slice bounds computed from Shape(x) arithmetic, which ONNX
// shape inference alone cannot resolve.
TEST(OnnxImporterTest, FoldsShapeArithmeticForSliceBounds) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {4, 6}).Output("out");
  b.Node("Shape", {"x"}, {"sh"});
  AddIntConstant(b, "last", {-1}, {});
  onnx::NodeProto& gather = b.Node("Gather", {"sh", "last"}, {"width"});
  memplan::testing::AddIntAttr(gather, "axis", 0);
  AddIntConstant(b, "two", {2}, {});
  b.Node("Div", {"width", "two"}, {"half"});
  AddIntConstant(b, "axis0", {0});
  b.Node("Unsqueeze", {"half", "axis0"}, {"half1"});
  AddIntConstant(b, "zero", {0});
  AddIntConstant(b, "big", {100});
  AddIntConstant(b, "axis1", {1});
  b.Node("Slice", {"x", "zero", "half1", "axis1"}, {"a"});
  b.Node("Slice", {"x", "half1", "big", "axis1"}, {"b"});
  b.Node("Add", {"a", "b"}, {"out"});
  absl::StatusOr<Program> p = ImportOnnx(b.Write("fold_slice.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(ValueNamed(*p, "a").type->dims, (std::vector<std::int64_t>{4, 3}));
  EXPECT_EQ(ValueNamed(*p, "a").size, 48);
  EXPECT_EQ(ValueNamed(*p, "b").size, 48);
  EXPECT_EQ(ValueNamed(*p, "out").size, 48);
  // The shape computation folds away: no step, and only the Slice bound
  // that remaining ops read is a value (a constant entry parameter, [3]).
  for (const char* name : {"sh", "width", "half", "last", "two", "axis0"}) {
    EXPECT_EQ(p->FindValue(name), kNoId) << name;
  }
  EXPECT_EQ(ValueNamed(*p, "half1").lifetime, Lifetime::kConstant);
  EXPECT_EQ(ValueNamed(*p, "half1").defining_op, kNoId);
  EXPECT_EQ(ValueNamed(*p, "half1").size, 8);
  ASSERT_EQ(p->ops.size(), 3u);
  EXPECT_EQ(p->ops[0].opcode, "onnx.Slice");
  EXPECT_EQ(p->ops[1].opcode, "onnx.Slice");
  EXPECT_EQ(p->ops[2].opcode, "onnx.Add");
}

// deeplab-style Resize whose sizes are Concat(Slice(Shape(x)), constant).
TEST(OnnxImporterTest, FoldsResizeSizes) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 2, 3, 3}).Output("y");
  b.Node("Shape", {"x"}, {"sh"});
  AddIntConstant(b, "s0", {0});
  AddIntConstant(b, "s2", {2});
  b.Node("Slice", {"sh", "s0", "s2"}, {"nc"});
  AddIntConstant(b, "hw", {6, 6});
  onnx::NodeProto& concat = b.Node("Concat", {"nc", "hw"}, {"sizes"});
  memplan::testing::AddIntAttr(concat, "axis", 0);
  b.Node("Resize", {"x", "", "", "sizes"}, {"y"});
  absl::StatusOr<Program> p = ImportOnnx(b.Write("fold_resize.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(ValueNamed(*p, "y").type->dims, (std::vector<std::int64_t>{1, 2, 6, 6}));
  EXPECT_EQ(ValueNamed(*p, "y").size, 288);
  // Omitted optional inputs are skipped.
  EXPECT_EQ(DefiningOp(*p, "y").operands,
            (std::vector<ValueId>{p->FindValue("x"), p->FindValue("sizes")}));
}

TEST(OnnxImporterTest, ImportsEveryOpsetLibonnxKnows) {
  for (int opset = 7; opset <= 17; ++opset) {
    SCOPED_TRACE(opset);
    OnnxModelBuilder b(opset);
    b.Input("x", TensorProto::FLOAT, {1, 3, 8, 8}).Weight("w", {4, 3, 3, 3}).Ints("flat", {1, 36});
    b.Output("y");
    b.Node("Conv", {"x", "w"}, {"c"});
    b.Node("Relu", {"c"}, {"r"});
    onnx::NodeProto& pool = b.Node("MaxPool", {"r"}, {"p"});
    AddIntsAttr(pool, "kernel_shape", {2, 2});
    AddIntsAttr(pool, "strides", {2, 2});
    b.Node("Reshape", {"p", "flat"}, {"f"});
    b.Node("Add", {"f", "f"}, {"a"});
    b.Node("Softmax", {"a"}, {"y"});
    absl::StatusOr<Program> p = ImportOnnx(b.Write("opset" + std::to_string(opset) + ".onnx"), {});
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(ValueNamed(*p, "c").size, 4 * 6 * 6 * 4);
    EXPECT_EQ(ValueNamed(*p, "p").size, 4 * 3 * 3 * 4);
    EXPECT_EQ(ValueNamed(*p, "y").size, 36 * 4);
    EXPECT_EQ(ValueNamed(*p, "f").alias, AliasKind::kView);
    EXPECT_DOUBLE_EQ(DefiningOp(*p, "p").cost.flops, 36 * 4);
  }
}

TEST(OnnxImporterTest, SymbolicDimNeedsBinding) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {"batch", 4}).Output("y");
  b.Node("Relu", {"x"}, {"y"});
  const std::string path = b.Write("symbolic.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: 2 tensor dims are symbolic; they follow from input dims: "
                               "'batch' (input 'x' dim 0); bind it with --dim batch=VALUE");

  OnnxImportOptions options;
  options.dims = {{"batch", 8}};
  absl::StatusOr<Program> p = ImportOnnx(path, options);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(ValueNamed(*p, "x").size, 8 * 4 * 4);
  EXPECT_EQ(ValueNamed(*p, "y").size, 8 * 4 * 4);

  // A binding for a dim the model does not have is most likely a typo.
  options.dims = {{"batch", 8}, {"unused", 3}};
  EXPECT_EQ(ErrorOf(path, options),
            path + ": error: --dim unused=3: the model has no symbolic dim 'unused' (the symbolic "
                   "dims of its inputs: batch)");

  options.dims = {{"batch", -1}};
  EXPECT_EQ(ErrorOf(path, options),
            path + ": error: dim 'batch' is bound to -1; dims must be >= 0");
}

TEST(OnnxImporterTest, UnnamedUnknownDim) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {{}, 4}).Output("y");
  b.Node("Relu", {"x"}, {"y"});
  const std::string path = b.Write("unknown_dim.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: tensor 'x' dim 0 is unknown (it has neither a value nor a "
                               "name to bind with --dim)");
}

// NonZero's output count depends on data: shape inference names it, and that
// name can be bound to the count to plan for.
TEST(OnnxImporterTest, DataDependentDimCanBeBound) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2, 3}).Output("y", TensorProto::INT64);
  b.Node("NonZero", {"x"}, {"nz"});
  b.Node("Identity", {"nz"}, {"y"});
  const std::string path = b.Write("nonzero.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: 2 tensor dims are symbolic; they follow from data "
                               "computed at run time by node #0 (NonZero) (output 'nz' dim 1 "
                               "'unk__0'); bind it with --dim unk__0=VALUE");
  OnnxImportOptions options;
  options.dims = {{"unk__0", 6}};
  absl::StatusOr<Program> p = ImportOnnx(path, options);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(ValueNamed(*p, "nz").type->dims, (std::vector<std::int64_t>{2, 6}));
  EXPECT_EQ(ValueNamed(*p, "y").size, 2 * 6 * 8);
}

TEST(OnnxImporterTest, MissingFile) {
  const std::string path = ::testing::TempDir() + "/does_not_exist.onnx";
  EXPECT_EQ(ErrorOf(path), path + ": error: cannot read file: No such file or directory");
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(OnnxImporterTest, EveryTruncationIsRejected) {
  std::string bytes;
  AliasChain().model().SerializeToString(&bytes);
  ASSERT_TRUE(ImportOnnx(OnnxModelBuilder::WriteBytes("whole.onnx", bytes), {}).ok());
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::string path = OnnxModelBuilder::WriteBytes("truncated.onnx", bytes.substr(0, n));
    EXPECT_THAT(ErrorOf(path), HasSubstr("error: not an ONNX model")) << "prefix " << n;
  }
}

TEST(OnnxImporterTest, TruncatedRealModel) {
  const std::string bytes = ReadBytes(MEMPLAN_SOURCE_DIR "/examples/mobilenet_v2.onnx");
  ASSERT_GT(bytes.size(), 1000u);
  const std::string path =
      OnnxModelBuilder::WriteBytes("mobilenet_half.onnx", bytes.substr(0, bytes.size() / 2));
  // Where the file breaks off, and in which field of the model.
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: not an ONNX model: protobuf parsing failed at byte 29867 "
                               "of 29867: the file ends inside graph.node[162].attribute[0].name, "
                               "which declares 9 bytes at byte 29859 (6 present) (corrupt, "
                               "truncated or another format?)");
}

TEST(OnnxImporterTest, DamagedWireFormatIsLocated) {
  // ir_version 7, then a tag with wire type 7 at byte 2.
  std::string path = OnnxModelBuilder::WriteBytes("wire_type.onnx", std::string("\x08\x07\x0f", 3));
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: not an ONNX model: protobuf parsing failed at byte 2 of "
                               "3: invalid wire type 7 in the tag of field 1 of the model "
                               "(corrupt, truncated or another format?)");
  // A graph of 3 bytes (4..6) whose node declares 5: it overruns the graph.
  path = OnnxModelBuilder::WriteBytes(
      "overrun.onnx", std::string("\x08\x07\x3a\x03\x0a\x05\x41\x42\x43\x44\x45\x46", 12));
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: not an ONNX model: protobuf parsing failed at byte 4 of "
                               "12: graph.node[0], which declares 5 bytes at byte 4 (1 present) "
                               "runs past its enclosing field's end at byte 7 (corrupt, truncated "
                               "or another format?)");
}

TEST(OnnxImporterTest, CorruptModel) {
  std::string bytes = ReadBytes(MEMPLAN_SOURCE_DIR "/examples/mobilenet_v2.onnx");
  ASSERT_GT(bytes.size(), 1000u);
  for (size_t i = 100; i < 200; ++i) bytes[i] = '\xff';
  const std::string path = OnnxModelBuilder::WriteBytes("corrupt.onnx", bytes);
  EXPECT_THAT(ErrorOf(path), HasSubstr("error: not an ONNX model"));
}

TEST(OnnxImporterTest, NonOnnxFiles) {
  // A text file and a PNG image (see tests/data/onnx/README.md).
  for (const char* name : {"text.onnx", "image.onnx"}) {
    const std::string path = std::string(MEMPLAN_SOURCE_DIR "/tests/data/onnx/") + name;
    EXPECT_THAT(ErrorOf(path), HasSubstr(path + ": error: not an ONNX model")) << name;
  }
  const std::string empty = OnnxModelBuilder::WriteBytes("empty.onnx", "");
  EXPECT_EQ(ErrorOf(empty), empty + ": error: not an ONNX model: the file is empty");
}

TEST(OnnxImporterTest, ModelWithoutNodesIsNotAccepted) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  const std::string path = b.Write("no_nodes.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: not an ONNX model: no graph nodes (corrupt, truncated or "
                               "another format?)");
}

TEST(OnnxImporterTest, OldIrVersion) {
  OnnxModelBuilder b(13, 2);
  b.Input("x", TensorProto::FLOAT, {2}).Output("y");
  b.Node("Relu", {"x"}, {"y"});
  const std::string path = b.Write("ir2.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: ir_version 2 predates opset imports (IR version 3); "
                               "re-export the model with a newer ONNX");
}

TEST(OnnxImporterTest, OpsetNewerThanLibonnx) {
  OnnxModelBuilder b(18);
  b.Input("x", TensorProto::FLOAT, {2}).Output("y");
  b.Node("Relu", {"x"}, {"y"});
  const std::string path = b.Write("opset18.onnx");
  EXPECT_EQ(ErrorOf(path),
            path +
                ": error: opset 18 of domain 'ai.onnx' is not known to the installed "
                "libonnx (it knows versions 1 to 17)");
}

TEST(OnnxImporterTest, UnknownOp) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2}).Output("y");
  b.Node("Frobnicate", {"x"}, {"y"}, "f");
  const std::string path = b.Write("unknown_op.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node 'f' (Frobnicate): unknown op 'Frobnicate': not in "
                               "opset 13 of the installed libonnx");
}

TEST(OnnxImporterTest, OpNewerThanModelOpset) {
  OnnxModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {2}).Output("y");
  b.Node("HardSwish", {"x"}, {"y"});  // since opset 14
  const std::string path = b.Write("hardswish13.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node #0 (HardSwish): unknown op 'HardSwish': not in "
                               "opset 13 of the installed libonnx");
  OnnxModelBuilder b14(14);
  b14.Input("x", TensorProto::FLOAT, {2}).Output("y");
  b14.Node("HardSwish", {"x"}, {"y"});
  EXPECT_TRUE(ImportOnnx(b14.Write("hardswish14.onnx"), {}).ok());
}

TEST(OnnxImporterTest, DeprecatedOp) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 1, 2, 2}).Ints("scales", {1, 1, 2, 2}).Output("y");
  b.Node("Upsample", {"x", "scales"}, {"y"}, "up");
  const std::string path = b.Write("upsample.onnx");
  EXPECT_EQ(ErrorOf(path),
            path + ": error: node 'up' (Upsample): op 'Upsample' is deprecated in opset 13");
}

TEST(OnnxImporterTest, WrongArity) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2}).Output("y");
  b.Node("Relu", {"x", "x"}, {"y"}, "r");
  const std::string path = b.Write("arity.onnx");
  EXPECT_THAT(ErrorOf(path), HasSubstr(path + ": error: node 'r' (Relu): "));
}

TEST(OnnxImporterTest, UnsupportedDtypes) {
  OnnxModelBuilder strings;
  strings.Input("x", TensorProto::STRING, {2}).Output("y", TensorProto::STRING);
  strings.Node("Identity", {"x"}, {"y"});
  std::string path = strings.Write("string.onnx");
  EXPECT_EQ(ErrorOf(path), path + ": error: tensor 'x' has unsupported dtype STRING");

  OnnxModelBuilder undefined;
  undefined.Input("x", TensorProto::UNDEFINED, {2}).Output("y", TensorProto::UNDEFINED);
  undefined.Node("Identity", {"x"}, {"y"});
  path = undefined.Write("undefined.onnx");
  EXPECT_EQ(ErrorOf(path), path + ": error: tensor 'x' has unsupported dtype UNDEFINED");

  OnnxModelBuilder internal;  // a STRING tensor inside the graph
  internal.Input("x", TensorProto::FLOAT, {2}).Output("y");
  onnx::NodeProto& cast = internal.Node("Cast", {"x"}, {"s"});
  memplan::testing::AddIntAttr(cast, "to", TensorProto::STRING);
  onnx::NodeProto& back = internal.Node("Cast", {"s"}, {"y"});
  memplan::testing::AddIntAttr(back, "to", TensorProto::FLOAT);
  path = internal.Write("string_inside.onnx");
  EXPECT_EQ(ErrorOf(path), path + ": error: tensor 's' has unsupported dtype STRING");
}

TEST(OnnxImporterTest, ControlFlowBeforeOpset11AndOtherSubgraphOpsAreRefused) {
  OnnxModelBuilder old(/*opset=*/10);
  old.Input("c", TensorProto::BOOL, {}).Output("y");
  onnx::NodeProto& node = old.Node("If", {"c"}, {"y"}, "branch");
  for (const char* name : {"then_branch", "else_branch"}) {
    auto* attr = node.add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::GRAPH);
    attr->mutable_g()->set_name(name);
  }
  std::string path = old.Write("if_opset10.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node 'branch' (If): control flow (If, Loop, Scan) needs "
                               "opset 11 or newer; the model imports opset 10");

  OnnxModelBuilder other;
  other.Input("x", TensorProto::FLOAT, {2}).Output("y");
  onnx::NodeProto& relu = other.Node("Relu", {"x"}, {"y"}, "odd");
  auto* attr = relu.add_attribute();
  attr->set_name("extra");
  attr->set_type(onnx::AttributeProto::GRAPH);
  attr->mutable_g()->set_name("extra");
  path = other.Write("relu_graph_attr.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node 'odd' (Relu): ops with subgraphs other than If, "
                               "Loop and Scan are not supported");
}

TEST(OnnxImporterTest, GraphStructureErrors) {
  OnnxModelBuilder undefined_input;
  undefined_input.Input("x", TensorProto::FLOAT, {2}).Output("y");
  undefined_input.Node("Add", {"x", "later"}, {"y"}, "add");
  undefined_input.Node("Relu", {"x"}, {"later"});
  std::string path = undefined_input.Write("use_before_def.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node 'add' (Add): reads tensor 'later', which no graph "
                               "input, initializer or earlier node defines");

  OnnxModelBuilder twice;
  twice.Input("x", TensorProto::FLOAT, {2}).Output("y");
  twice.Node("Relu", {"x"}, {"y"});
  twice.Node("Neg", {"x"}, {"y"});
  path = twice.Write("defined_twice.onnx");
  EXPECT_EQ(ErrorOf(path), path + ": error: node #1 (Neg): output 'y' is already defined");

  OnnxModelBuilder shadow;
  shadow.Input("x", TensorProto::FLOAT, {2}).Output("x");
  shadow.Node("Relu", {"x"}, {"x"});
  path = shadow.Write("shadow_input.onnx");
  EXPECT_EQ(ErrorOf(path), path + ": error: node #0 (Relu): output 'x' is already defined");

  OnnxModelBuilder twice_init;
  twice_init.Input("x", TensorProto::FLOAT, {2}).Weight("w", {2}).Weight("w", {2}).Output("y");
  twice_init.Node("Add", {"x", "w"}, {"y"});
  path = twice_init.Write("initializer_twice.onnx");
  EXPECT_EQ(ErrorOf(path), path + ": error: initializer 'w' is defined twice");

  OnnxModelBuilder no_output;
  no_output.Input("x", TensorProto::FLOAT, {2}).Output("y").Output("ghost");
  no_output.Node("Relu", {"x"}, {"y"});
  path = no_output.Write("ghost_output.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: graph output 'ghost' is not defined by any node, "
                               "initializer or graph input");
}

TEST(OnnxImporterTest, ShapeInferenceFailureNamesTheNode) {
  OnnxModelBuilder b;
  b.Input("a", TensorProto::FLOAT, {2, 3}).Input("b", TensorProto::FLOAT, {4, 5}).Output("y");
  b.Node("Add", {"a", "b"}, {"y"}, "bad_add");
  const std::string path = b.Write("broadcast.onnx");
  const std::string error = ErrorOf(path);
  EXPECT_THAT(error, HasSubstr(path + ": error: ONNX shape inference failed at node 'bad_add' (Add): "));
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// libonnx 1.12's Conv inference dereferences null for a rank-2 input; the
// importer runs inference in a child process, so this is an error, not a
// crash. (Sanitizer builds print the child's report to stderr.)
TEST(OnnxImporterTest, ShapeInferenceCrashIsAnError) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {4, 4}).Weight("w", {2, 2, 3, 3}).Output("y");
  b.Node("Conv", {"x", "w"}, {"y"}, "conv");
  const std::string path = b.Write("conv_rank2.onnx");
  EXPECT_THAT(ErrorOf(path), HasSubstr(path + ": error: ONNX shape inference crashed ("));
}

onnx::ModelProto& ImportDomain(OnnxModelBuilder& b, const std::string& domain) {
  auto* op = b.model().add_opset_import();
  op->set_domain(domain);
  op->set_version(1);
  return b.model();
}

TEST(OnnxImporterTest, CustomDomainOpWithDeclaredShapes) {
  OnnxModelBuilder b;
  ImportDomain(b, "com.example");
  b.Input("x", TensorProto::FLOAT, {2, 2}).ValueInfo("y", TensorProto::FLOAT, {2, 2}).Output("z");
  b.Node("Blur", {"x"}, {"y"}, "blur").set_domain("com.example");
  b.Node("Relu", {"y"}, {"z"});
  absl::StatusOr<Program> p = ImportOnnx(b.Write("custom.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  const Op& blur = DefiningOp(*p, "y");
  EXPECT_EQ(blur.opcode, "onnx.com.example.Blur");
  EXPECT_EQ(blur.cost.flops, 0);
  EXPECT_EQ(blur.cost.bytes_accessed, 32);
  EXPECT_EQ(ValueNamed(*p, "z").size, 16);
}

TEST(OnnxImporterTest, CustomDomainOpWithoutShapes) {
  OnnxModelBuilder b;
  ImportDomain(b, "com.example");
  b.Input("x", TensorProto::FLOAT, {2, 2}).Output("z");
  b.Node("Blur", {"x"}, {"y"}, "blur").set_domain("com.example");
  b.Node("Relu", {"y"}, {"z"});
  const std::string path = b.Write("custom_unshaped.onnx");
  EXPECT_EQ(ErrorOf(path),
            path +
                ": error: node 'blur' (com.example.Blur): output 'y' has no inferred "
                "type (the op is not in libonnx's schema registry; give its outputs "
                "shapes in value_info)");
}

TEST(OnnxImporterTest, DomainMustBeImported) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2}).Output("y");
  b.Node("Blur", {"x"}, {"y"}, "blur").set_domain("com.example");
  const std::string path = b.Write("unimported_domain.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node 'blur' (com.example.Blur): domain 'com.example' is "
                               "not imported by the model");
}

TEST(OnnxImporterTest, DeadOutputWithoutShapeIsLeftOut) {
  OnnxModelBuilder b(9, 3);
  b.Input("x", TensorProto::FLOAT, {2, 3}).Output("y");
  b.Node("Dropout", {"x"}, {"d", "mask"});  // opset 9 infers no shape for the mask
  b.Node("Relu", {"d"}, {"y"});
  absl::StatusOr<Program> p = ImportOnnx(b.Write("dropout9.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->FindValue("mask"), kNoId);
  EXPECT_EQ(DefiningOp(*p, "d").results.size(), 1u);
}

TEST(OnnxImporterTest, TensorNamesAreKeptVerbatim) {
  OnnxModelBuilder b;
  b.Input("in put/0:x", TensorProto::FLOAT, {3}).Output("out%1 \"q\"");
  b.Node("Relu", {"in put/0:x"}, {"out%1 \"q\""});
  absl::StatusOr<Program> p = ImportOnnx(b.Write("names.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_NE(p->FindValue("in put/0:x"), kNoId);
  EXPECT_NE(p->FindValue("out%1 \"q\""), kNoId);
}

TEST(OnnxImporterTest, NamesMustBeUtf8) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {3}).Output("y");
  b.Node("Relu", {"x"}, {"y"}, "bad\xff");
  const std::string path = b.Write("bad_utf8.onnx");
  EXPECT_EQ(ErrorOf(path), path +
                               ": error: node #0: its name is not valid UTF-8 text (or contains a "
                               "NUL byte)");
  OnnxModelBuilder nul;
  nul.Input("x", TensorProto::FLOAT, {3}).Output(std::string("y\0z", 3));
  nul.Node("Relu", {"x"}, {std::string("y\0z", 3)});
  const std::string nul_path = nul.Write("nul_name.onnx");
  EXPECT_EQ(ErrorOf(nul_path), nul_path +
                                   ": error: the name of graph output #0 is not valid UTF-8 text "
                                   "(or contains a NUL byte)");
}

TEST(OnnxImporterTest, InitializerListedAsInputIsAConstant) {
  // IR version 3 models list every initializer among the graph inputs.
  OnnxModelBuilder b(9, 3);
  b.Input("x", TensorProto::FLOAT, {2})
      .Input("w", TensorProto::FLOAT, {2})
      .Weight("w", {2})
      .Output("y");
  b.Node("Add", {"x", "w"}, {"y"});
  absl::StatusOr<Program> p = ImportOnnx(b.Write("ir3_inputs.onnx"), {});
  ASSERT_TRUE(p.ok()) << p.status();
  // One param per tensor: "x" (external), then "w" once, as a constant.
  ASSERT_EQ(p->computations[p->entry].params.size(), 2u);
  EXPECT_EQ(p->values[p->computations[p->entry].params[1]].name, "w");
  EXPECT_EQ(ValueNamed(*p, "w").lifetime, Lifetime::kConstant);
}

}  // namespace
}  // namespace memplan
