// `memplan verify` of a plan with execution regions: the JSON rebuilds the
// region plan and the region rules are checked again.
#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

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
  EXPECT_EQ(v.out, json + ": plan verified: 6 buffers, transient peak 24576 bytes, lower bound "
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
  EXPECT_EQ(v.err, edited + ": error: /regions/resources/1/slices/0/offset: \"8192 +\" is not a "
                            "size expression (column 7: unexpected end of input, expected a size "
                            "(an integer, a dim %name, '(', max(...) or align(...)))\n");
}

}  // namespace
}  // namespace memplan
