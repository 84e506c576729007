// `memplan plan | verify | stats` on conditionals: the exclusive branches
// share memory, the lower bound is the larger branch, the JSON plan lists
// the result's dead gap, and `memplan verify` rejects a plan that puts a
// temporary on the result where its branch holds it.
#include <filesystem>
#include <map>
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

// Branch @a needs 5120 bytes at its busiest, @b 6144; the result y is dead
// at t2-t3 (in @b before %by).
constexpr const char* kTwoBranches = R"(entry func @main(%flag: pred[], %x: 1024) {
  %y = conditional(%flag, %x) : 1024 {branches = [@a, @b]}
  %z = mul(%y, %x) : 1024
  return %z
}
func @a(%ax: 1024) {
  %a1 = exp(%ax) : 4096
  %ay = negate(%a1) : 1024
  return %ay
}
func @b(%bx: 1024) {
  %b1 = exp(%bx) : 3072
  %b2 = negate(%b1) : 3072
  %by = add(%b2) : 1024
  return %by
}
)";

class ControlFlowCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir();
    input_ = dir_ + "/branches.mpir";
    WriteText(input_, kTwoBranches);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string dir_;
  std::string input_;
};

TEST_F(ControlFlowCli, BranchesShareMemoryAndThePeakIsTheLargerBranch) {
  const std::string json = dir_ + "/plan.json";
  const CliRun run = Memplan("plan " + input_ + " --json " + json);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("transient extent 6144 bytes (6.00 KiB), lower bound 6144 bytes"));
  EXPECT_THAT(run.out, HasSubstr("algorithm: best-fit-temporal"));
  const nlohmann::json plan = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(plan["peak_bytes"], 6144);
  EXPECT_EQ(plan["lower_bound_bytes"], 6144);
  std::map<std::string, nlohmann::json> by_name;
  for (const nlohmann::json& b : plan["buffers"]) by_name[b["name"].get<std::string>()] = b;
  EXPECT_EQ(by_name["y"]["gaps"], nlohmann::json::parse("[[2, 3]]"));
  EXPECT_FALSE(by_name["b1"].contains("gaps"));
  // b1 reuses y's bytes during the gap.
  EXPECT_EQ(by_name["y"]["allocations"][0]["offset"], 0);
  EXPECT_EQ(by_name["b1"]["allocations"][0]["offset"], 0);
  EXPECT_EQ(by_name["b2"]["allocations"][0]["offset"], 3072);
  EXPECT_EQ(by_name["a1"]["allocations"][0]["offset"], 1024);

  const CliRun verified = Memplan("verify " + input_ + " " + json);
  EXPECT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_THAT(verified.out, HasSubstr("transient extent 6144 bytes, lower bound 6144 bytes"));
}

TEST_F(ControlFlowCli, StatsLowerBoundCountsOnlyLiveSteps) {
  const CliRun run = Memplan("stats " + input_);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("lower bound (max live activations): 6144 bytes (6.00 KiB) at step 3"));
  EXPECT_THAT(run.out, HasSubstr("[      2,       2]           3072"));
}

TEST_F(ControlFlowCli, VerifyRejectsATemporaryOnTheResultWhereItsBranchHoldsIt) {
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + input_ + " --json " + json).exit_code, 0);
  nlohmann::json plan = nlohmann::json::parse(Slurp(json));
  // Swap b1 and b2: b2 then covers y's bytes at t4, where @b has written %by.
  for (nlohmann::json& b : plan["buffers"]) {
    if (b["name"] == "b1") b["allocations"][0]["offset"] = 3072;
    if (b["name"] == "b2") b["allocations"][0]["offset"] = 0;
  }
  WriteText(json, plan.dump(2));
  const CliRun run = Memplan("verify " + input_ + " " + json);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err,
              HasSubstr("verification failed: buffer 'y' (id 2) allocation 0 (space 0, bytes [0, "
                        "1024), time [1, 6]) overlaps buffer 'b2' (id 6) allocation 0 (space 0, "
                        "bytes [0, 3072), time [3, 4]) at time 4"));
}

}  // namespace
}  // namespace memplan
