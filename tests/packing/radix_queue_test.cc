#include "packing/radix_queue.h"

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace memplan {
namespace {

TEST(RadixQueue, HeaderExample) {
  RadixQueue<char> queue;
  queue.Push(5, 'a');
  queue.Push(3, 'b');
  queue.Push(9, 'c');
  EXPECT_EQ(queue.MinKey(), 3u);
  EXPECT_EQ(queue.PopMin(), 'b');
  queue.Push(4, 'd');
  EXPECT_EQ(queue.MinKey(), 4u);
  EXPECT_EQ(queue.PopMin(), 'd');
  EXPECT_EQ(queue.PopMin(), 'a');
  EXPECT_EQ(queue.PopMin(), 'c');
  EXPECT_TRUE(queue.empty());
}

// MinKey only looks: after it, a key below the one it gave (but not below
// the last key popped) may still be pushed, and comes out first.
TEST(RadixQueue, PushBelowTheMinKeySeen) {
  RadixQueue<int> queue;
  queue.Push(100, 1);
  EXPECT_EQ(queue.MinKey(), 100u);
  queue.Push(40, 2);
  EXPECT_EQ(queue.MinKey(), 40u);
  EXPECT_EQ(queue.PopMin(), 2);
  queue.Push(40, 3);  // equal to the last key popped
  EXPECT_EQ(queue.MinKey(), 40u);
  EXPECT_EQ(queue.PopMin(), 3);
  EXPECT_EQ(queue.PopMin(), 1);
}

// Against a binary heap: random monotone pushes (keys up to 2^62, many
// equal), MinKey looks and pops, in every interleaving.
TEST(RadixQueue, MatchesABinaryHeap) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 500; ++trial) {
    RadixQueue<std::uint64_t> queue;
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> heap;
    std::uint64_t last = 0;
    for (int step = 0; step < 400; ++step) {
      const auto what = rng() % 4;
      if (what < 2 || heap.empty()) {
        const std::uint64_t key =
            last + (rng() % 4 == 0 ? rng() % 5 : rng() % (std::uint64_t{1} << (rng() % 62)));
        queue.Push(key, key);
        heap.push(key);
      } else if (what == 2) {
        ASSERT_EQ(queue.MinKey(), heap.top());
      } else {
        ASSERT_EQ(queue.MinKey(), heap.top());
        last = queue.PopMin();  // the value is its key
        ASSERT_EQ(last, heap.top());
        heap.pop();
      }
      ASSERT_EQ(queue.size(), heap.size());
    }
  }
}

}  // namespace
}  // namespace memplan
