#include "packing/local_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "packing/packer.h"
#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

// Both skyline orders reach 25 here; the lower bound is 24 (at t=4 the three
// 8 B items are live), which a different tie-break order reaches.
std::vector<PackItem> Items() {
  return {{8, 1, 4, 5}, {1, 1, 2, 3}, {8, 1, 3, 4}, {9, 1, 0, 2}, {8, 1, 3, 4}};
}

Bytes PeakOfRun(const SkylinePacker& packer, const std::vector<std::int32_t>& priority) {
  const std::vector<Bytes> offsets = *packer.Run(priority, std::numeric_limits<Bytes>::max());
  Bytes peak = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    peak = std::max(peak, offsets[i] + packer.items()[i].size);
  }
  return peak;
}

TEST(LocalSearchTest, FindsALowerPeakWithinAFewSteps) {
  const std::vector<PackItem> items = Items();
  const SkylinePacker packer(items, 1);
  const std::vector<std::int32_t> start = SortForSkyline(items, SkylineOrder::kLongestFirst);
  const Bytes start_peak = PeakOfRun(packer, start);
  ASSERT_EQ(start_peak, 25);
  ASSERT_EQ(MaxLiveBytes(items), 24);
  const auto improved = ImproveSkylinePriority(packer, start, start_peak, 0, 3, 1, false);
  ASSERT_TRUE(improved.has_value());
  EXPECT_EQ(improved->peak, 24);
  EXPECT_EQ(testing::CheckPacking(items, improved->offsets, improved->peak, 1), "");
  // Same seed, same steps: same answer.
  const auto again = ImproveSkylinePriority(packer, start, start_peak, 0, 3, 1, false);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->offsets, improved->offsets);
}

TEST(LocalSearchTest, NothingWithoutStepsOrRoomToImprove) {
  const std::vector<PackItem> items = Items();
  const SkylinePacker packer(items, 1);
  const std::vector<std::int32_t> start = SortForSkyline(items, SkylineOrder::kLongestFirst);
  EXPECT_FALSE(ImproveSkylinePriority(packer, start, 25, 0, 0, 1, false).has_value());
  // Claiming the start already has the lower bound as peak: nothing is lower.
  EXPECT_FALSE(ImproveSkylinePriority(packer, start, 24, 0, 50, 1, false).has_value());
  // The start is already at the target: no step runs.
  EXPECT_FALSE(ImproveSkylinePriority(packer, start, 25, 25, 50, 1, false).has_value());
  // A single item cannot be reordered.
  const std::vector<PackItem> one = {{5, 1, 0, 0}};
  const SkylinePacker single(one, 1);
  EXPECT_FALSE(ImproveSkylinePriority(single, {0}, 5, 0, 50, 1, false).has_value());
}

TEST(LocalSearchTest, RestartsOnlyAtMaxEffort) {
  EXPECT_FALSE(RestartsOnPlateau(PackEffort::kFast));
  EXPECT_FALSE(RestartsOnPlateau(PackEffort::kDefault));
  EXPECT_TRUE(RestartsOnPlateau(PackEffort::kMax));
}

TEST(LocalSearchTest, WithRestartsTheSearchStillStopsAtTheTarget) {
  // Restarts kick the best list when a plateau lasts; the search still ends
  // as soon as it reaches the target (the lower bound 24), with the same
  // answer on every run.
  const std::vector<PackItem> items = Items();
  const SkylinePacker packer(items, 1);
  const std::vector<std::int32_t> start = SortForSkyline(items, SkylineOrder::kLongestFirst);
  const auto improved = ImproveSkylinePriority(packer, start, 25, 24, 100000, 1, true);
  ASSERT_TRUE(improved.has_value());
  EXPECT_EQ(improved->peak, 24);
  EXPECT_EQ(testing::CheckPacking(items, improved->offsets, improved->peak, 1), "");
  const auto again = ImproveSkylinePriority(packer, start, 25, 24, 100000, 1, true);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->offsets, improved->offsets);
}

}  // namespace
}  // namespace memplan
