// The executor passes on every plan memplan makes for the bundled examples
// and the small models of tests/data, with and without fast memory.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "tests/execute/execute_fixture.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using execute_testing::Execute;
using execute_testing::PlanForExecution;

// Inputs of `dir` with one of `extensions`, sorted.
std::vector<std::string> InputsIn(const std::string& dir, const std::set<std::string>& extensions) {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (extensions.count(entry.path().extension().string())) paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

bool HasRegions(const std::string& path) {
  return std::filesystem::path(path).filename().string().rfind("region", 0) == 0;
}

void ExpectExecutes(const std::string& path, std::optional<Bytes> fast_memory,
                    std::map<std::string, std::int64_t> dims = {}) {
  SCOPED_TRACE(path + (fast_memory ? " with fast memory" : ""));
  const PlanJobResult planned = PlanForExecution(path, fast_memory, std::move(dims));
  absl::StatusOr<ExecuteReport> run = Execute(planned, planned.plan);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_GT(run->ops, 0);
  EXPECT_GT(run->bytes_checked, 0);
  if (fast_memory) {
    EXPECT_GE(run->copies, static_cast<std::int64_t>(planned.plan.copies.size()));  // loops replay theirs
  }
}

TEST(PlansInSuite, EveryExample) {
  int inputs = 0;
  for (const std::string& path : InputsIn(MEMPLAN_SOURCE_DIR "/examples", {".mpir", ".onnx"})) {
    // region_dynamic's dims at their bounds need 1 GiB of arena: run it smaller.
    if (path.find("region_dynamic") != std::string::npos) {
      ExpectExecutes(path, std::nullopt, {{"seq", 64}, {"heads", 4}});
    } else {
      ExpectExecutes(path, std::nullopt);
    }
    // Memory space assignment does not plan programs with execution regions.
    if (!HasRegions(path)) ExpectExecutes(path, Bytes{64} * 1024);
    ++inputs;
  }
  EXPECT_EQ(inputs, 17);
}

// Plans on the memory-hierarchy presets: data lives in levels other than
// the default and alternate spaces (a buffer's home is its pool's level,
// e.g. "sram.constant") and is prefetched from there into the first one.
TEST(PlansInSuite, EveryExampleOnTheHierarchyPresets) {
  int runs = 0;
  for (const std::string target : {"npu-3level", "mcu-tcm-sram-psram-flash"}) {
    for (const std::string& path : InputsIn(MEMPLAN_SOURCE_DIR "/examples", {".mpir", ".onnx"})) {
      // Fast slabs of regions: tests/cli/region_fast_memory_cli_test.cc.
      if (HasRegions(path)) continue;
      SCOPED_TRACE(path + " on " + target);
      const PlanJobResult planned = PlanForExecution(path, Bytes{16} * 1024, {}, target);
      ASSERT_TRUE(planned.msa && planned.msa->hierarchy);
      absl::StatusOr<ExecuteReport> run = Execute(planned, planned.plan);
      ASSERT_TRUE(run.ok()) << run.status();
      EXPECT_GE(run->copies, static_cast<std::int64_t>(planned.plan.copies.size()));
      ++runs;
    }
  }
  EXPECT_EQ(runs, 2 * 12);
}

TEST(PlansInSuite, EveryTestModel) {
  int inputs = 0;
  for (const std::string& path : InputsIn(MEMPLAN_SOURCE_DIR "/tests/data/onnx", {".onnx"})) {
    // symbolic_inputs needs --dim; image and text are not ONNX (bad-input tests).
    const std::string name = std::filesystem::path(path).filename().string();
    if (name == "symbolic_inputs.onnx" || name == "image.onnx" || name == "text.onnx") continue;
    ExpectExecutes(path, std::nullopt);
    ++inputs;
  }
  for (const std::string& path : InputsIn(MEMPLAN_SOURCE_DIR "/tests/data/mpir", {".mpir"})) {
    ExpectExecutes(path, std::nullopt);
    ExpectExecutes(path, 24);
    ++inputs;
  }
  EXPECT_EQ(inputs, 19);  // 10 ONNX models, 9 text IR programs
}

TEST(PlansInSuite, ExactFiguresOfBasic) {
  const PlanJobResult planned = PlanForExecution(ExamplePath("basic.mpir"));
  absl::StatusOr<ExecuteReport> run = Execute(planned, planned.plan);
  ASSERT_TRUE(run.ok()) << run.status();
  // Inputs x (512) and bias (64); g (512), y (64) written; h in place (512).
  EXPECT_EQ(run->ops, 5);
  EXPECT_EQ(run->writes, 5);
  EXPECT_EQ(run->bytes_written, 1664);
  EXPECT_EQ(run->bytes_checked, 5568);
  EXPECT_EQ(run->arena_bytes, 1152);
}

TEST(PlansInSuite, LoopsRunTwiceAndCopiesMoveBytes) {
  const PlanJobResult planned =
      PlanForExecution(MEMPLAN_SOURCE_DIR "/tests/data/mpir/evict_then_prefetch.mpir", 24);
  absl::StatusOr<ExecuteReport> run = Execute(planned, planned.plan);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->ops, 17);
  EXPECT_EQ(run->copies, 3);
  EXPECT_EQ(run->bytes_written, 1160);
  EXPECT_EQ(run->arena_bytes, 352);
}

TEST(PlansInSuite, OutputPinnedToFastMemoryIsReadThere) {
  const PlanJobResult planned =
      PlanForExecution(MEMPLAN_SOURCE_DIR "/tests/data/execute/pinned_output.mpir", 1024);
  absl::StatusOr<ExecuteReport> run = Execute(planned, planned.plan);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->ops, 4);
  EXPECT_EQ(run->copies, 1);  // %p2 (8 bytes) prefetched before step 0 for %x3
}

TEST(PlansInSuite, ArenaLimit) {
  const PlanJobResult planned = PlanForExecution(ExamplePath("basic.mpir"));
  ExecuteOptions options;
  options.max_arena_bytes = 1024;
  absl::StatusOr<ExecuteReport> run =
      ExecutePlan(planned.input.buffers, planned.plan, &*planned.input.program, options);
  ASSERT_EQ(run.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(run.status().message()),
            "running this plan needs 1152 bytes of arenas (default 1152), over the executor's "
            "limit of 1024 bytes");
}

}  // namespace
}  // namespace memplan
