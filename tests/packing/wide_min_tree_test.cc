#include "packing/wide_min_tree.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace memplan {
namespace {

constexpr std::int32_t kAbsent = WideMinTree::kAbsent;

TEST(WideMinTree, HeaderExample) {
  WideMinTree tree({5, 3, 9, 1});
  EXPECT_EQ(tree.Least(0, 3), 3);
  EXPECT_EQ(tree.Least(2, 4), 1);
  tree.Remove(3);
  EXPECT_EQ(tree.Least(0, 4), 3);
  EXPECT_EQ(tree.Least(3, 4), kAbsent);
  EXPECT_EQ(tree.Least(2, 2), kAbsent);
}

TEST(WideMinTree, EmptyTreeAnswersAbsent) {
  WideMinTree tree({});
  EXPECT_EQ(tree.size(), 0u);
  EXPECT_EQ(tree.Least(0, 0), kAbsent);
}

// Against a plain scan, on sizes around the node and level boundaries (16,
// 256, 4096), with removals in random order.
TEST(WideMinTree, MatchesAScanUnderRemovals) {
  std::mt19937 rng(7);
  for (const std::int32_t n : {1, 15, 16, 17, 255, 256, 257, 4097, 5000}) {
    std::vector<std::int32_t> keys(static_cast<std::size_t>(n));
    for (std::int32_t& key : keys) key = static_cast<std::int32_t>(rng() % 100000);
    WideMinTree tree(keys);
    std::vector<std::int32_t> order(keys.size());
    for (std::int32_t p = 0; p < n; ++p) order[static_cast<std::size_t>(p)] = p;
    std::shuffle(order.begin(), order.end(), rng);
    const std::size_t every = std::max<std::size_t>(1, order.size() / 64);
    for (std::size_t step = 0; step <= order.size(); ++step) {
      for (int query = 0; query < (step % every == 0 ? 20 : 0); ++query) {
        std::int32_t lo = static_cast<std::int32_t>(rng() % static_cast<std::uint32_t>(n + 1));
        std::int32_t hi = static_cast<std::int32_t>(rng() % static_cast<std::uint32_t>(n + 1));
        if (lo > hi) std::swap(lo, hi);
        std::int32_t expected = kAbsent;
        for (std::int32_t p = lo; p < hi; ++p) expected = std::min(expected, keys[p]);
        ASSERT_EQ(tree.Least(lo, hi), expected) << "n " << n << " [" << lo << ", " << hi << ")";
      }
      if (step == order.size()) break;
      tree.Remove(order[step]);
      keys[static_cast<std::size_t>(order[step])] = kAbsent;
      ASSERT_EQ(tree.At(order[step]), kAbsent);
    }
  }
}

}  // namespace
}  // namespace memplan
