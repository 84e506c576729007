#include "packing/live_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "packing/packer.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

TEST(MaxLiveBytesTest, NoItems) { EXPECT_EQ(MaxLiveBytes({}), 0); }

TEST(MaxLiveBytesTest, XlaExample) {
  // t=5..6: b, c, d, e live = 20 + 40 + 30 + 50.
  EXPECT_EQ(MaxLiveBytes({{10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {30, 1, 4, 8},
                          {50, 1, 5, 9}}),
            140);
}

TEST(MaxLiveBytesTest, ClosedRangesSharingOneStepAreLiveTogether) {
  EXPECT_EQ(MaxLiveBytes({{5, 1, 0, 1}, {7, 1, 1, 2}}), 12);
  EXPECT_EQ(MaxLiveBytes({{5, 1, 0, 0}, {7, 1, 1, 2}}), 7);
}

TEST(MaxLiveBytesTest, ZeroSizeItemsCountNothing) {
  EXPECT_EQ(MaxLiveBytes({{0, 1, 0, 9}, {3, 1, 4, 4}}), 3);
}

TEST(MaxLiveBytesTest, PeakInsideALongItem) {
  // The long item's start (0) is not the busiest time: t=6 has 100 + 8 + 9.
  EXPECT_EQ(MaxLiveBytes({{100, 1, 0, 10}, {8, 1, 5, 6}, {9, 1, 6, 7}, {50, 1, 11, 11}}), 117);
}

TEST(MaxLiveDuringTest, HeaderExample) {
  // Live bytes: t0 10, t1 30, t2-3 70, t4-6 60, t7 45, t8-9 5.
  EXPECT_THAT(MaxLiveDuring({{10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {5, 1, 7, 9}}),
              ElementsAre(70, 70, 70, 45));
}

TEST(MaxLiveDuringTest, ZeroSizeItemGetsZero) {
  EXPECT_THAT(MaxLiveDuring({{0, 1, 0, 9}, {3, 1, 4, 4}}), ElementsAre(0, 3));
}

TEST(IntersectingPairsTest, HeaderExample) {
  // ab, ac, bc (t=2..3) and cd (t=7); a and d never meet.
  EXPECT_EQ(IntersectingPairs({{10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {5, 1, 7, 9}}), 4);
}

TEST(IntersectingPairsTest, AllLiveIsEveryPair) {
  const std::vector<PackItem> items(100, PackItem{8, 1, 3, 5});
  EXPECT_EQ(IntersectingPairs(items), 4950);
}

TEST(SortedBoundariesTest, HeaderExample) {
  EXPECT_THAT(SortedBoundaries({{10, 1, 0, 3}, {20, 1, 2, 7}, {0, 1, 5, 9}}), ElementsAre(0, 2, 4, 8));
}

TEST(TimeSlotsTest, HeaderExampleAndAllLive) {
  // Boundaries 0, 2, 4, 8.
  EXPECT_EQ(TimeSlots({{10, 1, 0, 3}, {20, 1, 2, 7}}), 3);
  EXPECT_EQ(TimeSlots(std::vector<PackItem>(100, PackItem{8, 1, 0, 9})), 1);
  EXPECT_EQ(TimeSlots({}), 0);
  // Empty items are no boundaries.
  EXPECT_EQ(TimeSlots({{0, 1, 5, 9}, {8, 1, 0, 1}}), 1);
}

TEST(TimeSlotsTest, SparseTimesCountLikeDenseOnes) {
  // Far apart (no DenseSpan): sorted; the same shape scaled counts the same.
  EXPECT_EQ(TimeSlots({{1, 1, 0, 999'999}, {1, 1, 500'000, 2'000'000}}), 3);
  EXPECT_EQ(TimeSlots({{1, 1, 0, 1}, {1, 1, 1, 3}}), 3);
}

TEST(IntersectingPairsTest, TouchingClosedRangesMeetAndEmptyItemsDoNot) {
  EXPECT_EQ(IntersectingPairs({{5, 1, 0, 1}, {7, 1, 1, 2}}), 1);
  EXPECT_EQ(IntersectingPairs({{5, 1, 0, 0}, {7, 1, 1, 2}}), 0);
  EXPECT_EQ(IntersectingPairs({{0, 1, 0, 9}, {7, 1, 1, 2}, {3, 1, 2, 4}}), 1);
  EXPECT_EQ(IntersectingPairs({}), 0);
}

// Both ways of counting: times a step or two apart (summed in a table over
// the steps) and the same items with their times spread 10^6 apart (sorted).
// Spreading the times keeps which items meet and what is live together, so
// both answers must agree; with the gaps kept inside their items.
TEST(LiveProfileTest, DenseAndSparseTimesAgree) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<PackItem> dense;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      PackItem item;
      item.size = static_cast<Bytes>(rng() % 5 == 0 ? 0 : 1 + rng() % 100);
      item.start = static_cast<TimeStep>(rng() % 30);
      item.end = item.start + static_cast<TimeStep>(rng() % 10);
      if (item.end - item.start >= 4 && rng() % 3 == 0) {
        item.mutable_gaps() = {StepRange{item.start + 1, item.start + 2}};
      }
      dense.push_back(item);
    }
    std::vector<PackItem> sparse = dense;
    for (PackItem& item : sparse) {
      item.start *= 1'000'000;
      item.end *= 1'000'000;
      for (StepRange& gap : item.mutable_gaps()) {
        // [s+1, s+2] -> the same steps' images, still strictly inside.
        gap.first *= 1'000'000;
        gap.last = gap.last * 1'000'000 + 999'999;
      }
    }
    ASSERT_EQ(MaxLiveBytes(dense), MaxLiveBytes(sparse)) << "trial " << trial;
    ASSERT_EQ(IntersectingPairs(dense), IntersectingPairs(sparse)) << "trial " << trial;
    // Against a count of every pair.
    std::int64_t pairs = 0;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        const PackItem& a = dense[static_cast<std::size_t>(i)];
        const PackItem& b = dense[static_cast<std::size_t>(j)];
        if (a.size > 0 && b.size > 0 && a.start <= b.end && b.start <= a.end) ++pairs;
      }
    }
    ASSERT_EQ(IntersectingPairs(dense), pairs) << "trial " << trial;
  }
}

}  // namespace
}  // namespace memplan
