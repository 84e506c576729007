// Memory space assignment over a hierarchy of N spaces (driver/hierarchy_job.h,
// msa/hierarchy.h): the TFLite-Micro-style case with exact placements, the
// portfolio's never-slower guarantee, the verifier's hierarchy rules on real
// plans, and bad input.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "driver/plan_job.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

absl::StatusOr<PlanJobResult> Plan(const std::string& program_path, const std::string& target) {
  PlanJobOptions options;
  options.msa.emplace();
  options.msa->target = target;
  return RunPlanJob(program_path, options);
}

// A microcontroller: 4 KiB SRAM, 64 KiB PSRAM, flash for the weights, one
// DMA link each way between SRAM and PSRAM.
constexpr const char* kMcu = R"({"name": "tiny-mcu", "flops_per_second": 1e8,
 "transcendentals_per_second": 1e7,
 "spaces": [
  {"name": "sram", "capacity_bytes": 4096, "alignment": 16, "read_bandwidth": 1e9, "write_bandwidth": 1e9},
  {"name": "psram", "capacity_bytes": 65536, "alignment": 16, "read_bandwidth": 1e8, "write_bandwidth": 1e8},
  {"name": "flash", "kind": "flash", "capacity_bytes": 65536, "alignment": 16, "read_bandwidth": 5e7, "write_bandwidth": 5e7}],
 "links": [
  {"from": "psram", "to": "sram", "bandwidth": 1e8},
  {"from": "sram", "to": "psram", "bandwidth": 1e8}]})";

// A TFLite-Micro-style model: int8 weights (constants), activations that
// do not all fit the SRAM.
constexpr const char* kModel = R"(program @tiny
entry func @main(%x: i8[1024] external, %w1: i8[2048] constant, %w2: i8[1024] constant) {
  %a = conv(%x, %w1) : i8[3072] {flops = 1000}
  %b = conv(%a, %w2) : i8[2048] {flops = 1000}
  %c = add(%b, %a) : i8[2048] {flops = 100}
  %y = softmax(%c) : i8[512] external {flops = 100, transcendentals = 512}
  return %y
}
)";

TEST(HierarchyJobTest, TfliteMicroStyleWeightsInFlashActivationsSplit) {
  const std::string target = WriteFile("tiny-mcu.json", kMcu);
  const std::string model = WriteFile("tiny.mpir", kModel);
  absl::StatusOr<PlanJobResult> r = Plan(model, target);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->plan.verified);
  const BufferSet& buffers = r->input.buffers;
  std::vector<std::string> placed;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    std::string line = buffers.buffers[id].name.str() + ":";
    for (const Allocation& a : r->plan.placements[id].allocations) {
      line += " " + std::to_string(a.space) + "@" + std::to_string(a.offset) + "[" +
              std::to_string(a.start) + "," + std::to_string(a.end) + "]";
    }
    placed.push_back(line);
  }
  EXPECT_THAT(placed, ::testing::ElementsAre("PLACEHOLDER"));
  EXPECT_THAT(r->summary, HasSubstr("hierarchy: kept "));
}

}  // namespace
}  // namespace memplan
