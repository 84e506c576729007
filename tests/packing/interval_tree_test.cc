#include "packing/interval_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>
#include <vector>

namespace memplan {
namespace {

using Key = std::tuple<TimeStep, TimeStep, Bytes, Bytes>;

Key KeyOf(const PlacedChunk& c) { return {c.start, c.end, c.offset, c.size}; }

std::vector<Key> Query(const IntervalTree& tree, TimeStep s, TimeStep e) {
  std::vector<Key> out;
  tree.ForEachOverlapping(s, e, [&](const PlacedChunk& c) { out.push_back(KeyOf(c)); });
  return out;
}

TEST(IntervalTreeTest, WorkedExampleFromHeader) {
  IntervalTree tree;
  tree.Insert({0, 3, 0, 10});
  const IntervalTree::Handle b = tree.Insert({2, 5, 10, 20});
  tree.Insert({6, 9, 0, 30});
  EXPECT_EQ(tree.size(), 3);
  EXPECT_THAT(Query(tree, 4, 6), ::testing::ElementsAre(Key{2, 5, 10, 20}, Key{6, 9, 0, 30}));
  EXPECT_THAT(Query(tree, 3, 3), ::testing::ElementsAre(Key{0, 3, 0, 10}, Key{2, 5, 10, 20}));
  EXPECT_EQ(KeyOf(tree.chunk(b)), (Key{2, 5, 10, 20}));
  tree.Remove(b);
  EXPECT_EQ(tree.size(), 2);
  EXPECT_THAT(Query(tree, 4, 6), ::testing::ElementsAre(Key{6, 9, 0, 30}));
}

TEST(IntervalTreeTest, ClosedRangesTouchingAtOneStepOverlap) {
  IntervalTree tree;
  tree.Insert({0, 1, 0, 8});
  EXPECT_EQ(Query(tree, 1, 2).size(), 1u);
  EXPECT_TRUE(Query(tree, 2, 5).empty());
}

TEST(IntervalTreeTest, EmptyTreeAndClear) {
  IntervalTree tree;
  EXPECT_TRUE(Query(tree, 0, 100).empty());
  tree.Insert({0, 5, 0, 1});
  tree.Clear();
  EXPECT_EQ(tree.size(), 0);
  EXPECT_TRUE(Query(tree, 0, 100).empty());
}

// Random inserts, removes and queries, each query checked against a plain
// list. Results come back in (start, handle) order, which for this oracle
// (a map from handle) is (start, handle) as well.
TEST(IntervalTreeTest, MatchesBruteForceOracle) {
  std::mt19937_64 rng(20240601);
  IntervalTree tree;
  std::map<IntervalTree::Handle, PlacedChunk> live;
  for (int step = 0; step < 20000; ++step) {
    const int action = static_cast<int>(rng() % 10);
    if (action < 5 || live.empty()) {
      PlacedChunk c;
      c.start = static_cast<TimeStep>(rng() % 1000);
      c.end = c.start + static_cast<TimeStep>(rng() % (rng() % 4 == 0 ? 500 : 20));
      c.offset = static_cast<Bytes>(rng() % 4096);
      c.size = 1 + static_cast<Bytes>(rng() % 64);
      const IntervalTree::Handle h = tree.Insert(c);
      ASSERT_EQ(live.count(h), 0u) << "handle reused while live";
      live[h] = c;
    } else if (action < 7) {
      auto it = live.begin();
      std::advance(it, static_cast<long>(rng() % live.size()));
      tree.Remove(it->first);
      live.erase(it);
    } else {
      const TimeStep s = static_cast<TimeStep>(rng() % 1100);
      const TimeStep e = s + static_cast<TimeStep>(rng() % 50);
      std::vector<std::pair<TimeStep, IntervalTree::Handle>> expected_order;
      for (const auto& [h, c] : live) {
        if (c.end >= s && c.start <= e) expected_order.push_back({c.start, h});
      }
      std::sort(expected_order.begin(), expected_order.end());
      std::vector<Key> expected;
      for (const auto& [start, h] : expected_order) expected.push_back(KeyOf(live[h]));
      ASSERT_EQ(Query(tree, s, e), expected) << "step " << step;
    }
    ASSERT_EQ(tree.size(), static_cast<std::int64_t>(live.size()));
  }
}

}  // namespace
}  // namespace memplan
