#include "packing/portfolio.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "packing/local_search.h"
#include "packing/member_cost.h"
#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::XlaExample;

// "name ran peak" or "name skipped: reason" per member, for exact checks.
std::vector<std::string> Lines(const PackResult& result) {
  std::vector<std::string> lines;
  for (const PackMemberReport& m : result.report->members) {
    lines.push_back(m.ran ? m.name + " ran " + std::to_string(m.peak)
                          : m.name + " skipped: " + m.reason);
  }
  return lines;
}

// Items that all overlap one another (starts in [0, 100), ends 100 to 200
// steps later), so the global members' work grows as n^2.
std::vector<PackItem> DenseItems(int n) {
  std::vector<PackItem> items;
  for (int i = 0; i < n; ++i) {
    const TimeStep start = (i * 37) % 100;
    items.push_back({1 + (i * 7919) % 4096, 1, start, start + 100 + (i * 13) % 100});
  }
  return items;
}

// Sets MEMPLAN_THREADS for the scope.
class ThreadsEnv {
 public:
  explicit ThreadsEnv(const char* value) { setenv("MEMPLAN_THREADS", value, 1); }
  ~ThreadsEnv() { unsetenv("MEMPLAN_THREADS"); }
};

TEST(AutoPackTest, MembersInGainPerCostOrderAndTheBestRankAtTheBoundWins) {
  // Online best fit (always first) gives 150; skyline-area may reach the
  // bound 140 first, but members of a better tie-break rank still run, and
  // best-fit-spatial (rank 0) reaches it too and wins.
  const PackResult r = Pack(XlaExample(), PackingAlgorithm::kAuto);
  EXPECT_EQ(r.algorithm, "best-fit-spatial");
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.lower_bound, 140);
  EXPECT_THAT(r.offsets, ElementsAre(90, 120, 50, 90, 0));
  ASSERT_TRUE(r.report.has_value());
  EXPECT_EQ(r.report->effort, "default");
  EXPECT_FALSE(r.report->time_limited);
  // Every member of a worse rank than spatial is reported skipped, whether
  // or not it ran before spatial reached the bound (the report must not
  // depend on timing).
  EXPECT_THAT(Lines(r),
              ElementsAre("online-best-fit ran 150",
                          "skyline-area skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "skyline-longest skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-spatial ran 140",
                          "best-fit-busiest skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-temporal skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-start-time skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "in-order skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "skyline-local-search skipped: not needed: the best peak is at the lower bound"));
}

TEST(AutoPackTest, FastEffortSkipsMembersThatAreNotNearNLogN) {
  // 3,000 items all live together: 4,498,500 overlapping pairs.
  const std::vector<PackItem> items = DenseItems(3000);
  const PackResult r = Pack(items, PackingAlgorithm::kAuto,
                            PackOptions{.effort = PackEffort::kFast});
  EXPECT_EQ(r.algorithm, "online-best-fit");
  const std::vector<std::string> lines = Lines(r);
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_THAT(lines[0], StartsWith("online-best-fit ran "));
  for (std::size_t k = 1; k < 8; ++k) {
    EXPECT_THAT(lines[k], HasSubstr("skipped: not run at --effort fast: estimated "));
    EXPECT_THAT(lines[k], HasSubstr(" of work, not near n log n (4498500 pairs of 3000 buffers live together)"));
  }
  EXPECT_EQ(lines[8], "skyline-local-search skipped: not needed: the best peak is at the lower bound");
  EXPECT_EQ(testing::CheckPacking(items, r.offsets, r.peak, 1), "");
}

TEST(AutoPackTest, DefaultEffortSkipsMembersOverTheirLanesBudget) {
  // 8,000 items live together: the global members are estimated at more
  // than a lane's 1.75 s of work and are skipped before they start.
  const std::vector<PackItem> items = DenseItems(8000);
  const PackResult r = Pack(items, PackingAlgorithm::kAuto);
  EXPECT_EQ(r.algorithm, "online-best-fit");
  const std::vector<std::string> lines = Lines(r);
  ASSERT_EQ(lines.size(), 9u);
  for (std::size_t k = 1; k < 8; ++k) {
    EXPECT_THAT(lines[k], HasSubstr("skipped: estimated "));
    EXPECT_THAT(lines[k], HasSubstr(" of work, over the "));
    EXPECT_THAT(lines[k], HasSubstr(" left of its lane's 1.75 s budget (raise --effort)"));
  }
}

TEST(AutoPackTest, SameResultForAnyThreadCount) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const std::vector<PackItem> items = testing::RandomItems(120, 40, 1000, seed);
    PackResult one;
    PackResult two;
    {
      ThreadsEnv env("1");
      one = Pack(items, PackingAlgorithm::kAuto, 8);
    }
    {
      ThreadsEnv env("2");
      two = Pack(items, PackingAlgorithm::kAuto, 8);
    }
    EXPECT_EQ(one.offsets, two.offsets) << seed;
    EXPECT_EQ(one.algorithm, two.algorithm) << seed;
    EXPECT_EQ(Lines(one), Lines(two)) << seed;
  }
}

TEST(AutoPackTest, TimeLimitSkipsWhatHasNotStartedAndSaysSo) {
  const std::vector<PackItem> items = testing::RandomItems(200, 60, 1000, 7);
  const PackResult r =
      Pack(items, PackingAlgorithm::kAuto, PackOptions{.time_limit_seconds = 1e-9});
  EXPECT_EQ(r.algorithm, "online-best-fit");  // the fallback always runs
  EXPECT_TRUE(r.report->time_limited);
  const std::vector<std::string> lines = Lines(r);
  ASSERT_EQ(lines.size(), 9u);
  for (std::size_t k = 1; k < 8; ++k) {
    EXPECT_THAT(lines[k],
                HasSubstr("skipped: earlier members used up --time-limit (raise --time-limit)"));
  }
  EXPECT_EQ(testing::CheckPacking(items, r.offsets, r.peak, 1), "");
}

TEST(AutoPackTest, MaxEffortRunsEveryMemberAndIsNoWorseThanDefault) {
  const std::vector<PackItem> items = testing::RandomItems(150, 50, 1000, 11);
  const PackResult fast = Pack(items, PackingAlgorithm::kAuto, PackOptions{.effort = PackEffort::kFast});
  const PackResult normal = Pack(items, PackingAlgorithm::kAuto);
  const PackResult max = Pack(items, PackingAlgorithm::kAuto, PackOptions{.effort = PackEffort::kMax});
  EXPECT_EQ(max.report->effort, "max");
  EXPECT_LE(normal.peak, fast.peak);
  EXPECT_LE(max.peak, normal.peak);
  for (const PackMemberReport& m : max.report->members) {
    if (m.name == "skyline-local-search") continue;
    EXPECT_TRUE(m.ran || m.reason.starts_with("lower bound reached")) << m.name << ": " << m.reason;
  }
}

TEST(MemberCostTest, EstimatesFromTheInputShape) {
  // 10^5 items, 3 x 10^6 pairs (30 per item): best fit 0.05 s of sorting,
  // 0.04 s of queries and 3 x 10^6 x (20 + 9 log2 31) units of visits;
  // skyline 350 x (10^5 + 3 x 10^6 / 4) units of queue pops plus its sort.
  const InputShape shape{100'000, 3'000'000};
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kBestFitSpatial, shape) * 1e-9, 0.2836, 1e-4);
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kSkylineArea, shape) * 1e-9, 0.3473, 1e-4);
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kOnlineBestFit, shape) * 1e-9, 0.1329, 1e-4);
  // Default effort: 3.5 x 10^9 units at 10^5 items and below.
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, shape).member_work, 3.5e9);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, {1000, 0}).member_work, 3.5e9);
  // Max effort: ten times the default budget, still bounded.
  EXPECT_FALSE(BudgetFor(PackEffort::kMax, shape).every_member);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kMax, shape).member_work, 3.5e10);
  EXPECT_EQ(BudgetFor(PackEffort::kFast, shape).search_work, 0);
  // Fast effort: 400 x n log2 n units for all members (10^5 items:
  // 400 x 1,660,964 = 0.66 s), so that 10^6 items stay near n log n.
  EXPECT_NEAR(BudgetFor(PackEffort::kFast, shape).member_work * 1e-9, 0.6644, 1e-4);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kFast, shape).near_linear_factor, 400);
}

}  // namespace
}  // namespace memplan
