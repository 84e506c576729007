// `memplan verify` trusts nothing a plan records about its machine: the
// alternate memory's capacity and alignment come from the target resolved
// again (issue 13 step 5), and a plan for another input says so.
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/unlocated.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::kMlp;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;
using Json = nlohmann::ordered_json;

// mlp planned for the edge-npu target (2 MiB of fast memory, 64-byte alignment).
Json PlanMlpForEdgeNpu(const std::string& dir) {
  const std::string json = dir + "/plan.json";
  CliRun r = Memplan("plan " + kMlp + " --target edge-npu -q --json " + json);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Json::parse(Slurp(json));
}

// The alternate-space segment with the highest offset (nothing above it).
Json& HighestAlternateSegment(Json& plan) {
  Json* highest = nullptr;
  for (Json& buffer : plan["buffers"]) {
    for (Json& a : buffer["allocations"]) {
      if (a["space"] == 1 && (highest == nullptr || a["offset"] > (*highest)["offset"])) highest = &a;
    }
  }
  EXPECT_NE(highest, nullptr);
  return *highest;
}

TEST(VerifyResolvedTarget, LoweredAlignmentAndOffsetFail) {
  const std::string dir = FreshDir();
  Json plan = PlanMlpForEdgeNpu(dir);
  // Lower the recorded alignment everywhere and move a fast-memory offset
  // off the target's 64-byte grid (into free bytes: no overlap).
  Json& segment = HighestAlternateSegment(plan);
  ASSERT_EQ(segment["offset"], 912640);
  segment["offset"] = 912641;
  plan["spaces"][1]["alignment"] = 1;
  plan["spaces"][1]["peak_bytes"] = 912681;
  plan["msa"]["options"]["fast_memory_alignment"] = 1;
  WriteText(dir + "/edited.json", plan.dump());
  CliRun v = Memplan("verify " + kMlp + " " + dir + "/edited.json");
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, dir + "/edited.json: error: verification failed: /spaces/1/alignment: the "
                         "plan records alternate-memory alignment 1, but target 'edge-npu' aligns "
                         "fast memory to 64 and the plan's alignment is 1: offsets there must be "
                         "multiples of 64\n");
  // With the recorded alignment left alone, the offset itself is refused.
  plan["spaces"][1]["alignment"] = 64;
  WriteText(dir + "/edited.json", plan.dump());
  v = Memplan("verify " + kMlp + " " + dir + "/edited.json");
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, dir + "/edited.json: error: verification failed: buffer 'b2' (id 4) "
                         "allocation 1 (space 1, bytes [912641, 912681), time [2, 4]): offset "
                         "912641 is not a multiple of 64, the alignment of memory space 1\n");
}

// A lowered recorded alignment alone (every offset still on the grid) is a
// plan that disagrees with its machine: refused too.
TEST(VerifyResolvedTarget, LoweredAlignmentAloneFails) {
  const std::string dir = FreshDir();
  Json plan = PlanMlpForEdgeNpu(dir);
  plan["spaces"][1]["alignment"] = 32;
  WriteText(dir + "/edited.json", plan.dump());
  CliRun v = Memplan("verify " + kMlp + " " + dir + "/edited.json");
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, dir + "/edited.json: error: verification failed: /spaces/1/alignment: the "
                         "plan records alternate-memory alignment 32, but target 'edge-npu' "
                         "aligns fast memory to 64 and the plan's alignment is 1: offsets there "
                         "must be multiples of 64\n");
}

// An unknown recorded target is the plan file's error, located.
TEST(VerifyResolvedTarget, UnknownTargetIsLocated) {
  const std::string dir = FreshDir();
  Json plan = PlanMlpForEdgeNpu(dir);
  plan["msa"]["target"] = "gpu9000";
  WriteText(dir + "/edited.json", plan.dump(1));
  CliRun v = Memplan("verify " + kMlp + " " + dir + "/edited.json");
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_THAT(v.err, ::testing::MatchesRegex(dir + "/edited.json:[0-9]+:[0-9]+: error: "
                                                   "/msa/target: unknown target 'gpu9000' .*"));
}

TEST(VerifyResolvedTarget, RaisedCapacityFails) {
  const std::string dir = FreshDir();
  Json plan = PlanMlpForEdgeNpu(dir);
  plan["spaces"][1]["capacity_bytes"] = 4194304;
  WriteText(dir + "/edited.json", plan.dump());
  CliRun v = Memplan("verify " + kMlp + " " + dir + "/edited.json");
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, dir + "/edited.json: error: verification failed: /spaces/1/capacity_bytes: "
                         "the plan records 4194304 bytes of alternate memory, but target "
                         "'edge-npu' has 2097152 bytes\n");
}

TEST(VerifyResolvedTarget, RecordedOverridesAreTheMachine) {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  CliRun r = Memplan("plan " + kMlp + " --fast-memory 1MiB --fast-memory-alignment 16 -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Memplan("verify " + kMlp + " " + json).exit_code, 0);
  // The override is the machine: a capacity above it is refused.
  Json plan = Json::parse(Slurp(json));
  plan["spaces"][1]["capacity_bytes"] = 2097152;
  WriteText(dir + "/edited.json", plan.dump());
  CliRun v = Memplan("verify " + kMlp + " " + dir + "/edited.json");
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, dir + "/edited.json: error: verification failed: /spaces/1/capacity_bytes: "
                         "the plan records 2097152 bytes of alternate memory, but the plan was "
                         "made with --fast-memory 1048576 (/msa/options/fast_memory_override)\n");
}

// --fast-memory 0 is a machine too: its plan verifies (the program fuzzer
// found verify refusing the recorded override 0).
TEST(VerifyResolvedTarget, ZeroFastMemoryVerifies) {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  CliRun r = Memplan("plan " + kMlp + " --fast-memory 0 -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Json::parse(Slurp(json))["msa"]["options"]["fast_memory_override"], 0);
  CliRun v = Memplan("verify " + kMlp + " " + json);
  EXPECT_EQ(v.exit_code, 0) << v.err;
}

TEST(VerifyResolvedTarget, PlanForAnotherInputIsNamed) {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kMlp + " -q --json " + json).exit_code, 0);
  const std::string call = MEMPLAN_SOURCE_DIR "/examples/call.mpir";
  CliRun v = Memplan("verify " + call + " " + json);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(testing_located::Unlocated(v.err), json + ": error: this plan is for '" + kMlp + "', not '" + call +
                       "' (/time_steps: 6 differs from the input, which has 5)\n");
}

}  // namespace
}  // namespace memplan
