#include "packing/presorted_interval_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

namespace memplan {
namespace {

using Key = std::tuple<TimeStep, TimeStep, Bytes, Bytes>;

std::vector<Key> Query(const PresortedIntervalTree& tree, TimeStep s, TimeStep e) {
  std::vector<Key> out;
  tree.ForEachOverlapping(
      s, e, [&](const PlacedChunk& c) { out.push_back({c.start, c.end, c.offset, c.size}); });
  return out;
}

TEST(PresortedIntervalTreeTest, WorkedExampleFromHeader) {
  PresortedIntervalTree tree({{0, 3}, {2, 5}, {6, 9}});
  tree.Insert(1, 10, 20);
  tree.Insert(2, 0, 30);
  EXPECT_THAT(Query(tree, 4, 6), ::testing::ElementsAre(Key{2, 5, 10, 20}, Key{6, 9, 0, 30}));
  EXPECT_TRUE(Query(tree, 0, 1).empty());
}

TEST(PresortedIntervalTreeTest, NoSlots) {
  PresortedIntervalTree tree({});
  EXPECT_TRUE(Query(tree, 0, 10).empty());
}

// Random inserts and queries against a plain list; results come in (start,
// slot) order.
TEST(PresortedIntervalTreeTest, MatchesBruteForceOracle) {
  std::mt19937_64 rng(7);
  const int n = 3000;
  std::vector<std::pair<TimeStep, TimeStep>> ranges(n);
  for (auto& [s, e] : ranges) {
    s = static_cast<TimeStep>(rng() % 1000);
    e = s + static_cast<TimeStep>(rng() % (rng() % 4 == 0 ? 500 : 20));
  }
  PresortedIntervalTree tree(ranges);
  std::vector<bool> stored(n, false);
  std::vector<Bytes> offset(n, 0);
  for (int step = 0; step < 6000; ++step) {
    const int slot = static_cast<int>(rng() % n);
    if (rng() % 10 < 3 && !stored[slot]) {
      offset[slot] = static_cast<Bytes>(rng() % 4096);
      tree.Insert(slot, offset[slot], slot + 1);
      stored[slot] = true;
    } else {
      const TimeStep s = static_cast<TimeStep>(rng() % 1100);
      const TimeStep e = s + static_cast<TimeStep>(rng() % 50);
      std::vector<std::pair<TimeStep, int>> hits;
      for (int i = 0; i < n; ++i) {
        if (stored[i] && ranges[i].second >= s && ranges[i].first <= e) {
          hits.push_back({ranges[i].first, i});
        }
      }
      std::sort(hits.begin(), hits.end());
      std::vector<Key> expected;
      for (const auto& [start, i] : hits) {
        expected.push_back({start, ranges[i].second, offset[i], Bytes{i} + 1});
      }
      ASSERT_EQ(Query(tree, s, e), expected) << "step " << step;
    }
  }
}

}  // namespace
}  // namespace memplan
