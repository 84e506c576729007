// The executor passes on the plans of the shared models (../shared/data),
// with and without fast memory; skipped when the data is absent. The TFLite
// models always run (about a second each in a debug build); the ONNX models
// take 2-45 s each in a debug build, so they run only in release builds
// without sanitizers: four by default (mobilenet_v2, squeezenet1_1,
// efficientnet_b0, bert_base_seq128), all with MEMPLAN_EXECUTE_ALL_SHARED=1.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tests/execute/execute_fixture.h"

namespace memplan {
namespace {

using execute_testing::Execute;
using execute_testing::PlanForExecution;

const std::string kSharedData = MEMPLAN_SHARED_DIR "/data";

void ExpectSharedExecutes(const std::string& path) {
  for (std::optional<Bytes> fast : {std::optional<Bytes>{}, std::optional<Bytes>{Bytes{2} << 20}}) {
    SCOPED_TRACE(path + (fast ? " with 2 MiB of fast memory" : ""));
    const PlanJobResult planned = PlanForExecution(path, fast);
    absl::StatusOr<ExecuteReport> run = Execute(planned, planned.plan);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_GE(run->copies, static_cast<std::int64_t>(planned.plan.copies.size()));  // loops replay theirs
  }
}

std::vector<std::string> FilesUnder(const std::string& dir, const std::string& extension) {
  std::vector<std::string> paths;
  if (!std::filesystem::is_directory(dir)) return paths;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() == extension) paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(SharedModels, EveryTfliteModel) {
  const std::vector<std::string> models = FilesUnder(kSharedData + "/tflite", ".tflite");
  if (models.empty()) GTEST_SKIP() << "no shared data at " << kSharedData;
  for (const std::string& model : models) ExpectSharedExecutes(model);
}

TEST(SharedModels, OnnxModels) {
#if !defined(NDEBUG) || defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "release builds without sanitizers only (minutes in a debug build)";
#endif
  std::vector<std::string> models = FilesUnder(kSharedData + "/onnx", ".onnx");
  if (models.empty()) GTEST_SKIP() << "no shared data at " << kSharedData;
  const char* all = std::getenv("MEMPLAN_EXECUTE_ALL_SHARED");
  if (all == nullptr || std::string(all) != "1") {
    std::erase_if(models, [](const std::string& path) {
      const std::string name = std::filesystem::path(path).filename().string();
      return name != "mobilenet_v2.onnx" && name != "squeezenet1_1.onnx" &&
             name != "efficientnet_b0.onnx" && name != "bert_base_seq128.onnx";
    });
  }
  for (const std::string& model : models) ExpectSharedExecutes(model);
}

}  // namespace
}  // namespace memplan
