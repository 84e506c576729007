// Views and in-place results never cost memory: on every bundled and shared
// ONNX model the default import packs its transient pool in no more bytes
// than with --no-alias (the alias pass takes a view only where the live
// profile's peak does not rise: io/onnx/alias_profile.h). One plan job per
// model measures both (PlanJobResult::aliasing); the shared models
// (../shared/data/onnx) are skipped when absent. About 3.4 s in release for the
// 22 models: one test, as it is one property of the whole set.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "driver/plan_job.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> OnnxModels() {
  std::vector<std::string> models;
  const auto add_folder = [&](const fs::path& folder) {
    if (!fs::is_directory(folder)) return;
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      // The error-test inputs of tests/data/onnx are not models to plan.
      if (entry.path().extension() != ".onnx" || name == "text.onnx" || name == "image.onnx" ||
          name == "symbolic_inputs.onnx") {
        continue;
      }
      found.push_back(entry.path().string());
    }
    std::sort(found.begin(), found.end());
    models.insert(models.end(), found.begin(), found.end());
  };
  add_folder(fs::path(MEMPLAN_SOURCE_DIR) / "examples");
  add_folder(fs::path(MEMPLAN_SOURCE_DIR) / "tests/data/onnx");
  add_folder(fs::path(MEMPLAN_SHARED_DIR) / "data/onnx/torchvision");
  add_folder(fs::path(MEMPLAN_SHARED_DIR) / "data/onnx/zoo-light");
  return models;
}

TEST(OnnxViewsPeakTest, DefaultTransientExtentNeverAboveNoAlias) {
  const std::vector<std::string> models = OnnxModels();
  ASSERT_GE(models.size(), 10u);  // the bundled ones at least
  for (const std::string& model : models) {
    PlanJobOptions options;
    options.measure_aliasing = true;
    absl::StatusOr<PlanJobResult> result = RunPlanJob(model, options);
    ASSERT_TRUE(result.ok()) << model << ": " << result.status();
    ASSERT_TRUE(result->aliasing.has_value()) << model;
    EXPECT_LE(result->aliasing->aliased_peak, result->aliasing->unaliased_peak) << model;
  }
}

// A language-model head: logits = MatMul(Relu(h), W) [1,16,1024] (65,536 B)
// and the graph output Add(bias, logits), as exporters write it. With the
// Add writing in place into the output, the MatMul writes the logits into the
// caller's buffer: the transient pool keeps only Relu's 4,096 B. Without
// (--no-alias) it holds the Relu result and the logits together at the MatMul.
TEST(OnnxViewsPeakTest, AnOutputWrittenInPlaceDropsTheLogitsCopy) {
  testing::OnnxModelBuilder b;
  b.Input("h", onnx::TensorProto::FLOAT, {1, 16, 64}).Weight("w", {64, 1024});
  b.Weight("bias", {1024}).Output("out");
  b.Node("Relu", {"h"}, {"r"});
  b.Node("MatMul", {"r", "w"}, {"logits"});
  b.Node("Add", {"bias", "logits"}, {"out"});
  PlanJobOptions options;
  options.measure_aliasing = true;
  absl::StatusOr<PlanJobResult> result = RunPlanJob(b.Write("lm_head.onnx"), options);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->aliasing.has_value());
  EXPECT_EQ(result->aliasing->aliased_peak, 4096);
  EXPECT_EQ(result->aliasing->unaliased_peak, 4096 + 65536);
}

}  // namespace
}  // namespace memplan
