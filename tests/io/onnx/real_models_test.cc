// The importer on the real models of ../shared/data/onnx (see its SOURCES.md)
// and the bundled examples/mobilenet_v2.onnx.
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/onnx/importer.h"
#include "ir/dtype.h"
#include "ir/validate.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;

const std::string kOnnxDir = MEMPLAN_SHARED_DIR "/data/onnx";

// Expected counts, taken independently with tests/data/onnx/fold_counts.py
// (the onnx Python package): ops = nodes that do not fold (initializers are
// constant entry params, not ops; folded shape computations take no step);
// values = graph inputs that are not initializers + initializers + named
// outputs of the remaining nodes + folded outputs something remaining reads,
// less the zoo-light Dropout masks (never read, no inferable shape in
// opset 9). Before folding took nodes out, ops were the node counts (bert
// 1063, deeplabv3 206, inception_v3 316, mobilenet_v2 209, the zoo-light
// models 40, 237, 415, 105, 82).
struct Expected {
  int ops;
  int values;
};
const std::map<std::string, Expected>& ExpectedCounts() {
  static const std::map<std::string, Expected> counts = {
      {"torchvision/bert_base_seq128.onnx", {739, 969}},
      {"torchvision/deeplabv3_resnet50.onnx", {192, 263}},
      {"torchvision/efficientnet_b0.onnx", {298, 404}},
      {"torchvision/inception_v3.onnx", {307, 424}},
      {"torchvision/mobilenet_v2.onnx", {139, 277}},
      {"torchvision/mobilenet_v3_small.onnx", {178, 250}},
      {"torchvision/resnet18.onnx", {65, 92}},
      {"torchvision/resnet50.onnx", {169, 231}},
      {"torchvision/squeezenet1_1.onnx", {83, 118}},
      {"torchvision/vgg16.onnx", {48, 71}},
      {"zoo-light/light_bvlc_alexnet.onnx", {32, 60 - 2}},
      {"zoo-light/light_inception_v1.onnx", {200, 357 - 1}},
      {"zoo-light/light_resnet50.onnx", {229, 685}},
      {"zoo-light/light_squeezenet.onnx", {84, 159 - 1}},
      {"zoo-light/light_vgg19.onnx", {64, 124 - 2}},
  };
  return counts;
}

std::vector<std::string> SharedModels() {
  std::vector<std::string> models;
  for (const char* dir : {"torchvision", "zoo-light"}) {
    const fs::path folder = fs::path(kOnnxDir) / dir;
    if (!fs::is_directory(folder)) continue;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() == ".onnx")
        models.push_back(std::string(dir) + "/" + entry.path().filename().string());
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

int CountAlias(const Program& p, AliasKind kind) {
  return static_cast<int>(std::count_if(p.values.begin(), p.values.end(),
                                        [kind](const Value& v) { return v.alias == kind; }));
}

TEST(OnnxRealModelsTest, EverySharedModelImports) {
  const std::vector<std::string> models = SharedModels();
  if (models.empty()) GTEST_SKIP() << "no shared data at " << kOnnxDir;
  ASSERT_EQ(models.size(), ExpectedCounts().size());
  for (const std::string& name : models) {
    SCOPED_TRACE(name);
    const std::string path = kOnnxDir + "/" + name;
    for (bool alias : {true, false}) {
      OnnxImportOptions options;
      options.alias = alias;
      options.hoist_constants = false;  // the graph's own nodes, as counted
      absl::StatusOr<Program> p = ImportOnnx(path, options);
      ASSERT_TRUE(p.ok()) << p.status();
      EXPECT_TRUE(ValidateProgram(*p, path).ok());
      const Expected& expected = ExpectedCounts().at(name);
      EXPECT_EQ(static_cast<int>(p->ops.size()), expected.ops);
      EXPECT_EQ(static_cast<int>(p->values.size()), expected.values);
      for (const Value& v : p->values) {
        ASSERT_TRUE(v.type.has_value()) << v.name;
        EXPECT_EQ(TensorBytes(*v.type).value_or(-1), v.size) << v.name;
        EXPECT_GT(v.size, 0) << v.name;
      }
      if (!alias) {
        EXPECT_EQ(CountAlias(*p, AliasKind::kView) + CountAlias(*p, AliasKind::kTied), 0);
      }
    }
  }
}

// Constant-only ops leave the schedule (io/onnx/hoist_constants.h): no op
// of the entry computes only constants, the schedule is shorter wherever
// the graph has such nodes, and no value is lost that a kept op reads.
TEST(OnnxRealModelsTest, ConstantOnlyOpsLeaveEveryModel) {
  const std::vector<std::string> models = SharedModels();
  if (models.empty()) GTEST_SKIP() << "no shared data at " << kOnnxDir;
  for (const std::string& name : models) {
    SCOPED_TRACE(name);
    absl::StatusOr<Program> p = ImportOnnx(kOnnxDir + "/" + name, {});
    ASSERT_TRUE(p.ok()) << p.status();
    const Computation& entry = p->computations[p->entry];
    for (OpId o : entry.ops) {
      const Op& op = p->ops[o];
      const bool all_constant = !op.results.empty() &&
          std::all_of(op.results.begin(), op.results.end(), [&](ValueId r) {
            return p->values[r].lifetime == Lifetime::kConstant;
          });
      EXPECT_FALSE(all_constant && op.opcode.starts_with("onnx.")) << p->OpName(o);
    }
    EXPECT_LT(static_cast<int>(entry.ops.size()), ExpectedCounts().at(name).ops);
  }
}

TEST(OnnxRealModelsTest, ZooLightConstantOfShapeWeightsAreConstants) {
  const std::vector<std::string> models = SharedModels();
  int checked = 0;
  for (const std::string& name : models) {
    if (name.rfind("zoo-light/", 0) != 0) continue;
    SCOPED_TRACE(name);
    OnnxImportOptions options;
    options.hoist_constants = false;  // the ConstantOfShape ops themselves
    absl::StatusOr<Program> p = ImportOnnx(kOnnxDir + "/" + name, options);
    ASSERT_TRUE(p.ok()) << p.status();
    int weights = 0;
    for (const Op& op : p->ops) {
      if (op.opcode != "onnx.ConstantOfShape") continue;
      ASSERT_EQ(op.results.size(), 1u);
      EXPECT_EQ(p->values[op.results[0]].lifetime, Lifetime::kConstant)
          << p->values[op.results[0]].name;
      ++weights;
    }
    EXPECT_GT(weights, 0);
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no zoo-light models at " << kOnnxDir;
  EXPECT_EQ(checked, 5);
}

// Each of the 35 ReLU6 (Clip) writes over the Conv output it follows, and each
// of the 10 residual Adds over one of its dying inputs; the Flatten before
// the classifier is a view of the pooled features.
void ExpectMobilenetV2Aliasing(const std::string& path) {
  absl::StatusOr<Program> p = ImportOnnx(path, {});
  ASSERT_TRUE(p.ok()) << p.status();
  int clips = 0;
  int adds = 0;
  for (const Op& op : p->ops) {
    const Value& out = p->values[op.results.empty() ? 0 : op.results[0]];
    if (op.opcode == "onnx.Clip") {
      ++clips;
      EXPECT_EQ(out.alias, AliasKind::kTied) << out.name;
      EXPECT_EQ(out.alias_of, op.operands[0]) << out.name;
      EXPECT_EQ(p->ops[p->values[op.operands[0]].defining_op].opcode, "onnx.Conv");
    } else if (op.opcode == "onnx.Add") {
      ++adds;
      EXPECT_EQ(out.alias, AliasKind::kTied) << out.name;
    }
  }
  EXPECT_EQ(clips, 35);
  EXPECT_EQ(adds, 10);
  EXPECT_EQ(CountAlias(*p, AliasKind::kTied), 35 + 10);
  const ValueId flatten = [&] {
    for (const Op& op : p->ops) {
      if (op.opcode == "onnx.Flatten") return op.results[0];
    }
    return kNoId;
  }();
  ASSERT_NE(flatten, kNoId);
  EXPECT_EQ(p->values[flatten].alias, AliasKind::kView);
}

TEST(OnnxRealModelsTest, MobilenetV2HasViewsAndTies) {
  const std::string path = kOnnxDir + "/torchvision/mobilenet_v2.onnx";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  ExpectMobilenetV2Aliasing(path);
}

TEST(OnnxRealModelsTest, BundledMobilenetV2) {
  ExpectMobilenetV2Aliasing(MEMPLAN_SOURCE_DIR "/examples/mobilenet_v2.onnx");
}

}  // namespace
}  // namespace memplan
