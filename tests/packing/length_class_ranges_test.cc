#include "packing/length_class_ranges.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "packing/contained_ranges.h"

namespace memplan {
namespace {

TEST(LengthClassRangesTest, WorkedExample) {
  LengthClassRanges ranges({{0, 4, 2}, {1, 3, 0}, {2, 6, 1}}, 3);
  EXPECT_EQ(ranges.LeastInside(0, 4), 0);
  EXPECT_EQ(ranges.LeastInside(2, 6), 1);
  EXPECT_EQ(ranges.LeastInside(2, 5), std::nullopt);
  const LengthClassRanges::Range removed = ranges.Remove(0);  // returns the range
  EXPECT_EQ(std::tie(removed.l, removed.r, removed.rank), std::tuple(1, 3, 0));
  EXPECT_EQ(ranges.LeastInside(0, 4), 2);
  EXPECT_EQ(ranges.LeastInside(1, 4), std::nullopt);
}

// Lengths 2 and 3 share a class ([2, 4)): [2,4) and [1,4) end by 4, [3,6)
// does not; with b = 5 the tail holds starts in (5 - 3, 5 - 2] = {3}.
TEST(LengthClassRangesTest, TailOfAClassIsCheckedOneByOne) {
  LengthClassRanges ranges({{2, 4, 3}, {1, 4, 2}, {3, 6, 0}, {3, 5, 1}}, 4);
  EXPECT_EQ(ranges.LeastInside(1, 5), 1);  // [3,5) is in the tail and ends by 5
  EXPECT_EQ(ranges.LeastInside(1, 4), 2);  // [3,6) and [3,5) pass b
  EXPECT_EQ(ranges.LeastInside(0, 6), 0);
  ranges.Remove(0);
  ranges.Remove(1);
  EXPECT_EQ(ranges.LeastInside(0, 6), 2);
  EXPECT_EQ(ranges.size(), 4u);
}

// Per class [lo, hi] the most starts in a window of hi - lo slots: class
// [2, 3] has starts 0, 0, 1, 5 (width 1: two at 0); class [4, 7] has
// starts 0, 1, 2, 9 (width 3: three in (-1, 2]); lengths of one value
// (class [1, 1]) have no tail.
TEST(LengthClassRangesTest, TailBoundCountsTheBusiestWindowPerClass) {
  std::vector<ContainedRanges::Range> ranges = {
      {0, 2, 0}, {0, 3, 1}, {1, 3, 2},  {5, 7, 3},  {0, 4, 4},
      {1, 8, 5}, {2, 6, 6}, {9, 13, 7}, {4, 5, 8}, {6, 7, 9}};
  LengthClassRanges::SortByClassAndStart(ranges);
  EXPECT_EQ(LengthClassRanges::TailBound(ranges), 2 + 3);
}

// The counting passes (ranges in rank order, starts dense) and the
// comparison sort (any order) give one order: by class, start, rank.
TEST(LengthClassRangesTest, SortByClassAndStartBothWays) {
  std::mt19937 rng(9);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<ContainedRanges::Range> ranges;
    const int n = 1 + static_cast<int>(rng() % 200);
    for (int rank = 0; rank < n; ++rank) {
      const auto l = static_cast<std::int32_t>(rng() % static_cast<unsigned>(n));
      ranges.push_back({l, l + 1 + static_cast<std::int32_t>(rng() % 40), rank});
    }
    std::vector<ContainedRanges::Range> shuffled = ranges;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    LengthClassRanges::SortByClassAndStart(ranges);    // counting passes
    LengthClassRanges::SortByClassAndStart(shuffled);  // comparison sort
    ASSERT_EQ(ranges.size(), shuffled.size());
    for (std::size_t k = 0; k < ranges.size(); ++k) {
      ASSERT_EQ(ranges[k].rank, shuffled[k].rank) << "trial " << trial << " position " << k;
      if (k == 0) continue;
      const auto length_class = [](const ContainedRanges::Range& r) {
        return std::bit_width(static_cast<std::uint32_t>(r.r - r.l));
      };
      ASSERT_LE(std::make_tuple(length_class(ranges[k - 1]), ranges[k - 1].l, ranges[k - 1].rank),
                std::make_tuple(length_class(ranges[k]), ranges[k].l, ranges[k].rank));
    }
  }
}

// Against a scan of every range and against the range tree, with removals
// in between, on short ranges (the sweep's case) and on a mix with long ones.
TEST(LengthClassRangesTest, MatchesAScanAndTheRangeTreeWithRemovals) {
  for (int n : {1, 2, 17, 100, 1000, 5000}) {
    for (bool long_ones : {false, true}) {
      std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 2 + (long_ones ? 1 : 0));
      const std::int32_t slots = 2 + n / 4;
      std::vector<ContainedRanges::Range> all;
      std::vector<std::int32_t> ranks(static_cast<std::size_t>(2 * n));
      for (std::int32_t k = 0; k < 2 * n; ++k) ranks[k] = k;
      std::shuffle(ranks.begin(), ranks.end(), rng);
      for (int i = 0; i < n; ++i) {
        const auto l = static_cast<std::int32_t>(rng() % (slots - 1));
        const std::int32_t room = slots - l;
        const std::int32_t r =
            long_ones && rng() % 4 == 0
                ? l + 1 + static_cast<std::int32_t>(rng() % room)
                : l + 1 + static_cast<std::int32_t>(rng() % std::min<std::int32_t>(12, room));
        all.push_back({l, r, ranks[i]});  // ranks sparse in [0, 2n)
      }
      LengthClassRanges index(all, 2 * n);
      ContainedRanges tree(all, 2 * n, slots);
      std::vector<bool> removed(static_cast<std::size_t>(2 * n), false);
      for (int step = 0; step < 3 * n; ++step) {
        const auto a = static_cast<std::int32_t>(rng() % slots);
        const auto b = a + 1 + static_cast<std::int32_t>(rng() % (slots - a));
        std::optional<std::int32_t> expected;
        for (const ContainedRanges::Range& range : all) {
          if (range.l >= a && range.r <= b && !removed[range.rank] &&
              (!expected || range.rank < *expected)) {
            expected = range.rank;
          }
        }
        ASSERT_EQ(index.LeastInside(a, b), expected) << n << " ranges, step " << step;
        ASSERT_EQ(tree.LeastInside(a, b), expected) << n << " ranges, step " << step;
        if (expected && rng() % 2 == 0) {
          index.Remove(*expected);
          tree.Remove(*expected);
          removed[*expected] = true;
        }
      }
    }
  }
}

}  // namespace
}  // namespace memplan
