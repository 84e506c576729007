#include "packing/contained_ranges.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace memplan {
namespace {

TEST(ContainedRangesTest, WorkedExample) {
  ContainedRanges ranges({{0, 4, 2}, {1, 3, 0}, {2, 6, 1}}, 3, 6);
  EXPECT_EQ(ranges.LeastInside(0, 4), 0);
  EXPECT_EQ(ranges.LeastInside(2, 6), 1);
  EXPECT_EQ(ranges.LeastInside(2, 5), std::nullopt);
  const ContainedRanges::Range removed = ranges.Remove(0);  // returns the range
  EXPECT_EQ(removed.l, 1);
  EXPECT_EQ(removed.r, 3);
  EXPECT_EQ(removed.rank, 0);
  EXPECT_EQ(ranges.LeastInside(0, 4), 2);
  EXPECT_EQ(ranges.LeastInside(1, 4), std::nullopt);
}

// Against a scan of every range, with removals in between: sizes below,
// at and above the scanned block (16) and across several tree levels, and
// many ranges sharing an end (the (r, rank) order inside a block).
TEST(ContainedRangesTest, MatchesAScanWithRemovals) {
  for (int n : {1, 15, 16, 17, 100, 1000, 5000}) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(n));
    const std::int32_t slots = 2 + n / 4;
    std::vector<ContainedRanges::Range> all;
    std::vector<std::int32_t> ranks(static_cast<std::size_t>(2 * n));
    for (std::int32_t k = 0; k < 2 * n; ++k) ranks[k] = k;
    std::shuffle(ranks.begin(), ranks.end(), rng);
    for (int i = 0; i < n; ++i) {
      const auto l = static_cast<std::int32_t>(rng() % (slots - 1));
      const std::int32_t r = rng() % 4 == 0 ? slots
                                            : l + 1 + static_cast<std::int32_t>(
                                                          rng() % std::min<std::int32_t>(
                                                                      8, slots - l));
      all.push_back({l, r, ranks[i]});  // ranks sparse in [0, 2n)
    }
    ContainedRanges index(all, 2 * n, slots);
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
      if (expected && rng() % 2 == 0) {
        index.Remove(*expected);
        removed[*expected] = true;
      }
    }
  }
}

}  // namespace
}  // namespace memplan
