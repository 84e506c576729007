// `memplan plan --fast-memory` / `--target` on programs with execution
// regions: the plan verifies and executes, a corrupted fast slab is rejected
// by verify and execute, and bad input is a located error (exit 2).
#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;
using Json = nlohmann::ordered_json;

const std::string kRegionExample = MEMPLAN_SOURCE_DIR "/examples/region.mpir";
const std::string kFastScenario = MEMPLAN_SOURCE_DIR "/tests/data/regions/fast_slab.mpir";

class RegionFastMemoryCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  // Plans `input` with `flags` into plan.json; returns its path.
  std::string Planned(const std::string& input, const std::string& flags) {
    const std::string json = dir_ + "/plan.json";
    CliRun r = Memplan("plan " + input + " " + flags + " --json " + json + " -q");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json;
  }
  std::string dir_;
};

TEST_F(RegionFastMemoryCliTest, PlanVerifyExecute) {
  for (const char* flags : {"--fast-memory 16KiB", "--fast-memory 64KiB",
                                   "--target npu-3level", "--target mcu-tcm-sram-psram-flash"}) {
    SCOPED_TRACE(flags);
    const std::string json = Planned(kRegionExample, flags);
    CliRun v = Memplan("verify " + kRegionExample + " " + json);
    EXPECT_EQ(v.exit_code, 0) << v.err;
    CliRun x = Memplan("execute " + kRegionExample + " " + json);
    EXPECT_EQ(x.exit_code, 0) << x.err;
    EXPECT_THAT(x.out, HasSubstr("5 region commands"));
  }
}

TEST_F(RegionFastMemoryCliTest, SummaryAndJson) {
  CliRun r = Memplan("plan " + kFastScenario + " --fast-memory 8192");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("r.fast             alternate        2           8192           "
                               "8192           8192    0.00%\n"));
  EXPECT_THAT(r.out, HasSubstr("  fast slab r.fast: 8192 bytes in alternate memory, 2 slices "
                               "(a, b); estimated 2.752e-06 s, 5.888e-06 s all in default memory "
                               "(53.26% faster)\n"));
  EXPECT_THAT(r.out, HasSubstr("fast slabs: estimated 2.752e-06 s per run, 5.888e-06 s with "
                               "every slice in default memory (53.26% faster)\n"));
  const Json plan = Json::parse(Slurp(Planned(kFastScenario, "--fast-memory 8192")));
  int fast = 0;
  for (const Json& r : plan["regions"]["resources"]) {
    if (r["name"] != "r.fast") continue;
    EXPECT_EQ(r["space"], 1);
    ++fast;
  }
  EXPECT_EQ(fast, 1);
  for (const Json& pool : plan["pools"]) {
    if (pool["name"] == "r.fast") {
      EXPECT_EQ(pool["space"], 1);
    }
  }
  // The times of the summary, per region and for the program.
  EXPECT_DOUBLE_EQ(plan["regions"]["estimated_time_s"].get<double>(), 2.752e-06);
  EXPECT_DOUBLE_EQ(plan["regions"]["all_default_time_s"].get<double>(), 5.888e-06);
  EXPECT_DOUBLE_EQ(plan["regions"]["regions"][0]["estimated_time_s"].get<double>(), 2.752e-06);
  EXPECT_DOUBLE_EQ(plan["regions"]["regions"][0]["all_default_time_s"].get<double>(), 5.888e-06);
}

// When every slice is fast, the region's bound is the fast slab's max live
// plus the default slab's (o.scratch): 24576 + 1024, met exactly.
TEST_F(RegionFastMemoryCliTest, BoundSumsTheSlabsOfEachSpace) {
  CliRun r = Memplan("plan " + kRegionExample + " --fast-memory 1MiB");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("region @stage on gpu0: slab 25600 bytes (lower bound 25600, 0.00% "
                               "over)"));
}

// Memory space assignment's knobs do not apply to region programs: refused,
// not ignored. The fast memory's alignment does apply.
TEST_F(RegionFastMemoryCliTest, AssignmentFlagsAreRefused) {
  for (const char* flag : {"--window-prefetch 4KiB", "--no-loop-optimizer", "--picker cost"}) {
    SCOPED_TRACE(flag);
    CliRun r = Memplan("plan " + kRegionExample + " --fast-memory 16KiB " + flag);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    const std::string name = std::string(flag).substr(0, std::string(flag).find(' '));
    EXPECT_EQ(r.err, kRegionExample + ": error: " + name + " is a memory space assignment option; "
                     "a program with execution regions places its fast memory per slab "
                     "(docs/regions.md, Fast memory) and takes only --fast-memory, "
                     "--fast-memory-alignment and --target\n");
  }
  EXPECT_EQ(Memplan("plan " + kRegionExample + " --fast-memory 16KiB --fast-memory-alignment 64 -q")
                .exit_code,
            0);
}

// A region without slab slices says so, not that none fits.
TEST_F(RegionFastMemoryCliTest, RegionWithoutSlicesSaysSo) {
  CliRun r = Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/region_ops.mpir --target npu-3level");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  fast slab: none (the region has no slab slices); "));
}

TEST_F(RegionFastMemoryCliTest, TooSmallForAnySliceSaysSo) {
  CliRun r = Memplan("plan " + kFastScenario + " --fast-memory 2KiB");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  fast slab: none (no slice both saves time and fits the 2048 "
                               "bytes of fast memory); estimated 5.888e-06 s, 5.888e-06 s all in "
                               "default memory (0.00% faster)\n"));
}

// A region whose device may access no fast level plans all in default
// memory and says why.
TEST_F(RegionFastMemoryCliTest, InaccessibleFastMemorySaysSo) {
  CliRun r = Memplan("plan " + kFastScenario + " --target " MEMPLAN_SOURCE_DIR
                     "/tests/data/targets/npu0_scratchpad.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\n  fast slab: none (gpu0 may access none of scratchpad); "
                               "estimated 5.888e-06 s, 5.888e-06 s all in dram memory (0.00% "
                               "faster)\n"));
}

// A slab per (region, level): the scratchpad (8 KiB by --fast-memory) holds
// %a and %b, sram %c and %d; the plan verifies and executes, and its JSON
// lists each slab in its level (tests/driver/region_fast_memory_test.cc
// derives the times).
TEST_F(RegionFastMemoryCliTest, HierarchySpillsIntoTheNextLevel) {
  const std::string flags = "--target npu-3level --fast-memory 8192";
  CliRun r = Memplan("plan " + kFastScenario + " " + flags);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(
      "r.scratchpad       scratchpad        2           8192           8192           8192    0.00%\n"
      "r.sram             sram             2           8192           8192           8192    0.00%\n"
      "transient pool in dram memory: empty (its 4 buffers are held in other levels only: 2 in "
      "scratchpad, 2 in sram)\n"));
  EXPECT_THAT(r.out, HasSubstr(
      "  fast slab r.scratchpad: 8192 bytes in scratchpad memory, 2 slices (a, b); estimated "
      "6.24e-07 s, 5.888e-06 s all in dram memory (89.40% faster)\n"
      "  fast slab r.sram: 8192 bytes in sram memory, 2 slices (c, d)\n"
      "fast slabs: estimated 6.24e-07 s per run, 5.888e-06 s with every slice in dram memory "
      "(89.40% faster)\n"));
  EXPECT_THAT(r.out, HasSubstr(
      "scratchpad memory: 8192 bytes (8.00 KiB) used of 8192 bytes (8.00 KiB) capacity, max live "
      "8192 bytes (8.00 KiB) at step 1 (0.00% over)\n"
      "sram memory: 8192 bytes (8.00 KiB) used of 4194304 bytes (4.00 MiB) capacity, max live "
      "8192 bytes (8.00 KiB) at step 3 (0.00% over)\n"));
  const std::string json = Planned(kFastScenario, flags);
  const Json plan = Json::parse(Slurp(json));
  std::string slabs;
  for (const Json& res : plan["regions"]["resources"]) {
    if (res["kind"] != "slab") continue;
    slabs += res["name"].get<std::string>() + "@" + std::to_string(res["space"].get<int>()) + " ";
  }
  EXPECT_EQ(slabs, "r.scratchpad@1 r.sram@2 ");
  CliRun v = Memplan("verify " + kFastScenario + " " + json);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  CliRun x = Memplan("execute " + kFastScenario + " " + json);
  EXPECT_EQ(x.exit_code, 0) << x.err;
  EXPECT_THAT(x.out, HasSubstr("5 region commands"));
}

// A level's devices travel with its slabs into the JSON plan, and verify
// holds the commands to them: a region on gpu0 in an npu0-only slab fails.
TEST_F(RegionFastMemoryCliTest, VerifyChecksTheDevicesOfASlab) {
  const std::string json = Planned(kFastScenario, "--target npu-3level --fast-memory 8192");
  Json plan = Json::parse(Slurp(json));
  for (Json& res : plan["regions"]["resources"]) {
    if (res["name"] == "r.sram") res["devices"] = Json::array({"npu0"});
  }
  WriteText(json, plan.dump(2));
  CliRun v = Memplan("verify " + kFastScenario + " " + json);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("lies in r.sram in the space2 space, which gpu0 (the device "
                               "running it) may not access: only npu0 may"));
  CliRun x = Memplan("execute " + kFastScenario + " " + json);
  EXPECT_NE(x.exit_code, 0);
  EXPECT_THAT(x.err, HasSubstr("the dispatch command of op %c (step 2) runs on gpu0, which may "
                               "not access resource 'r.sram' (space2 memory; only npu0 may)"));
}

// On a hierarchy target the spaces go by their levels' names (the fast slab
// in the fastest level, the rest in the slowest writable one) and every
// level is listed, as memory space assignment's hierarchy plans do.
TEST_F(RegionFastMemoryCliTest, HierarchyTargetNamesItsLevels) {
  CliRun r = Memplan("plan " + kFastScenario + " --target npu-3level");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            kFastScenario + ": 6 buffers, 6 time steps, 6 ops\n"
            "pool               space      buffers          bytes         extent    lower bound     over\n"
            "external           dram             1           1024           1024           1024    0.00%\n"
            "r.results.external dram             1           1024           1024           1024    0.00%\n"
            "r.scratchpad       scratchpad        4          16384          16384          16384    0.00%\n"
            "transient pool in dram memory: empty (its 4 buffers are held in other levels only: "
            "4 in scratchpad)\n"
            "  (transient: the region slabs, packed over time; allocations never alive together share bytes)\n"
            "scratchpad memory activation peak: 16384 bytes live at step 3 (op %d = dispatch) in 4 buffers (of 4 with bytes there):\n"
            "   25.00%  a: 4096 bytes (4.00 KiB)\n"
            "   25.00%  b: 4096 bytes (4.00 KiB)\n"
            "   25.00%  c: 4096 bytes (4.00 KiB)\n"
            "   25.00%  d: 4096 bytes (4.00 KiB)\n"
            "region @r on gpu0: slab 16384 bytes (lower bound 16384, 0.00% over), results 1024 bytes in 1 allocation, uploads 0 bytes, 5 commands in 5 steps\n"
            "  fast slab r.scratchpad: 16384 bytes in scratchpad memory, 4 slices (a, b, c, d); estimated 4.32e-07 s, 5.888e-06 s all in dram memory (92.66% faster)\n"
            "fast slabs: estimated 4.32e-07 s per run, 5.888e-06 s with every slice in dram memory (92.66% faster)\n"
            "dram memory: 2048 bytes (2.00 KiB) used of 1073741824 bytes (1.00 GiB) capacity, max live 2048 bytes (2.00 KiB) at step 4 (0.00% over)\n"
            "scratchpad memory: 16384 bytes (16.00 KiB) used of 262144 bytes (256.00 KiB) capacity, max live 16384 bytes (16.00 KiB) at step 3 (0.00% over)\n"
            "sram memory: 0 bytes used of 4194304 bytes (4.00 MiB) capacity\n"
            "algorithm: auto; alignment 1 (region slices: offsets 64, sizes padded to 64); plan verified\n");

  const std::string json = Planned(kFastScenario, "--target npu-3level");
  const Json plan = Json::parse(Slurp(json));
  Json spaces = Json::array();
  for (const Json& s : plan["spaces"]) {
    spaces.push_back({{"name", s["name"]},
                      {"id", s["id"]},
                      {"capacity_bytes", s["capacity_bytes"]},
                      {"peak_bytes", s["peak_bytes"]}});
  }
  EXPECT_EQ(spaces.dump(),
            R"([{"name":"dram","id":0,"capacity_bytes":1073741824,"peak_bytes":2048},)"
            R"({"name":"scratchpad","id":1,"capacity_bytes":262144,"peak_bytes":16384},)"
            R"({"name":"sram","id":2,"capacity_bytes":4194304,"peak_bytes":0}])");
  CliRun v = Memplan("verify " + kFastScenario + " " + json);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  // verify names every level but the default one as the plan does.
  EXPECT_THAT(v.out, HasSubstr(", transient extent 0 bytes, lower bound 0 bytes, scratchpad memory "
                               "used 16384 bytes, sram memory used 0 bytes\n"));
  CliRun x = Memplan("execute " + kFastScenario + " " + json);
  EXPECT_EQ(x.exit_code, 0) << x.err;

  const std::string svg = dir_ + "/map.svg";
  ASSERT_EQ(Memplan("plan " + kFastScenario + " --target npu-3level -q --svg " + svg).exit_code, 0);
  EXPECT_THAT(Slurp(svg), HasSubstr("scratchpad memory (space 1)"));
}

// %norm saves 9.92e-07 s of a 0.5463 s run (its splat writes and a dispatch
// reads 4096 bytes at 256 instead of 8 GB/s: 2 * (4096 / 8e9 - 4096 /
// 256e9)): a real saving, below 0.01%, printed in seconds.
TEST_F(RegionFastMemoryCliTest, TinySavingIsPrintedInSeconds) {
  const std::string example = MEMPLAN_SOURCE_DIR "/examples/region_dynamic.mpir";
  CliRun r = Memplan("plan " + example + " --target npu-3level --dim seq=1024");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\n  fast slab model.scratchpad: 4096 bytes in scratchpad memory, 1 slice "
                               "(norm); estimated 0.03591 s, 0.03592 s all in dram memory (9.92e-07 "
                               "s faster, under 0.01%)\n"
                               "fast slabs: estimated 0.03591 s per run, 0.03592 s with every slice "
                               "in dram memory (9.92e-07 s faster, under 0.01%)\n"));
  const Json plan = Json::parse(Slurp(Planned(example, "--target npu-3level --dim seq=1024")));
  EXPECT_NEAR(plan["regions"]["all_default_time_s"].get<double>() -
                  plan["regions"]["estimated_time_s"].get<double>(),
              9.92e-07, 1e-12);
}

// The default level holds the slabs and is held to its capacity too: at
// the dims' bounds region_dynamic needs 1.03 GiB of npu-3level's 1 GiB
// dram (exit 1, located at the input, no plan written).
TEST_F(RegionFastMemoryCliTest, TheDefaultLevelIsHeldToItsCapacity) {
  const std::string example = MEMPLAN_SOURCE_DIR "/examples/region_dynamic.mpir";
  const std::string json = dir_ + "/over.json";
  CliRun r = Memplan("plan " + example + " --target npu-3level --json " + json);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, example + ": error: plan does not fit: dram memory needs 1103118336 bytes, "
                             "more than its 1073741824 bytes on target 'npu-3level'\n");
  EXPECT_FALSE(std::filesystem::exists(json));
}

// The fast slab moved past the fast memory's 8192 bytes: both verifiers
// refuse it (the region verifier names the space's capacity).
TEST_F(RegionFastMemoryCliTest, FastSlabOverCapacityIsRejected) {
  Json plan = Json::parse(Slurp(Planned(kFastScenario, "--fast-memory 8192")));
  for (Json& pool : plan["pools"]) {
    if (pool["name"] == "r.fast") pool["offset_bytes"] = 4096;
  }
  for (Json& b : plan["buffers"]) {
    for (Json& a : b["allocations"]) {
      if (a["space"] == 1) a["offset"] = a["offset"].get<int>() + 4096;
    }
  }
  const std::string edited = dir_ + "/edited.json";
  WriteText(edited, plan.dump());
  CliRun v = Memplan("verify " + kFastScenario + " " + edited);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("capacity"));
}

// A command range of %b moved outside the fast slab's 8192 bytes.
TEST_F(RegionFastMemoryCliTest, RangeOutsideTheFastSlabIsRejected) {
  Json plan = Json::parse(Slurp(Planned(kFastScenario, "--fast-memory 8192")));
  int moved = 0;
  for (Json& step : plan["regions"]["steps"]) {
    for (Json& command : step["commands"]) {
      if (command["op"] != "c") continue;
      Json& range = command["ranges"][1];
      EXPECT_EQ(range["value"], "b");
      range["offset"] = "8192";
      range["offset_bytes"] = 8192;
      ++moved;
    }
  }
  ASSERT_EQ(moved, 1);
  const std::string edited = dir_ + "/edited.json";
  WriteText(edited, plan.dump());
  CliRun v = Memplan("verify " + kFastScenario + " " + edited);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 3 (command ranges)"));
  EXPECT_THAT(v.err, HasSubstr("r.fast [8192, 12288)"));
  CliRun x = Memplan("execute " + kFastScenario + " " + edited);
  EXPECT_NE(x.exit_code, 0);
}

}  // namespace
}  // namespace memplan
