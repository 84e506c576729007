// Staged copies in the hierarchy simulator (msa/hierarchy_simulator.h): an
// eviction staged through the slowest level runs one leg on each link's
// queue, contends with a direct copy on the shared link, and the step that
// awaits it waits for its second leg; FindCopyRoute picks the fastest
// intermediate level.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "msa/cost_model.h"
#include "msa/hierarchy_simulator.h"
#include "msa/target_spaces.h"
#include "nlohmann/json.hpp"
#include "tests/msa/msa_test_util.h"

namespace memplan {
namespace {

using testing::Analyze;
using testing::BufferOf;
using testing::EmptyResult;

// l0 (level 0, space 1), mid (level 1, space 2), dram (level 2, the slowest
// writable: space 0, 100 us latency). Links l0 <-> dram at 1e6 B/s and
// dram -> mid at 5e5 B/s: mid is reached from l0 only through dram.
Target ThreeLevels() {
  const std::string text = R"({"name": "stage", "flops_per_second": 1e6,
   "transcendentals_per_second": 1e5,
   "spaces": [
    {"name": "l0", "capacity_bytes": 4096, "read_bandwidth": 1e9, "write_bandwidth": 1e9},
    {"name": "mid", "capacity_bytes": 4096, "read_bandwidth": 1e9, "write_bandwidth": 1e9},
    {"name": "dram", "capacity_bytes": 65536, "read_bandwidth": 1e9, "write_bandwidth": 1e9,
     "latency_seconds": 1e-4}],
   "links": [
    {"from": "l0", "to": "dram", "bandwidth": 1e6},
    {"from": "dram", "to": "l0", "bandwidth": 1e6},
    {"from": "dram", "to": "mid", "bandwidth": 5e5}]})";
  absl::StatusOr<Target> t = HierarchyTargetFromJson(nlohmann::json::parse(text), text, "t.json");
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : Target{};
}

// Four ops of 1000 flops: 1 ms each (their bytes take microseconds).
constexpr const char* kProgram = R"(entry func @main(%x: i8[1000] external) {
  %a = exp(%x) : i8[1000] {flops = 1000}
  %b = relu(%x) : i8[1000] {flops = 1000}
  %c = relu(%b) : i8[1000] {flops = 1000}
  %d = add(%a, %c) : i8[1000] external {flops = 1000}
  return %d
}
)";

TEST(StagedCopySimulationTest, AStagedEvictionRunsOneLegPerLinkQueue) {
  const Target target = ThreeLevels();
  ASSERT_EQ(FindCopyRoute(target, 0, 1)->via, 2);  // l0 -> dram -> mid
  ASSERT_EQ(FindCopyRoute(target, 0, 2)->via, -1);  // l0 -> dram: direct
  EXPECT_FALSE(FindCopyRoute(target, 1, 0));       // mid -> l0: no route
  auto a = Analyze(kProgram);
  ASSERT_NE(a, nullptr);
  const CostModel cost(a->program, a->analysis, target);
  const BufferId ba = BufferOf(*a, "a"), bb = BufferOf(*a, "b");
  MsaResult r = EmptyResult(*a);
  // Both issued after step 0 (at 1 ms), done before step 3; a's eviction
  // first: its leg l0 -> dram takes [1, 2] ms, its leg dram -> mid 0.1 ms
  // latency + 2 ms: [2, 4.1] ms; b's direct eviction waits for the l0 ->
  // dram queue: [2, 3] ms.
  AsyncCopy staged{ba, CopyKind::kEviction, kAlternateSpace, 2, 0, 3, 1000};
  staged.via = CopyVia{kDefaultSpace, 0};
  r.copies = {staged, AsyncCopy{bb, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, 0, 3, 1000}};
  std::vector<MemorySpace> home(a->analysis.buffers.buffers.size(), kDefaultSpace);
  home[static_cast<std::size_t>(ba)] = 2;
  const SimulationResult s = SimulateHierarchy(a->analysis, cost, target, r, home);
  // Steps 0-2 end at 3 ms; step 3 waits for the staged eviction until 4.1
  // ms, then runs 1 ms.
  EXPECT_NEAR(s.copy_busy_s, 1e-3 + 2.1e-3 + 1e-3, 1e-12);
  EXPECT_NEAR(s.copy_wait_s, 1.1e-3, 1e-12);
  EXPECT_NEAR(s.elapsed_s, 5.1e-3, 1e-12);
  // The same eviction unstaged (a homed in dram) is done at 2 ms: no wait.
  r.copies[0].via.reset();
  r.copies[0].to_space = kDefaultSpace;
  home[static_cast<std::size_t>(ba)] = kDefaultSpace;
  EXPECT_NEAR(SimulateHierarchy(a->analysis, cost, target, r, home).elapsed_s, 4e-3, 1e-12);
}

}  // namespace
}  // namespace memplan
