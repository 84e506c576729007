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

}  // namespace
}  // namespace memplan
