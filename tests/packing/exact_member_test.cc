// kAuto's exact member (packing/exact_member.h) and the node budget of the
// exact search it runs under (packing/exact/exact_packer.h).
#include "packing/exact_member.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "packing/exact/exact_packer.h"
#include "packing/live_profile.h"
#include "packing/member_cost.h"
#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::CheckPacking;
using testing::XlaExample;

// Eight items whose max-live bound, 17 B (step 3), is their optimum, which
// none of the constructive heuristics reaches (the exact search needs a few
// nodes; the local search finds it too, so auto never needs the member
// here).
std::vector<PackItem> HeuristicsMissTheBound() {
  return {{7, 1, 2, 2}, {4, 1, 4, 7}, {6, 1, 2, 4}, {5, 1, 3, 3},
          {1, 1, 3, 6}, {5, 1, 3, 6}, {1, 1, 5, 7}, {5, 1, 5, 8}};
}

PackOptions AtCapacity(Bytes capacity) {
  PackOptions options;
  options.capacity = capacity;
  return options;
}

TEST(ExactMemberTest, FindsThePackingAtTheBoundThatPackMakesAgain) {
  // Given a best peak of 20, the member decides at the bound, 17, and
  // finds a packing there.
  const std::vector<PackItem> items = HeuristicsMissTheBound();
  ASSERT_EQ(MaxLiveBytes(items), 17);
  const InputShape shape{8, IntersectingPairs(items)};
  const ExactMemberOutcome out =
      RunExactMember(items, PackOptions{}, shape, 20, 17, 2, std::nullopt);
  ASSERT_TRUE(out.packed.has_value());
  EXPECT_EQ(out.packed->peak, 17);
  EXPECT_EQ(out.packed->algorithm, "exact");
  EXPECT_EQ(out.packed->search_status, SearchStatus::kNotSearched);
  EXPECT_EQ(CheckPacking(items, out.packed->offsets, 17, 1), "");
  EXPECT_EQ(out.lower_bound, 17);
  EXPECT_TRUE(out.report.ran);
  EXPECT_EQ(out.report.name, "exact");
  EXPECT_EQ(out.report.peak, 17);
  EXPECT_EQ(out.report.capacity, 17);
  EXPECT_FALSE(out.time_limited);
  // Its allowance is the default effort's exact work, whole nodes of it.
  const double node_work = ExactNodeWork(shape);
  ASSERT_TRUE(out.report.work && out.report.allowance);
  EXPECT_DOUBLE_EQ(*out.report.allowance,
                   static_cast<double>(static_cast<std::int64_t>(
                       BudgetFor(PackEffort::kDefault, shape).exact_work / node_work)) *
                       node_work);
  EXPECT_GT(*out.report.work, 0);
  EXPECT_LE(*out.report.work, *out.report.allowance);
  // `--algorithm exact --capacity 17` gives the same offsets.
  EXPECT_EQ(Pack(items, PackingAlgorithm::kExact, AtCapacity(17)).offsets, out.packed->offsets);
}

TEST(ExactMemberTest, ANodeCostsMoreWhereBuffersHaveManyNeighbours) {
  // 1,000 + 6 n units; above 200 neighbours a buffer (2 pairs / n), plus
  // 4.5 (d - 200) log2 d for the sort of the unplaced buffers.
  EXPECT_DOUBLE_EQ(ExactNodeWork(InputShape{400, 28000}), 1000 + 6 * 400);  // d = 140
  EXPECT_DOUBLE_EQ(ExactNodeWork(InputShape{1000, 100000}), 1000 + 6 * 1000);  // d = 200
  // d = 1,024: 4.5 x 824 x 10 = 37,080 more.
  EXPECT_DOUBLE_EQ(ExactNodeWork(InputShape{1000, 512000}), 1000 + 6 * 1000 + 37080);
}

TEST(ExactMemberTest, AutoProvesItsBestPeakOptimalAboveMaxLive) {
  // a (4 B, steps 0-1) is fixed at 2; b (4 B, steps 1-2) cannot go under
  // it: every member packs 10 while max-live is 8. The member proves 8 and
  // 9 infeasible, and the plan's lower bound becomes 10: no gap.
  std::vector<PackItem> items = {{4, 1, 0, 1}, {4, 1, 1, 2}};
  items[0].mutable_fixed_offset() = 2;
  const PackResult r = Pack(items, PackingAlgorithm::kAuto);
  EXPECT_EQ(r.peak, 10);
  EXPECT_EQ(r.lower_bound, 10);
  EXPECT_THAT(r.offsets, ElementsAre(2, 6));
  ASSERT_TRUE(r.report.has_value());
  const PackMemberReport& exact = r.report->members.back();
  EXPECT_EQ(exact.name, "exact");
  EXPECT_FALSE(exact.ran);
  EXPECT_TRUE(exact.finished);  // listed as searched, not stopped
  EXPECT_FALSE(MemberStopped(exact));
  EXPECT_EQ(exact.reason, "proved the best peak, 10 bytes, optimal");
}

TEST(ExactMemberTest, NotRunAtFastEffort) {
  const ExactMemberOutcome out = RunExactMember(
      XlaExample(), PackOptions{.effort = PackEffort::kFast}, InputShape{5, 8}, 150, 140, 2,
      std::nullopt);
  EXPECT_FALSE(out.packed.has_value());
  EXPECT_EQ(out.lower_bound, 140);
  EXPECT_EQ(out.report.reason, "not run at --effort fast (it has no exact search budget)");
  EXPECT_FALSE(out.report.work.has_value());
}

TEST(ExactMemberTest, SkippedWhenItsFirstRoundOfRestartsDoesNotFit) {
  // 10,000 buffers: 6 runs x 40,000 nodes at 61,000 units a node is over
  // the default 3.5 s (the items are not read: the shape decides).
  const InputShape shape{10000, 50000};
  const ExactMemberOutcome out =
      RunExactMember({}, PackOptions{}, shape, 150, 140, 2, std::nullopt);
  EXPECT_FALSE(out.packed.has_value());
  EXPECT_EQ(out.report.reason,
            "its first round of restarts (240000 nodes, estimated 14.64 s of work) does not fit "
            "its 2.00 s budget (raise --effort)");
}

TEST(ExactMemberTest, NoRaiseEffortHintWhenEvenTheMaxEffortIsNotEnough) {
  // 20,000 buffers: 6 runs x 80,000 nodes at 121,000 units a node is over
  // the max effort's 20 s too.
  const ExactMemberOutcome out =
      RunExactMember({}, PackOptions{}, InputShape{20000, 50000}, 150, 140, 2, std::nullopt);
  EXPECT_EQ(out.report.reason,
            "its first round of restarts (480000 nodes, estimated 58.08 s of work) does not fit "
            "its 2.00 s budget (--algorithm exact runs it alone)");
}

TEST(ExactMemberTest, ItsBudgetGrowsWithTheSquareOfTheItemsUpToTwoSeconds) {
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, InputShape{2, 1}).exact_work, 1e6);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, InputShape{40, 100}).exact_work, 6.4e7);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kDefault, InputShape{300, 5000}).exact_work, 2e9);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kMax, InputShape{40, 100}).exact_work, 6.4e8);
  EXPECT_DOUBLE_EQ(BudgetFor(PackEffort::kFast, InputShape{300, 5000}).exact_work, 0);
}

TEST(ExactNodeBudgetTest, FirstRoundNodes) {
  EXPECT_EQ(ExactFirstRoundNodes(300), 7200);  // the header's example
  EXPECT_EQ(ExactFirstRoundNodes(5), 6 * 4 * 16);  // at least 16 buffers' worth a run
}

// A budget too small for the decision ends it (kStopped, budget ended), with
// the same spent count, status and offsets on one and two threads; a budget
// of zero spends nothing.
TEST(ExactNodeBudgetTest, ABudgetEndsTheDecisionTheSameOnAnyThreadCount) {
  const std::vector<PackItem> items = HeuristicsMissTheBound();
  const std::int64_t needed = ExactPack(items, AtCapacity(17), 1).search_nodes;
  ASSERT_GT(needed, 2);
  for (const std::int64_t budget : {needed - 1, std::int64_t{1}, std::int64_t{0}}) {
    const PackResult one = ExactPack(items, AtCapacity(17), 1, budget);
    const PackResult two = ExactPack(items, AtCapacity(17), 2, budget);
    EXPECT_EQ(one.search_status, SearchStatus::kStopped) << budget;
    EXPECT_TRUE(one.search_node_budget_ended) << budget;
    EXPECT_EQ(one.search_node_budget_spent, budget);
    EXPECT_LE(one.search_nodes, budget);
    EXPECT_EQ(one.search_time_limit_seconds, 0);  // no wall clock with a node budget
    EXPECT_EQ(two.search_status, one.search_status) << budget;
    EXPECT_EQ(two.search_node_budget_spent, one.search_node_budget_spent) << budget;
    EXPECT_EQ(two.offsets, one.offsets) << budget;
    EXPECT_GT(one.peak, 17);  // the heuristic incumbent
    EXPECT_EQ(CheckPacking(items, one.offsets, one.peak, 1), "");
  }
}

// A decision that concludes within its budget gives what an unbudgeted one
// gives, and says what it spent.
TEST(ExactNodeBudgetTest, AConclusiveDecisionIsTheUnbudgetedOne) {
  const std::vector<PackItem> items = HeuristicsMissTheBound();
  const PackResult free = ExactPack(items, AtCapacity(17), 2);
  const PackResult budgeted = ExactPack(items, AtCapacity(17), 2, 1'000'000);
  EXPECT_EQ(budgeted.peak, 17);
  EXPECT_EQ(budgeted.search_status, free.search_status);
  EXPECT_EQ(budgeted.offsets, free.offsets);
  EXPECT_FALSE(budgeted.search_node_budget_ended);
  EXPECT_GT(budgeted.search_node_budget_spent, 0);
  EXPECT_EQ(free.search_node_budget_spent, 0);  // no budget, nothing counted
}

}  // namespace
}  // namespace memplan
