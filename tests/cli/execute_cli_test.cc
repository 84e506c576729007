// `memplan execute INPUT PLAN.json`: exit codes and messages.
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
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;
using Json = nlohmann::ordered_json;

const std::string kExecuteBasic = MEMPLAN_SOURCE_DIR "/examples/basic.mpir";

TEST(ExecuteCli, RunsASavedPlan) {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kExecuteBasic + " -q --json " + json).exit_code, 0);
  CliRun r = Memplan("execute " + kExecuteBasic + " " + json);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, json + ": plan executed: 5 op runs, 0 region commands, 0 async copies; 1664 "
                          "bytes written, 5568 bytes checked, in 1152 bytes of arenas; every read "
                          "found its producer's data\n");
  EXPECT_EQ(Memplan("execute -q " + kExecuteBasic + " " + json).out, "");
}

// IREE's scratch pattern: a dispatch result tied to a region-local alloca
// reads the alloca's uninitialised bytes. The verifier accepted it; execute
// said "bytes [0, 4096) of buffer 's' were never written before" (found
// with and without fast memory).
TEST(ExecuteCli, AnAllocasUninitialisedBytesMayBeRead) {
  const std::string program = MEMPLAN_SOURCE_DIR "/tests/data/regions/alloca_scratch.mpir";
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  for (const std::string flags : {"", " --fast-memory 64KiB"}) {
    ASSERT_EQ(Memplan("plan " + program + flags + " -q --json " + json).exit_code, 0) << flags;
    CliRun r = Memplan("execute " + program + " " + json);
    EXPECT_EQ(r.exit_code, 0) << flags << ": " << r.err;
    EXPECT_THAT(r.out, ::testing::HasSubstr("every read found its producer's data")) << flags;
  }
}

TEST(ExecuteCli, AClobberIsExitOne) {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kExecuteBasic + " -q --json " + json).exit_code, 0);
  Json plan = Json::parse(Slurp(json));
  // y (step 4) onto bytes [64, 128) of g's buffer, where its operand %row1 is.
  ASSERT_EQ(plan["buffers"][3]["name"], "y");
  plan["buffers"][3]["allocations"][0]["offset"] =
      plan["buffers"][2]["allocations"][0]["offset"].get<std::int64_t>() + 64;
  WriteText(dir + "/edited.json", plan.dump());
  CliRun r = Memplan("execute " + kExecuteBasic + " " + dir + "/edited.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, dir + "/edited.json: error: execution failed: op %y (step 4) reads %row1: byte "
                         "64 of default memory (byte 64 of buffer 'g') holds data of %y (written "
                         "by op %y at step 4), not data of %h (written by op %h at step 1)\n");
}

TEST(ExecuteCli, BadInputIsExitTwo) {
  const std::string dir = FreshDir();
  CliRun missing = Memplan("execute " + kExecuteBasic + " " + dir + "/none.json");
  EXPECT_EQ(missing.exit_code, 2);
  // A plan file that is not JSON: the hint names what execute reads (not
  // verify's MiniMalloc CSV solutions).
  WriteText(dir + "/cut.json", "{\"schema\": \"memplan.plan/1\", \"input\"");
  CliRun cut = Memplan("execute " + kExecuteBasic + " " + dir + "/cut.json");
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_THAT(cut.err, ::testing::HasSubstr("(execute reads a plan JSON written by memplan plan "
                                            "--json)\n"));
  EXPECT_EQ(cut.out, "");
  const std::string json = dir + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kExecuteBasic + " -q --json " + json).exit_code, 0);
  const std::string mlp = testing_cli::kMlp;
  CliRun other = Memplan("execute " + mlp + " " + json);
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_EQ(testing_located::Unlocated(other.err), json + ": error: this plan is for '" + kExecuteBasic + "', not '" + mlp +
                           "' (/time_steps: 5 differs from the input, which has 6)\n");
}

}  // namespace
}  // namespace memplan
