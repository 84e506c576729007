// `memplan verify` on hand-edited fast-memory plans, `memplan stats` on huge
// time ranges and target-file limits, through the memplan binary: each edit
// breaks one rule and must be refused with a message naming it.
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan::testing_cli {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::ordered_json;

class VerifyStrictTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }

  // Plans mlp with fast memory (edge-npu: fast-memory alignment 64) and
  // returns the JSON plan.
  Json PlanMlp(const std::string& flags = "") {
    const std::string json = dir_ + "/plan.json";
    CliRun r = Memplan("plan " + kMlp + " --fast-memory 256KiB -q --json " + json + " " + flags);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return Json::parse(Slurp(json));
  }

  // Writes `doc` (or `text`) as a plan and runs `memplan verify` on it.
  CliRun Verify(const Json& doc) { return VerifyText(doc.dump()); }
  CliRun VerifyText(const std::string& text) {
    plan_ = dir_ + "/edited.json";
    WriteText(plan_, text);
    return Memplan("verify " + kMlp + " " + plan_);
  }

  std::string dir_;
  std::string plan_;
};

TEST_F(VerifyStrictTest, SpacesRecordTheirAlignment) {
  Json doc = PlanMlp();
  ASSERT_EQ(doc["spaces"].size(), 2u);
  EXPECT_EQ(doc["spaces"][0]["alignment"], 1);
  EXPECT_EQ(doc["spaces"][1]["alignment"], 64);
  EXPECT_EQ(Verify(doc).exit_code, 0);
  // The fast-memory alignment is the lcm of the target's and --alignment.
  doc = PlanMlp("--alignment 48");
  EXPECT_EQ(doc["alignment"], 48);
  EXPECT_EQ(doc["spaces"][0]["alignment"], 48);
  EXPECT_EQ(doc["spaces"][1]["alignment"], 192);
}

// The user's report: one alternate chunk moved by one byte (into free space)
// verified, since only the plan's alignment (1) was checked.
TEST_F(VerifyStrictTest, MisalignedFastMemoryOffsetIsRejected) {
  Json doc = PlanMlp();
  for (Json& buffer : doc["buffers"]) {
    for (size_t k = 0; k < buffer["allocations"].size(); ++k) {
      Json& a = buffer["allocations"][k];
      if (a["space"] != 1) continue;
      const std::int64_t offset = a["offset"].get<std::int64_t>() + 1;
      const std::int64_t size = buffer["size"];
      a["offset"] = offset;
      CliRun r = Verify(doc);
      EXPECT_EQ(r.exit_code, 1);
      EXPECT_EQ(r.err, plan_ + ": error: verification failed: buffer '" +
                           buffer["name"].get<std::string>() + "' (id " +
                           std::to_string(buffer["id"].get<int>()) + ") allocation " +
                           std::to_string(k) + " (space 1, bytes [" + std::to_string(offset) +
                           ", " + std::to_string(offset + size) + "), time [" +
                           std::to_string(a["start"].get<std::int64_t>()) + ", " +
                           std::to_string(a["end"].get<std::int64_t>()) + "]): offset " +
                           std::to_string(offset) +
                           " is not a multiple of 64, the alignment of memory space 1\n");
      return;
    }
  }
  FAIL() << "no allocation in fast memory";
}

TEST_F(VerifyStrictTest, EstimatedTimeBelowTheAllFastBoundIsRejected) {
  Json doc = PlanMlp();
  const double fast = doc["msa"]["time_all_fast_s"];
  ASSERT_GT(fast, 0);
  doc["msa"]["estimated_time_s"] = 0;
  CliRun r = Verify(doc);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(": error: verification failed: the MSA statistics report "
                               "estimated_time_s = 0 s, below time_all_fast_s = "));
}

TEST_F(VerifyStrictTest, EstimatedTimeBelowTheTimeBoundIsRejected) {
  Json doc = PlanMlp();
  const double estimated = doc["msa"]["estimated_time_s"];
  ASSERT_LE(doc["msa"]["time_bound_s"].get<double>(), estimated);
  doc["msa"]["time_bound_s"] = estimated * 1.01;
  CliRun r = Verify(doc);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(": error: verification failed: the MSA statistics report "
                               "estimated_time_s = "));
  EXPECT_THAT(r.err, HasSubstr(", below time_bound_s = "));
  // Plans written before the bound existed have none and still verify.
  doc["msa"].erase("time_bound_s");
  r = Verify(doc);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(VerifyStrictTest, FastMemoryPlanWithoutMsaBlockIsRejected) {
  Json doc = PlanMlp();
  const size_t copies = doc["async_copies"].size();
  ASSERT_GT(copies, 0u);
  doc.erase("msa");
  CliRun r = Verify(doc);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, plan_ + ": error: verification failed: the plan has " +
                       std::to_string(copies) + " async copies but no MSA statistics\n");
}

TEST_F(VerifyStrictTest, CopyDoneAtItsStartIsRejected) {
  Json doc = PlanMlp();
  for (size_t i = 0; i < doc["async_copies"].size(); ++i) {
    Json& c = doc["async_copies"][i];
    // Not a cross-program prefetch (start = done), nor one issued before the
    // first op (start -1: a done of -1 would not parse).
    if (c["start"] == c["done"] || c["start"].get<std::int64_t>() < 0) continue;
    c["done"] = c["start"];
    CliRun r = Verify(doc);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_THAT(r.err, HasSubstr("copy " + std::to_string(i) + " ("));
    EXPECT_THAT(r.err, HasSubstr(", the step it starts at: a copy-done must come after its "
                                 "copy-start"));
    return;
  }
  FAIL() << "no copy with start < done";
}

TEST_F(VerifyStrictTest, DuplicateKeyInThePlanIsRejected) {
  PlanMlp();
  std::string text = Slurp(dir_ + "/plan.json");
  text.replace(text.find("\"alignment\": 1,"), 15, "\"alignment\": 1,\n  \"alignment\": 64,");
  CliRun r = VerifyText(text);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, plan_ + ": error: /alignment: duplicate key\n");
}

TEST_F(VerifyStrictTest, TargetAlignmentAboveTwoToThe32IsRejected) {
  const std::string target = dir_ + "/big.json";
  WriteText(target,
            "{\"flops_per_second\": 1e12, \"transcendentals_per_second\": 1e11,\n"
            " \"default_bandwidth\": 1e10, \"alternate_bandwidth\": 1e11, \"copy_bandwidth\": 1e10,\n"
            " \"fast_memory_bytes\": 262144, \"alignment\": 8589934592}\n");
  CliRun r = Memplan("plan " + kMlp + " --target " + target);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, target + ":3:31: error: \"alignment\" must be an integer in [1, 4294967296] "
                            "(at most 2^32)\n");
}

// lcm(2^32 - 1, 2^32) does not fit the 2^32 alignment limit (nor, before
// the check, int64).
TEST_F(VerifyStrictTest, FastMemoryAlignmentLcmAboveTwoToThe32IsRejected) {
  const std::string target = dir_ + "/odd.json";
  WriteText(target,
            "{\"flops_per_second\": 1e12, \"transcendentals_per_second\": 1e11,\n"
            " \"default_bandwidth\": 1e10, \"alternate_bandwidth\": 1e11, \"copy_bandwidth\": 1e10,\n"
            " \"fast_memory_bytes\": 262144, \"alignment\": 4294967295}\n");
  CliRun r = Memplan("plan " + kMlp + " --target " + target + " --alignment 4GiB");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "memplan: error: the fast-memory alignment, the least common multiple of "
                   "target '" + target + "''s alignment 4294967295 and --alignment 4294967296, "
                   "exceeds 2^32 (4294967296)\n");
}

// `stats` works over event points: time lines of billions (or 2^62) of
// steps cost nothing extra.
TEST_F(VerifyStrictTest, StatsOnHugeTimeRanges) {
  const std::string csv = dir_ + "/huge.csv";
  WriteText(csv, "id,lower,upper,size\nb1,0,3,8\nb2,0,4000000000,4\n");
  CliRun r = Memplan("stats " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            csv + ": 2 buffers, 4000000000 time steps\n"
                  "total bytes: 12 bytes\n"
                  "  transient         2 buffers             12 bytes\n"
                  "lower bound (max live activations): 12 bytes at step 0\n"
                  "max live (all buffers, weights included): 12 bytes at step 0\n"
                  "activation peak: 12 bytes live at step 0 in 2 buffers:\n"
                  "   66.67%  b1: 8 bytes\n"
                  "   33.33%  b2: 4 bytes\n"
                  "live bytes over time (activations, max per band):\n"
                  "  [         0,  249999999]             12 ########################################\n"
                  "  [ 250000000,  499999999]              4 #############\n"
                  "  [ 500000000,  749999999]              4 #############\n"
                  "  [ 750000000,  999999999]              4 #############\n"
                  "  [1000000000, 1249999999]              4 #############\n"
                  "  [1250000000, 1499999999]              4 #############\n"
                  "  [1500000000, 1749999999]              4 #############\n"
                  "  [1750000000, 1999999999]              4 #############\n"
                  "  [2000000000, 2249999999]              4 #############\n"
                  "  [2250000000, 2499999999]              4 #############\n"
                  "  [2500000000, 2749999999]              4 #############\n"
                  "  [2750000000, 2999999999]              4 #############\n"
                  "  [3000000000, 3249999999]              4 #############\n"
                  "  [3250000000, 3499999999]              4 #############\n"
                  "  [3500000000, 3749999999]              4 #############\n"
                  "  [3750000000, 3999999999]              4 #############\n");
  WriteText(csv, "id,lower,upper,size\nb1,5,6,8\nb2,0,4611686018427387904,4\n");
  r = Memplan("stats " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(": 2 buffers, 4611686018427387904 time steps\n"));
  EXPECT_THAT(r.out, HasSubstr("lower bound (max live activations): 12 bytes at step 5\n"));
  EXPECT_THAT(r.out, HasSubstr("  [                  0,  288230376151711743]             12 "));
  EXPECT_THAT(r.out, HasSubstr("  [4323455642275676160, 4611686018427387903]              4 "));
}

}  // namespace
}  // namespace memplan::testing_cli
