// `memplan verify` of a plan with execution regions: the JSON rebuilds the
// region plan and the region rules are checked again.
#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "gtest/gtest.h"
#include "tests/unlocated.h"
#include "nlohmann/json.hpp"
#include "packing/packer.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;
using Json = nlohmann::ordered_json;

const std::string kRegion = MEMPLAN_SOURCE_DIR "/examples/region.mpir";

class RegionVerifyCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(RegionVerifyCliTest, PlannedRegionsVerify) {
  const std::string json = dir_ + "/plan.json";
  CliRun r = Memplan("plan " + kRegion + " --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(Json::parse(Slurp(json)).contains("regions"));
  CliRun v = Memplan("verify " + kRegion + " " + json);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out, json + ": plan verified: 6 buffers, transient extent 24576 bytes, lower bound "
                          "24576 bytes\n");
}

// The last dispatch reads %acc (t1's slice, stage.slab [8192, 16384)); moved
// onto t0's slice [16384, 24576) it reads bytes that do not hold %acc.
TEST_F(RegionVerifyCliTest, RangeMovedOntoAnotherSliceFailsRule3) {
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kRegion + " --json " + json).exit_code, 0);
  Json plan = Json::parse(Slurp(json));
  bool moved = false;
  for (Json& step : plan["regions"]["steps"]) {
    for (Json& command : step["commands"]) {
      if (command["op"] != "o") continue;
      Json& range = command["ranges"][0];
      ASSERT_EQ(range["value"], "acc");
      ASSERT_EQ(range["offset_bytes"], 8192);
      range["offset"] = "16384";
      range["offset_bytes"] = 16384;
      moved = true;
    }
  }
  ASSERT_TRUE(moved);
  const std::string edited = dir_ + "/edited.json";
  WriteText(edited, plan.dump());
  CliRun v = Memplan("verify " + kRegion + " " + edited);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.out, "");
  EXPECT_EQ(v.err, edited + ": error: verification failed: region rule 3 (command ranges): step 4 "
                            "(execute @stage): dispatch %o (op dispatch#5) range 0 (read %acc at "
                            "stage.slab [16384, 24576)) lies outside buffer 't1' (id 4), which "
                            "holds stage.slab [8192, 16384) at time 3\n");
}

// The dispatch of %o has a 1024-byte scratch workspace (a range without a
// value in o.scratch); grown past it, the range lies in no scratch buffer.
TEST_F(RegionVerifyCliTest, ScratchRangeGrownPastItsBufferFailsRule3) {
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kRegion + " --json " + json).exit_code, 0);
  Json plan = Json::parse(Slurp(json));
  int grown = 0;
  for (Json& step : plan["regions"]["steps"]) {
    for (Json& command : step["commands"]) {
      for (Json& range : command["ranges"]) {
        if (!range["value"].is_null()) continue;
        ASSERT_EQ(range["length_bytes"], 1024);
        range["length"] = "2048";
        range["length_bytes"] = 2048;
        ++grown;
      }
    }
  }
  ASSERT_EQ(grown, 1);
  const std::string edited = dir_ + "/edited.json";
  WriteText(edited, plan.dump());
  CliRun v = Memplan("verify " + kRegion + " " + edited);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, edited + ": error: verification failed: region rule 3 (command ranges): step 4 "
                            "(execute @stage): dispatch %o (op dispatch#5) range 2 (read-write "
                            "scratch at stage.slab [0, 2048)) names no value and lies in no "
                            "segment of a buffer without values homed in stage.slab's pool at "
                            "time 3\n");
}

// A malformed regions object is a located input error (exit 2).
TEST_F(RegionVerifyCliTest, MalformedRegionsExitTwo) {
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kRegion + " --json " + json).exit_code, 0);
  Json plan = Json::parse(Slurp(json));
  plan["regions"]["resources"][1]["slices"][0]["offset"] = "8192 +";
  const std::string edited = dir_ + "/edited.json";
  WriteText(edited, plan.dump());
  CliRun v = Memplan("verify " + kRegion + " " + edited);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(testing_located::Unlocated(v.err), edited + ": error: /regions/resources/1/slices/0/offset: \"8192 +\" is not a "
                            "size expression (column 7: unexpected end of input, expected a size "
                            "(an integer, a dim %name, '(', max(...) or align(...)))\n");
}

// Without its regions block a plan for a program with regions would pass
// the plain plan verifier unchecked.
TEST_F(RegionVerifyCliTest, PlanWithoutRegionsBlockFails) {
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kRegion + " --json " + json).exit_code, 0);
  Json plan = Json::parse(Slurp(json));
  plan.erase("regions");
  const std::string edited = dir_ + "/edited.json";
  WriteText(edited, plan.dump());
  CliRun v = Memplan("verify " + kRegion + " " + edited);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.out, "");
  EXPECT_EQ(v.err, edited + ": error: verification failed: the input has execution regions but "
                            "the plan has no regions block\n");
}

// The verifier accepts a fixed list of layouts (it cannot link packing/):
// every algorithm's plan verifies (exact's too), and an unknown name is
// rejected.
TEST_F(RegionVerifyCliTest, EveryPackingAlgorithmNameVerifies) {
  std::vector<PackingAlgorithm> algorithms = AllPackingAlgorithms();
  algorithms.push_back(PackingAlgorithm::kExact);
  for (PackingAlgorithm algorithm : algorithms) {
    const std::string name(PackingAlgorithmName(algorithm));
    const std::string json = dir_ + "/" + name + ".json";
    CliRun r = Memplan("plan " + kRegion + " --pack " + name + " --json " + json);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    ASSERT_EQ(Json::parse(Slurp(json))["regions"]["options"]["pack"], name);
    CliRun v = Memplan("verify " + kRegion + " " + json);
    EXPECT_EQ(v.exit_code, 0) << name << ": " << v.err;
  }
}

TEST_F(RegionVerifyCliTest, UnknownPackNameFailsRule1) {
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kRegion + " --json " + json).exit_code, 0);
  Json plan = Json::parse(Slurp(json));
  plan["regions"]["options"]["pack"] = "fastest";
  const std::string edited = dir_ + "/edited.json";
  WriteText(edited, plan.dump());
  CliRun v = Memplan("verify " + kRegion + " " + edited);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, edited + ": error: verification failed: region rule 1 (resources): options: "
                            "pack 'fastest' is not one of: auto, best-fit-spatial, "
                            "best-fit-temporal, best-fit-busiest, best-fit-start-time, in-order, "
                            "skyline-longest, skyline-area, skyline-crowded, skyline-local-search, "
                            "skyline-window-search, online-best-fit, naive, exact\n");
}

}  // namespace
}  // namespace memplan
