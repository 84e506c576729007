// Fast slabs of execution regions (driver/region_fast_memory.h,
// regions/fast_slab.h): which slices go to fast memory, where, the fast
// slab's size and the estimated times, each derived by hand in the comments
// from the edge-npu target (default 8e9 B/s, alternate 64e9 B/s,
// 1e12 flop/s); every plan passes both verifiers.
#include <string>
#include <vector>

#include "driver/region_fast_memory.h"
#include "driver/region_pools.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "tests/driver/region_test_util.h"
#include "verify/region_checks.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct FastPlanned {
  Program program;
  ProgramAnalysis analysis;
  Plan plan;
};

absl::StatusOr<FastPlanned> PlanWithFastMemory(const std::string& file, Bytes fast_bytes,
                                               std::string target = "edge-npu") {
  absl::StatusOr<Program> program = ParseProgramFile(std::string(MEMPLAN_SOURCE_DIR) + "/" + file);
  if (!program.ok()) return program.status();
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(*program);
  if (!analysis.ok()) return analysis.status();
  MsaJobOptions msa;
  msa.target = std::move(target);
  msa.fast_memory_bytes = fast_bytes;
  absl::StatusOr<RegionFastMemorySetup> setup = SetUpRegionFastMemory(*program, *analysis, msa, 1);
  if (!setup.ok()) return setup.status();
  RegionPlanOptions options;
  options.fast_memory = setup->memory;
  absl::StatusOr<Plan> plan = PlanRegions(*program, *analysis, options, PoolPlanOptions{});
  if (!plan.ok()) return plan.status();
  EstimateRegionTimes(*program, *analysis, setup->target, msa.cost, *plan);
  VerifyOptions verify;
  verify.alignment = plan->alignment;
  for (const SpaceInfo& space : plan->spaces) {
    if (space.capacity) verify.capacity[space.id] = *space.capacity;
  }
  if (absl::Status s = VerifyPlan(analysis->buffers, *plan, verify); !s.ok()) return s;
  if (absl::Status s = VerifyRegionPlan(*program, analysis->buffers, *plan); !s.ok()) return s;
  return FastPlanned{*std::move(program), *std::move(analysis), *std::move(plan)};
}

// "name space size: buffer@offset ..." per slab resource.
std::vector<std::string> FastSlabLines(const FastPlanned& p) {
  std::vector<std::string> lines;
  for (const Resource& r : p.plan.regions->resources) {
    if (r.kind != ResourceKind::kSlab) continue;
    std::string line = r.name + " " + SpaceName(r.space) + " " + std::to_string(r.size_bytes) + ":";
    for (const Slice& s : r.slices) {
      line += " " + p.analysis.buffers.buffers[s.buffer].name.str() + "@" +
              std::to_string(s.offset_bytes);
    }
    lines.push_back(line);
  }
  return lines;
}

// tests/data/regions/fast_slab.mpir: each access of a 4096-byte slice saves
// 4096 * (1/8e9 - 1/64e9) = 4.48e-7 s; %a has 4 accesses, %b 3, %c and %d 2.
// All four are live at step 3, so 8192 bytes hold the two best: %a and %b.
// All default: (5120 + 8192 + 12288 + 16384 + 5120) / 8e9 = 5.888e-6 s; with
// %a and %b fast, 28672 of those 47104 bytes move: 18432 / 8e9 + 28672 /
// 64e9 = 2.752e-6 s.
TEST(RegionFastMemory, HandDerivedScenario) {
  absl::StatusOr<FastPlanned> p = PlanWithFastMemory("tests/data/regions/fast_slab.mpir", 8192);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(FastSlabLines(*p), ElementsAre("r.slab default 8192: c@0 d@4096",
                                     "r.fast alternate 8192: a@0 b@4096"));
  const RegionPlan& rp = *p->plan.regions;
  EXPECT_DOUBLE_EQ(rp.regions[0].all_default_s, 5.888e-6);
  EXPECT_DOUBLE_EQ(rp.regions[0].estimated_s, 2.752e-6);
  EXPECT_DOUBLE_EQ(rp.all_default_s, 5.888e-6);
  EXPECT_DOUBLE_EQ(rp.estimated_s, 2.752e-6);
  // The fast slab is allocated and released around the region like the slab.
  std::vector<std::string> host;
  for (const HostStep& step : rp.steps) {
    if (step.resource != kNoId && rp.resources[step.resource].name == "r.fast") {
      host.push_back(HostStepKindName(step.kind));
    }
  }
  EXPECT_THAT(host, ElementsAre("alloca", "dealloca"));
  // Every command range on %a or %b names the fast slab.
  for (const HostStep& step : rp.steps) {
    for (const Command& c : step.commands) {
      for (const CommandRange& range : c.ranges) {
        if (range.value == kNoId) continue;
        const std::string& value = p->program.values[range.value].name;
        if (value == "a" || value == "b") {
          EXPECT_EQ(rp.resources[range.resource].name, "r.fast");
        }
      }
    }
  }
}

// examples/region.mpir with 16 KiB: %t1/%acc is accessed 4 times (8192 bytes
// each), %zeros 3, %t0 2; %zeros [0, 2] and %t1 [1, 3] fit together, %t0
// (live with both at step 1) does not. All default 81920 bytes / 8e9 =
// 1.024e-5 s; 57344 of them fast: 24576 / 8e9 + 57344 / 64e9 = 3.968e-6 s.
TEST(RegionFastMemory, RegionExample) {
  absl::StatusOr<FastPlanned> p = PlanWithFastMemory("examples/region.mpir", 16384);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(FastSlabLines(*p), ElementsAre("stage.slab default 8192: t0@0 o.scratch@0",
                                     "stage.fast alternate 16384: zeros@0 t1@8192"));
  EXPECT_DOUBLE_EQ(p->plan.regions->regions[0].all_default_s, 1.024e-5);
  EXPECT_DOUBLE_EQ(p->plan.regions->regions[0].estimated_s, 3.968e-6);
}

// tests/data/regions/fast_concurrent.mpir: @p and @q may run at once, so
// their fast slabs take separate bytes; 8192 bytes do not hold %a, %b and %c,
// and %b (2 accesses against 3) goes back to @p's slab.
TEST(RegionFastMemory, ConcurrentRegionsDropTheLeastBeneficialSlice) {
  absl::StatusOr<FastPlanned> p =
      PlanWithFastMemory("tests/data/regions/fast_concurrent.mpir", 8192);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(FastSlabLines(*p), ElementsAre("p.slab default 4096: b@0",
                                             "p.fast alternate 4096: a@0",
                                             "q.fast alternate 4096: c@0"));
  std::vector<Bytes> offsets;
  for (const PoolInfo& pool : p->plan.pools) {
    if (pool.space == kAlternateSpace) offsets.push_back(pool.offset);
  }
  EXPECT_THAT(offsets, ::testing::UnorderedElementsAre(0, 4096));
}

// Fast memory smaller than every slice: nothing moves, and the plan is the
// one without fast memory plus an empty fast space.
TEST(RegionFastMemory, TooSmallForAnySliceKeepsAllInDefault) {
  absl::StatusOr<FastPlanned> p = PlanWithFastMemory("tests/data/regions/fast_slab.mpir", 2048);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(FastSlabLines(*p), ElementsAre("r.slab default 16384: a@0 b@4096 c@8192 d@12288"));
  EXPECT_DOUBLE_EQ(p->plan.regions->estimated_s, 5.888e-6);
  EXPECT_DOUBLE_EQ(p->plan.regions->all_default_s, 5.888e-6);
}

// npu-3level's fastest level (scratchpad): %a..%d at 256 GB/s against
// DRAM's 8 GB/s; 256 KiB hold all four, so sram gets no slab.
TEST(RegionFastMemory, HierarchyTargetFillsItsFastestLevelFirst) {
  absl::StatusOr<FastPlanned> p =
      PlanWithFastMemory("tests/data/regions/fast_slab.mpir", 262144, "npu-3level");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(FastSlabLines(*p),
              ElementsAre("r.scratchpad alternate 16384: a@0 b@4096 c@8192 d@12288"));
}

// A slab per (region, level): 8 KiB of scratchpad (--fast-memory sizes the
// fastest level) hold %a and %b (4 and 3 accesses), sram (64 GB/s) the next
// two. Per run: dram moves %x and %o, 2048 bytes / 8e9 = 2.56e-7 s; the
// scratchpad 7 accesses of 4096 bytes, 28672 / 256e9 = 1.12e-7 s; sram 4,
// 16384 / 64e9 = 2.56e-7 s: 6.24e-7 s against 5.888e-6 s all in dram.
TEST(RegionFastMemory, HierarchyTargetSpillsIntoTheNextLevel) {
  absl::StatusOr<FastPlanned> p =
      PlanWithFastMemory("tests/data/regions/fast_slab.mpir", 8192, "npu-3level");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(FastSlabLines(*p), ElementsAre("r.scratchpad alternate 8192: a@0 b@4096",
                                             "r.sram space2 8192: c@0 d@4096"));
  const RegionPlan& rp = *p->plan.regions;
  EXPECT_DOUBLE_EQ(rp.regions[0].estimated_s, 6.24e-7);
  EXPECT_DOUBLE_EQ(rp.regions[0].all_default_s, 5.888e-6);
  // Both slabs are allocated and released around the region.
  std::vector<std::string> host;
  for (const HostStep& step : rp.steps) {
    if (step.resource != kNoId && rp.resources[step.resource].kind == ResourceKind::kSlab) {
      host.push_back(std::string(HostStepKindName(step.kind)) + " " +
                     rp.resources[step.resource].name);
    }
  }
  EXPECT_THAT(host, ElementsAre("alloca r.scratchpad", "alloca r.sram", "dealloca r.scratchpad",
                                "dealloca r.sram"));
  std::vector<std::pair<std::string, Bytes>> spaces;
  for (const SpaceInfo& s : p->plan.spaces) spaces.push_back({s.name, s.peak});
  EXPECT_THAT(spaces, ElementsAre(std::pair<std::string, Bytes>{"default", 2048},
                                  std::pair<std::string, Bytes>{"alternate", 8192},
                                  std::pair<std::string, Bytes>{"space2", 8192}));
}

// @p and @q may run at once: 8 KiB of scratchpad do not hold %a, %b and %c
// together; %b (2 accesses against 3) leaves the scratchpad and sram takes
// it, where the flat target left it in default memory.
TEST(RegionFastMemory, SliceLeavingALevelMovesToTheNext) {
  absl::StatusOr<FastPlanned> p =
      PlanWithFastMemory("tests/data/regions/fast_concurrent.mpir", 8192, "npu-3level");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(FastSlabLines(*p), ElementsAre("p.scratchpad alternate 4096: a@0",
                                             "p.sram space2 4096: b@0",
                                             "q.scratchpad alternate 4096: c@0"));
}

// A level the region's device may not access is skipped: gpu0 may not use
// the npu0-only scratchpad, so the four slices go to sram (the next level,
// 64 GB/s: 2048 / 8e9 + 45056 / 64e9 = 9.6e-7 s); with no other level they
// stay in the slab, and the plan is still made.
TEST(RegionFastMemory, InaccessibleLevelIsSkipped) {
  const std::string targets = std::string(MEMPLAN_SOURCE_DIR) + "/tests/data/targets/";
  absl::StatusOr<FastPlanned> p = PlanWithFastMemory(
      "tests/data/regions/fast_slab.mpir", 65536, targets + "npu0_scratchpad_sram.json");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(FastSlabLines(*p), ElementsAre("r.sram space2 16384: a@0 b@4096 c@8192 d@12288"));
  EXPECT_DOUBLE_EQ(p->plan.regions->regions[0].estimated_s, 9.6e-7);
  absl::StatusOr<FastPlanned> none = PlanWithFastMemory(
      "tests/data/regions/fast_slab.mpir", 65536, targets + "npu0_scratchpad.json");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_THAT(FastSlabLines(*none), ElementsAre("r.slab default 16384: a@0 b@4096 c@8192 d@12288"));
}

// The region verifier holds every command to the devices of its resource's
// space: the same plan with r.sram claimed npu0-only is refused at the
// first command touching it.
TEST(RegionFastMemory, VerifierChecksDeviceAccess) {
  absl::StatusOr<FastPlanned> p =
      PlanWithFastMemory("tests/data/regions/fast_slab.mpir", 8192, "npu-3level");
  ASSERT_TRUE(p.ok()) << p.status();
  for (Resource& r : p->plan.regions->resources) {
    if (r.name == "r.sram") r.devices = {"npu0"};
  }
  const absl::Status s = VerifyRegionPlan(p->program, p->analysis.buffers, p->plan);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("region rule 3 (command ranges): step 5 (execute @r): dispatch %c (op "
                        "dispatch#3) range 2 (write %c at r.sram [0, 4096)) lies in r.sram in the "
                        "space2 space, which gpu0 (the device running it) may not access: only "
                        "npu0 may"));
}

}  // namespace
}  // namespace memplan
