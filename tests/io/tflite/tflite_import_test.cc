// The TFLite importer on models built in the test (tflite_test_models.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/tflite/importer.h"
#include "io/tflite/model.h"
#include "tests/io/tflite/tflite_test_models.h"

namespace memplan {
namespace {

using tflite_test::BuildModel;
using tflite_test::ConvReshapeFc;

absl::StatusOr<TfliteImport> ImportBytes(const std::string& bytes, TfliteImportOptions options = {}) {
  absl::StatusOr<TfliteModel> model =
      ParseTfliteModel(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), "m.tflite");
  if (!model.ok()) return model.status();
  return ImportTfliteModel(*model, "m.tflite", options);
}

const Value& TfliteValueNamed(const Program& p, std::string_view name) {
  const ValueId v = p.FindValue(name);
  EXPECT_NE(v, kNoId) << name;
  return p.values[v];
}

TEST(TfliteModelTest, ParsesTablesByFieldId) {
  const std::string bytes = BuildModel(ConvReshapeFc());
  absl::StatusOr<TfliteModel> model =
      ParseTfliteModel(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), "m");
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->version, 3u);
  ASSERT_EQ(model->operator_codes.size(), 3u);
  EXPECT_EQ(model->operator_codes[1].builtin, 22);
  ASSERT_EQ(model->subgraphs.size(), 1u);
  const TfliteSubgraph& sg = model->subgraphs[0];
  ASSERT_EQ(sg.tensors.size(), 6u);
  EXPECT_EQ(sg.tensors[2].name, "conv");
  EXPECT_EQ(sg.tensors[2].shape, (std::vector<std::int32_t>{1, 4, 4, 4}));
  EXPECT_EQ(sg.tensors[4].buffer, 2u);
  EXPECT_EQ(model->buffers[2].data_bytes, 512u);
  EXPECT_EQ(sg.operators[0].inputs, (std::vector<std::int32_t>{0, 1, -1}));
}

TEST(TfliteImportTest, TensorsOpsLifetimesViewsAndCosts) {
  absl::StatusOr<TfliteImport> imported = ImportBytes(BuildModel(ConvReshapeFc()));
  ASSERT_TRUE(imported.ok()) << imported.status();
  const Program& p = imported->program;
  EXPECT_EQ(TfliteValueNamed(p, "input").size, 32);
  EXPECT_EQ(TfliteValueNamed(p, "input").lifetime, Lifetime::kTransient);
  EXPECT_EQ(TfliteValueNamed(p, "filter").lifetime, Lifetime::kConstant);
  EXPECT_EQ(TfliteValueNamed(p, "weights").size, 512);
  EXPECT_EQ(TfliteValueNamed(p, "output").lifetime, Lifetime::kTransient);
  const Value& reshape = TfliteValueNamed(p, "reshape");
  EXPECT_EQ(reshape.alias, AliasKind::kView);
  EXPECT_EQ(reshape.alias_of, p.FindValue("conv"));
  const Computation& main = p.computations[p.entry];
  ASSERT_EQ(main.ops.size(), 3u);
  const Op& conv = p.ops[main.ops[0]];
  EXPECT_EQ(conv.opcode, "tflite.CONV_2D");
  EXPECT_EQ(conv.operands.size(), 2u);  // the absent bias (-1) is skipped
  EXPECT_EQ(conv.cost.flops, 256);      // 2 * 64 outputs * 1 * 1 * 2 input channels
  EXPECT_EQ(p.ops[main.ops[1]].cost.bytes_accessed, 0);
  EXPECT_EQ(p.ops[main.ops[2]].cost.flops, 1024);  // 2 * 8 * 64
  EXPECT_EQ(imported->tensor_values[3], p.FindValue("reshape"));
}

TEST(TfliteImportTest, NoAliasKeepsReshapeACopy) {
  TfliteImportOptions options;
  options.alias = false;
  absl::StatusOr<TfliteImport> imported = ImportBytes(BuildModel(ConvReshapeFc()), options);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(TfliteValueNamed(imported->program, "reshape").alias, AliasKind::kNone);
}

TEST(TfliteImportTest, OfflineOffsetsThatDisagreeKeepReshapeACopy) {
  TfliteImportOptions options;
  options.offline_offsets = {0, -1, 32, 96, -1, 0};
  absl::StatusOr<TfliteImport> imported = ImportBytes(BuildModel(ConvReshapeFc()), options);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(TfliteValueNamed(imported->program, "reshape").alias, AliasKind::kNone);
}

TEST(TfliteImportTest, UnwrittenTensorIsAllocatedAtItsFirstUse) {
  tflite_test::Model m = ConvReshapeFc();
  // A scratch tensor (as Vela's) read by the fc op and written by none.
  m.subgraphs[0].tensors.push_back({{100}, 9, 0, "scratch"});
  m.subgraphs[0].operators[2].inputs = {3, 4, 6};
  absl::StatusOr<TfliteImport> imported = ImportBytes(BuildModel(m));
  ASSERT_TRUE(imported.ok()) << imported.status();
  const Program& p = imported->program;
  const Value& scratch = TfliteValueNamed(p, "scratch");
  EXPECT_EQ(scratch.size, 100);
  EXPECT_EQ(p.ops[scratch.defining_op].opcode, "tflite.allocate");
}

TEST(TfliteImportTest, VariablesPersist) {
  tflite_test::Model m = ConvReshapeFc();
  m.subgraphs[0].tensors.push_back({{16}, 9, 0, "state", true});
  m.subgraphs[0].operators[2].inputs = {3, 4, 6};
  absl::StatusOr<TfliteImport> imported = ImportBytes(BuildModel(m));
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(TfliteValueNamed(imported->program, "state").lifetime, Lifetime::kVariable);
}

// main: WHILE(counter, x) with cond (LESS) and body (ADD, ADD), then IF.
tflite_test::Model ControlFlowModel() {
  tflite_test::Model m;
  m.opcodes = {{119, ""}, {58, ""}, {0, ""}, {118, ""}, {18, ""}};
  tflite_test::Subgraph main;
  main.tensors = {{{}, 2, 0, "n"}, {{8}, 0, 0, "x"}, {{}, 2, 0, "n_out"}, {{8}, 0, 0, "x_out"},
                  {{}, 6, 0, "pred"}, {{8}, 0, 0, "y"}};
  main.inputs = {0, 1, 4};
  main.outputs = {5};
  main.operators = {{0, {0, 1}, {2, 3}, {1, 2}}, {3, {4, 3}, {5}, {3, 4}}};
  tflite_test::Subgraph cond;
  cond.tensors = {{{}, 2, 0, "n"}, {{8}, 0, 0, "x"}, {{}, 6, 0, "lt"}};
  cond.inputs = {0, 1};
  cond.outputs = {2};
  cond.operators = {{1, {0, 0}, {2}, {}}};
  cond.name = "cond";
  tflite_test::Subgraph body;
  body.tensors = {{{}, 2, 0, "n"}, {{8}, 0, 0, "x"}, {{}, 2, 0, "n1"}, {{8}, 0, 0, "x1"}};
  body.inputs = {0, 1};
  body.outputs = {2, 3};
  body.operators = {{2, {0, 0}, {2}, {}}, {2, {1, 1}, {3}, {}}};
  body.name = "body";
  tflite_test::Subgraph then_branch;
  then_branch.tensors = {{{8}, 0, 0, "a"}, {{8}, 0, 0, "b"}};
  then_branch.inputs = {0};
  then_branch.outputs = {1};
  then_branch.operators = {{4, {0, 0}, {1}, {}}};
  tflite_test::Subgraph else_branch = then_branch;
  else_branch.operators = {{2, {0, 0}, {1}, {}}};
  m.subgraphs = {main, cond, body, then_branch, else_branch};
  return m;
}

TEST(TfliteImportTest, WhileAndIfBecomeControlFlow) {
  absl::StatusOr<TfliteImport> imported = ImportBytes(BuildModel(ControlFlowModel()));
  ASSERT_TRUE(imported.ok()) << imported.status();
  const Program& p = imported->program;
  const Computation& main = p.computations[p.entry];
  std::vector<std::string> opcodes;
  for (OpId op : main.ops) opcodes.push_back(p.ops[op].opcode);
  // The loop's inputs are graph inputs (parameters): copied before the loop.
  EXPECT_THAT(opcodes, ::testing::ElementsAre("copy", "copy", "while", "conditional"));
  const Op& loop = p.ops[main.ops[2]];
  ASSERT_EQ(loop.callees.size(), 2u);
  EXPECT_EQ(p.computations[loop.callees[0]].name, "while0/cond");
  EXPECT_EQ(p.computations[loop.callees[1]].name, "while0/body");
  EXPECT_EQ(loop.results.size(), 2u);
  const Op& branch = p.ops[main.ops[3]];
  ASSERT_EQ(branch.callees.size(), 2u);
  EXPECT_EQ(p.computations[branch.callees[0]].name, "if1/then");
  EXPECT_EQ(p.values[branch.results[0]].size, 32);
}

TEST(TfliteImportTest, RecursiveSubgraphsAreRefused) {
  tflite_test::Model m = ControlFlowModel();
  m.subgraphs[2].operators.push_back({0, {2, 3}, {}, {1, 2}});  // body calls WHILE(body)
  m.subgraphs[2].operators.back().outputs = {2, 3};
  m.subgraphs[2].tensors.push_back({{}, 2, 0, "unused"});
  absl::StatusOr<TfliteImport> imported = ImportBytes(BuildModel(m));
  ASSERT_FALSE(imported.ok());
  EXPECT_THAT(imported.status().message(), ::testing::HasSubstr("calls itself"));
}

TEST(TfliteImportTest, SignatureMismatchIsAnError) {
  tflite_test::Model m = ControlFlowModel();
  m.subgraphs[2].outputs = {2};
  absl::StatusOr<TfliteImport> imported = ImportBytes(BuildModel(m));
  ASSERT_FALSE(imported.ok());
  EXPECT_THAT(imported.status().message(),
              ::testing::HasSubstr("m.tflite: error: subgraph 0 operator 0 calls subgraph 2 with 2 "
                                 "inputs and 2 outputs, but it has 2 and 1"));
}

}  // namespace
}  // namespace memplan
