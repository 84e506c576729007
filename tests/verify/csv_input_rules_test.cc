// The verifier's rules for what a lifetime CSV states (verify/verifier.h):
// fixed offsets (rule 2) and dead gaps given as input (rule 3,
// VerifyOptions::input_gaps).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

using testing_verify::MakeBuffer;

// One transient pool at 0 in the default space, one segment per buffer over
// its live range at `offsets`; pool size, peaks and lower bound `peak`.
Plan CsvRulesPlan(const BufferSet& set, const std::vector<Bytes>& offsets, Bytes peak) {
  Plan plan;
  plan.time_steps = set.time_steps;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, peak}};
  PoolInfo pool;
  pool.name = "transient";
  pool.size = peak;
  pool.lower_bound = peak;
  pool.buffers = static_cast<std::int64_t>(set.buffers.size());
  for (std::size_t i = 0; i < set.buffers.size(); ++i) {
    const Buffer& b = set.buffers[i];
    pool.total_bytes += b.size;
    plan.placements.push_back(
        {"transient", {Allocation{kDefaultSpace, offsets[i], b.start, b.end}}});
  }
  plan.pools = {pool};
  plan.peak = peak;
  plan.lower_bound = peak;
  return plan;
}

std::string CsvRulesVerify(const BufferSet& set, const Plan& plan, bool input_gaps) {
  VerifyOptions options;
  options.input_gaps = input_gaps;
  const absl::Status s = VerifyPlan(set, plan, options);
  return s.ok() ? "OK" : std::string(s.message());
}

TEST(VerifierCsvInputTest, FixedBuffersKeepTheirOffset) {
  BufferSet set;
  set.time_steps = 4;
  set.buffers = {MakeBuffer("f", 8, 0, 3), MakeBuffer("g", 8, 0, 3)};
  set.buffers[0].mutable_fixed_offset() = 8;
  EXPECT_EQ(CsvRulesVerify(set, CsvRulesPlan(set, {8, 0}, 16), false), "OK");
  const std::string moved = CsvRulesVerify(set, CsvRulesPlan(set, {0, 8}, 16), false);
  EXPECT_NE(moved.find("offset 0 is not the buffer's fixed offset 8"), std::string::npos)
      << moved;
}

TEST(VerifierCsvInputTest, InputGapsFreeBytesOnlyWhenSaidSo) {
  // big [0,9] holds nothing during [3,5]; mid [3,5] shares its bytes then.
  BufferSet set;
  set.time_steps = 10;
  set.buffers = {MakeBuffer("big", 16, 0, 9), MakeBuffer("mid", 16, 3, 5)};
  set.buffers[0].mutable_gaps() = {{3, 5}};
  const Plan plan = CsvRulesPlan(set, {0, 0}, 16);
  EXPECT_EQ(CsvRulesVerify(set, plan, true), "OK");
  // Without the option the gaps are a planner's claim: never trusted.
  EXPECT_NE(CsvRulesVerify(set, plan, false), "OK");
  // A gap one step shorter leaves step 5 shared.
  set.buffers[0].mutable_gaps() = {{3, 4}};
  EXPECT_NE(CsvRulesVerify(set, plan, true), "OK");
}

TEST(VerifierCsvInputTest, WindowsFreeTheirOtherBytes) {
  // w keeps only its low 8 bytes during [3,5]; v uses the high 8 then.
  BufferSet set;
  set.time_steps = 10;
  set.buffers = {MakeBuffer("w", 16, 0, 9), MakeBuffer("v", 8, 3, 5)};
  set.buffers[0].mutable_windows() = {OccupancyWindow{{3, 5}, 0, 8}};
  EXPECT_EQ(CsvRulesVerify(set, CsvRulesPlan(set, {0, 8}, 16), true), "OK");
  EXPECT_EQ(CsvRulesVerify(set, CsvRulesPlan(set, {0, 16}, 24), true), "OK");
  // Not in the window's bytes: v at 4 meets w's [0, 8).
  EXPECT_EQ(CsvRulesVerify(set, CsvRulesPlan(set, {0, 4}, 16), true),
            "buffer 'v' (id 1) allocation 0 (space 0, bytes [4, 12), time "
            "[3, 5]) overlaps buffer 'w' (id 0) allocation 0 (space 0, bytes [0, 16), time "
            "[0, 9]) at time 3, where both hold bytes [4, 8)");
  // A window one step shorter leaves step 5 fully live.
  set.buffers[0].mutable_windows() = {OccupancyWindow{{3, 4}, 0, 8}};
  EXPECT_NE(CsvRulesVerify(set, CsvRulesPlan(set, {0, 8}, 16), true), "OK");
  // Without the option windows are not trusted.
  set.buffers[0].mutable_windows() = {OccupancyWindow{{3, 5}, 0, 8}};
  EXPECT_NE(CsvRulesVerify(set, CsvRulesPlan(set, {0, 8}, 16), false), "OK");
}

}  // namespace
}  // namespace memplan
