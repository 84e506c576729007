#include "packing/portfolio.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "packing/baselines.h"
#include "packing/local_search.h"
#include "packing/skyline.h"
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
                          "skyline-crowded skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-spatial ran 140",
                          "skyline-longest skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-start-time skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-busiest skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-temporal skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "in-order skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "skyline-local-search skipped: not needed: the best peak is at the lower bound",
                          "skyline-window-search skipped: not needed: the best peak is at the lower bound",
                          "exact skipped: not needed: the best peak is at the lower bound"));
}

TEST(AutoPackTest, FastEffortSkipsMembersThatAreNotNearNLogN) {
  // 3,000 items all live together: 4,498,500 overlapping pairs. The skyline
  // members (the sweep, O(n log^2 n) whatever the overlap) are near n log n
  // and run; best fit and in-order (their work grows with the pairs) are not.
  const std::vector<PackItem> items = DenseItems(3000);
  const PackResult r = Pack(items, PackingAlgorithm::kAuto,
                            PackOptions{.effort = PackEffort::kFast});
  const std::vector<std::string> lines = Lines(r);
  ASSERT_EQ(lines.size(), 12u);
  EXPECT_THAT(lines[0], StartsWith("online-best-fit ran "));
  // Every skyline reaches the bound (every item is live with every other);
  // longest ranks first and wins the tie.
  EXPECT_EQ(lines[1],
            "skyline-area skipped: not needed: skyline-longest reached the lower bound and wins ties");
  EXPECT_EQ(lines[2],
            "skyline-crowded skipped: not needed: skyline-longest reached the lower bound and wins ties");
  EXPECT_THAT(lines[3], StartsWith("skyline-longest ran "));
  EXPECT_EQ(r.algorithm, "skyline-longest");
  for (std::size_t k = 4; k < 9; ++k) {
    EXPECT_THAT(lines[k], HasSubstr("skipped: not run at --effort fast: estimated "));
    EXPECT_THAT(lines[k], HasSubstr(" of work, not near n log n (4498500 pairs of 3000 buffers live together)"));
  }
  EXPECT_THAT(lines[9], StartsWith("skyline-local-search skipped: "));
  EXPECT_THAT(lines[10], StartsWith("skyline-window-search skipped: "));
  EXPECT_THAT(lines[11], StartsWith("exact skipped: "));
  EXPECT_EQ(testing::CheckPacking(items, r.offsets, r.peak, 1), "");
}

// On a tiny input every estimate is mostly its constant term, above 400 n
// log2 n (for one item 1,430 units against 400), yet negligible: --effort
// fast does not skip a member as "not near n log n" for it, and its lanes
// have room for all (kNegligibleWork), so the outcome is default effort's.
TEST(AutoPackTest, FastEffortRunsNegligibleMembersOnATinyInput) {
  const PackResult one =
      Pack({PackItem{10, 1, 0, 3}}, PackingAlgorithm::kAuto, PackOptions{.effort = PackEffort::kFast});
  for (const PackMemberReport& m : one.report->members) {
    EXPECT_EQ(m.reason.find("not near n log n"), std::string::npos) << m.name << ": " << m.reason;
    EXPECT_EQ(m.reason.find("budget"), std::string::npos) << m.name << ": " << m.reason;
  }
  const PackResult r =
      Pack(XlaExample(), PackingAlgorithm::kAuto, PackOptions{.effort = PackEffort::kFast});
  EXPECT_EQ(r.algorithm, "best-fit-spatial");
  EXPECT_EQ(r.peak, 140);
  // By gain alone at fast: skyline-area, skyline-crowded, best-fit-spatial,
  // skyline-longest, ...
  EXPECT_THAT(Lines(r),
              ElementsAre("online-best-fit ran 150",
                          "skyline-area skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "skyline-crowded skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-spatial ran 140",
                          "skyline-longest skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-busiest skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-temporal skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "best-fit-start-time skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "in-order skipped: not needed: best-fit-spatial reached the lower bound and wins ties",
                          "skyline-local-search skipped: not needed: the best peak is at the lower bound",
                          "skyline-window-search skipped: not needed: the best peak is at the lower bound",
                          "exact skipped: not needed: the best peak is at the lower bound"));
  // The floor: two lanes of kNegligibleWork up to about 95 items, 320 n
  // log2 n above.
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kFast, InputShape{1, 0}).member_work, 2e5);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kFast, InputShape{64, 0}).member_work, 2e5);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kFast, InputShape{128, 0}).member_work, 320 * 128 * 7);
}

TEST(AutoPackTest, DefaultEffortStartsMembersOverTheirLanesBudgetUnderACap) {
  // 8,000 random items over 3,000 steps, most of them long: the three
  // skylines, best-fit-spatial and best-fit-start-time fit their lanes of
  // 0.45 s; best-fit-busiest no longer fits what is left of both lanes, so
  // it starts after those, capped at what is left of both, and is stopped
  // there; best-fit-temporal and in-order find both lanes used up.
  const std::vector<PackItem> items = testing::RandomItems(8000, 3000, 4096, 5);
  const PackResult r = Pack(items, PackingAlgorithm::kAuto);
  ASSERT_GT(r.peak, r.lower_bound);
  const std::vector<std::string> lines = Lines(r);
  ASSERT_EQ(lines.size(), 12u);
  EXPECT_THAT(lines[1], StartsWith("skyline-area ran "));
  EXPECT_THAT(lines[2], StartsWith("skyline-crowded ran "));
  EXPECT_THAT(lines[3], StartsWith("skyline-longest ran "));
  int stopped = 0;
  int used_up = 0;
  for (std::size_t k = 4; k < 9; ++k) {
    stopped += lines[k].find("skipped: stopped when it had used the ") != std::string::npos;
    used_up += lines[k].find("skipped: earlier members used up both lanes' 0.45 s work budgets") !=
               std::string::npos;
  }
  EXPECT_EQ(stopped, 1);
  EXPECT_EQ(used_up, 2);
  double counted = 0;
  for (const PackMemberReport& m : r.report->members) {
    if (m.name != "skyline-local-search" && m.name != "skyline-window-search" && m.work) {
      counted += *m.work;
    }
  }
  // A lane is charged its members' estimates: what they count stays within
  // twice its budget.
  EXPECT_LE(counted, 2 * BudgetFor(PackEffort::kDefault, ShapeOf(items)).member_work);
}

TEST(AutoPackTest, CappedMembersAreNotNeededOnceAMemberReachesTheBound) {
  // Every item live with every other: the skylines reach the bound; the
  // best-fit members (estimated over the whole budget at 12,000 items),
  // started under a cap, rank after them and cannot win a tie, so they need
  // not start.
  const std::vector<PackItem> items = DenseItems(12000);
  const PackResult r = Pack(items, PackingAlgorithm::kAuto);
  EXPECT_EQ(r.peak, r.lower_bound);
  EXPECT_EQ(r.algorithm, "skyline-longest");
  const std::vector<std::string> lines = Lines(r);
  ASSERT_EQ(lines.size(), 12u);
  for (std::size_t k = 4; k < 9; ++k) {
    EXPECT_THAT(lines[k], HasSubstr("skipped: not needed: skyline-longest reached the lower bound"));
  }
}

TEST(AutoPackTest, ReportsCountedWorkWithinEachAllowanceAndTheBudget) {
  // XlaExample: 5 items, 8 overlapping pairs. best-fit-spatial places e, c,
  // d, b, a against 0, 1, 2, 3 and 2 placed chunks; it runs in lane 1 (lane
  // 0 holds online-best-fit's estimate) and may count 2 x its estimate.
  const PackResult r = Pack(XlaExample(), PackingAlgorithm::kAuto);
  const InputShape shape{5, 8};
  double allowed = EstimatedWork(PackingAlgorithm::kOnlineBestFit, shape);
  for (const PackMemberReport& m : r.report->members) {
    EXPECT_EQ(m.work.has_value(), m.allowance.has_value()) << m.name;
    if (m.name == "online-best-fit") {
      EXPECT_FALSE(m.work.has_value());  // it does not count
    }
    if (m.name == "best-fit-spatial") {
      ASSERT_TRUE(m.work.has_value());
      // Its placements' standard work, in its own units (0.62 of them).
      EXPECT_DOUBLE_EQ(*m.work, 0.62 * (PlacementWork(0, 5) + PlacementWork(1, 5) +
                                        2 * PlacementWork(2, 5) + PlacementWork(3, 5)));
      EXPECT_DOUBLE_EQ(*m.allowance,
                       2 * EstimatedWork(PackingAlgorithm::kBestFitSpatial, shape));
    }
    if (m.work) {
      EXPECT_LE(*m.work, *m.allowance) << m.name;
      allowed += *m.allowance;
    }
  }
  EXPECT_LE(allowed, BudgetFor(PackEffort::kDefault, shape).member_work);
}

TEST(AutoPackTest, InOrderCountsItsWorkAndStopsAtItsLimit) {
  // In input order a, b, c, d, e meet 0, 1, 2, 2 and 3 placed chunks.
  const double all =
      PlacementWork(0, 5) + PlacementWork(1, 5) + 2 * PlacementWork(2, 5) + PlacementWork(3, 5);
  double work = 0;
  const std::optional<PackResult> whole =
      InOrderPackWithin(XlaExample(), 1, std::numeric_limits<double>::infinity(), &work, {});
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->offsets, InOrderPack(XlaExample(), 1).offsets);
  EXPECT_DOUBLE_EQ(work, all);
  // A limit of the first two placements' work: the third passes it.
  work = 0;
  EXPECT_FALSE(
      InOrderPackWithin(XlaExample(), 1, PlacementWork(0, 5) + PlacementWork(1, 5), &work, {})
          .has_value());
  EXPECT_DOUBLE_EQ(work, PlacementWork(0, 5) + PlacementWork(1, 5) + PlacementWork(2, 5));
}

TEST(AutoPackTest, LocalSearchStopsAtItsWorkLimit) {
  // Five items (under the skyline's scan limit): the start's re-pack counts
  // 2.2 units per pending item at its first placement, 11 > 0, and gives up.
  const std::vector<PackItem> items = XlaExample();
  const SkylinePacker packer(items, 1);
  const std::vector<std::int32_t> priority = SortForSkyline(items, SkylineOrder::kLargestArea);
  double work = -1;
  SearchStop stop;
  stop.work_limit = 0;
  stop.work = &work;
  EXPECT_FALSE(ImproveSkylinePriority(packer, priority, 150, 100, 1000, 1, false, stop).has_value());
  EXPECT_DOUBLE_EQ(work, 11);
  // With a limit of 132 units: a whole re-pack passes over 5 + 4 + 3 + 2 +
  // 1 = 15 pending items (33 units); the start and three steps run whole
  // (132, not over the limit), the next step passes it at its first
  // placement (+11) and the search ends there (target 100 is below every
  // peak, so only the work limit ends it).
  stop.work_limit = 132;
  ImproveSkylinePriority(packer, priority, 150, 100, 1000, 1, false, stop);
  EXPECT_DOUBLE_EQ(work, 143);
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
  ASSERT_EQ(lines.size(), 12u);
  for (std::size_t k = 1; k < 9; ++k) {
    EXPECT_THAT(lines[k],
                HasSubstr("skipped: earlier members used up --time-limit (raise --time-limit)"));
  }
  EXPECT_EQ(lines[11], "exact skipped: earlier members used up --time-limit (raise --time-limit)");
  EXPECT_EQ(testing::CheckPacking(items, r.offsets, r.peak, 1), "");
}

TEST(AutoPackTest, MaxEffortRunsEveryMemberAndIsNoWorseThanDefault) {
  const std::vector<PackItem> items = testing::RandomItems(60, 20, 1000, 11);
  const PackResult fast = Pack(items, PackingAlgorithm::kAuto, PackOptions{.effort = PackEffort::kFast});
  const PackResult normal = Pack(items, PackingAlgorithm::kAuto);
  const PackResult max = Pack(items, PackingAlgorithm::kAuto, PackOptions{.effort = PackEffort::kMax});
  EXPECT_EQ(max.report->effort, "max");
  EXPECT_LE(normal.peak, fast.peak);
  EXPECT_LE(max.peak, normal.peak);
  for (const PackMemberReport& m : max.report->members) {
    if (m.name == "skyline-local-search" || m.name == "skyline-window-search" || m.name == "exact") {
      continue;
    }
    EXPECT_TRUE(m.ran || m.reason.starts_with("lower bound reached")) << m.name << ": " << m.reason;
  }
}

TEST(MemberCostTest, EstimatesFromTheInputShape) {
  // 10^5 items, 3 x 10^6 pairs (30 per item): best fit 0.033 s of sorting,
  // 0.071 s of queries and 3 x 10^6 x (0.25 log2 10^5 + 5 log2 31) units
  // of visits, 0.1914 s in standard units, times its order's scale
  // (spatial 0.62, start time 0.43); the skyline sweep over 10^5 slots 3.6
  // steps an item of 0.9 log2 10^5 log2 (10^5 + 1) units each, whatever the
  // pairs, plus 10 n log2 n of set-up; online best fit 22 n log2 n.
  const InputShape shape{.items = 100'000, .pairs = 3'000'000, .slots = 100'000};
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kBestFitSpatial, shape) * 1e-9, 0.1187, 1e-4);
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kBestFitStartTime, shape) * 1e-9, 0.0823, 1e-4);
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kSkylineArea, shape) * 1e-9, 0.1060, 1e-4);
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kSkylineArea,
                            {.items = 100'000, .pairs = 3'000'000'000, .slots = 100'000}) *
                  1e-9,
              0.1060, 1e-4);
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kOnlineBestFit, shape) * 1e-9, 0.0365, 1e-4);
  // Every buffer live at once (one time slot): online best fit frees
  // nothing, 7.5 n log2 n.
  const InputShape all_live{.items = 10'000, .pairs = 49'995'000, .slots = 1};
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kOnlineBestFit, all_live),
              7.5 * 10'000 * std::log2(10'000.0) + 1000, 1e-6);
  // Default effort: 0.9 x 10^9 units at 10^5 items and below (two lanes
  // of 0.45 s), 12 x that at 10^6 (10 x the items, log2 6/5 as long); the
  // search half as much with n log n, at least 7.5 x 10^8 (3.4 x 10^8 up to
  // 1,024 items).
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, shape).member_work, 0.9e9);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, shape).search_work, 7.5e8);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, {1000, 0}).member_work, 0.9e9);
  // Up to the skyline's scan limit (1,024 items) the floor is 3.4 x 10^8.
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, {1000, 0}).search_work, 3.4e8);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, {1025, 0}).search_work, 7.5e8);
  EXPECT_NEAR(BudgetFor(PackEffort::kDefault, {1'000'000, 0}).member_work, 1.08e10, 1);
  EXPECT_NEAR(BudgetFor(PackEffort::kDefault, {1'000'000, 0}).search_work, 5.4e9, 1);
  // Max effort: ten times the default budget, still bounded.
  EXPECT_FALSE(BudgetFor(PackEffort::kMax, shape).every_member);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kMax, shape).member_work, 9e9);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kMax, shape).search_work, 7.5e9);
  EXPECT_EQ(BudgetFor(PackEffort::kFast, shape).search_work, 0);
  // Fast effort: 320 x n log2 n units for all members (10^5 items:
  // 320 x 1,660,964 = 0.53 s), candidates within 400 x n log2 n each, so
  // that 10^6 items stay near n log n.
  EXPECT_NEAR(BudgetFor(PackEffort::kFast, shape).member_work * 1e-9, 0.5315, 1e-4);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kFast, shape).near_linear_factor, 400);
}

TEST(MemberCostTest, SkylineSweepStepWorkGrowsFrom1e5To1e6ItemsAndWithSlots) {
  // 0.9 x log2 n x log2 (slots + 1), x (1 + 0.6 log10 (n / 10^5)) above 10^5.
  EXPECT_NEAR(SkylineSweepStepWork(100'000, 100'000), 248.29, 0.01);
  EXPECT_NEAR(SkylineSweepStepWork(300'000, 300'000), 383.23, 0.01);
  EXPECT_NEAR(SkylineSweepStepWork(1'000'000, 1'000'000), 572.07, 0.01);
  // Every item live throughout: one slot, a step is a fraction of the above.
  EXPECT_NEAR(SkylineSweepStepWork(10'000, 1), 11.96, 0.01);
  // 3.6 steps an item and 10 n log2 n of set-up.
  InputShape shape{.items = 1'000'000, .pairs = 100'000'000, .slots = 1'000'000};
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kSkylineArea, shape) * 1e-9, 2.2587, 1e-4);
  shape.slots = 1;
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kSkylineArea, shape) * 1e-9, 0.3026, 1e-4);
}

TEST(MemberCostTest, SkylinePopWorkGrowsFrom1e5To1e6Items) {
  // The lazy queue, which the skyline uses with fixed items.
  EXPECT_DOUBLE_EQ(SkylinePopWork(1), 350);
  EXPECT_DOUBLE_EQ(SkylinePopWork(100'000), 350);
  EXPECT_NEAR(SkylinePopWork(300'000), 516.99, 0.01);  // 350 x (1 + log10 3)
  EXPECT_DOUBLE_EQ(SkylinePopWork(1'000'000), 700);
  EXPECT_DOUBLE_EQ(SkylinePopWork(10'000'000), 700);
  // At 10^6 items the queue's estimate doubles its pops' share: 700 x
  // (10^6 + 10^8 / 4) + 30 x 10^6 log2 10^6 = 18.79 s.
  EXPECT_NEAR(EstimatedWork(PackingAlgorithm::kSkylineArea, {1'000'000, 100'000'000, true}) * 1e-9,
              18.798, 1e-3);
}

}  // namespace
}  // namespace memplan
