// TFLite Micro's greedy planner emulation against cases worked by hand from
// greedy_memory_planner.cc.
#include "packing/peers/tflite_micro_greedy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "packing/peers/tflite_arena.h"
#include "tests/packing/packing_test_support.h"

namespace memplan::peers {
namespace {

using ::testing::ElementsAre;
using testing::CheckPacking;

TEST(TfliteMicroGreedyTest, HeaderExampleTakesTheLowestGap) {
  // Order e, c, d, b, a as in TFLite; a meets c (50..90) and b (120..140)
  // and takes the first gap that holds it, [0,50), where TFLite's best fit
  // takes [90,120).
  const std::vector<PackItem> items = {
      {10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {30, 1, 4, 8}, {50, 1, 5, 9}};
  const PackResult r = TfliteMicroGreedyPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 120, 50, 90, 0));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "tflite-micro-greedy");
  EXPECT_THAT(TfliteArenaPack(items, 1).offsets, ElementsAre(90, 120, 50, 90, 0));
}

// a(50)[3,4] b(120)[4,5] c(40)[2,3] d(100)[5,6] e(80)[2,5] f(20)[3,4], by
// size: b 0; d (meets b) 120; e (meets b, d) 220; a (meets b, e) in the gap
// [120,220) at 120. c meets a (120..170) and e (220..300): gaps [0,120) and
// [170,220). f meets b (0..120), a, c and e.
const std::vector<PackItem> kFirstFitWins = {{50, 1, 3, 4},  {120, 1, 4, 5}, {40, 1, 2, 3},
                                             {100, 1, 5, 6}, {80, 1, 2, 5},  {20, 1, 3, 4}};

TEST(TfliteMicroGreedyTest, FirstFitCanNeedLessThanBestFit) {
  // First fit: c 0 (below b's bytes, which b uses only later); f then finds
  // [170,220) free -> 170. Arena 300.
  const PackResult first = TfliteMicroGreedyPack(kFirstFitWins, 1);
  EXPECT_THAT(first.offsets, ElementsAre(120, 0, 0, 120, 220, 170));
  EXPECT_EQ(first.peak, 300);
  // Best fit (TFLite): c takes the tighter [170,220) -> 170; f finds only
  // [210,220) (10 B) and goes on top of e: 300. Arena 320.
  const PackResult best = TfliteArenaPack(kFirstFitWins, 1);
  EXPECT_THAT(best.offsets, ElementsAre(120, 0, 170, 120, 220, 300));
  EXPECT_EQ(best.peak, 320);
}

TEST(TfliteMicroGreedyTest, EqualSizesKeepTheirInputOrder) {
  // Stable by size: i1 (20 B) first -> 0, then i0 and i2 (10 B) in input
  // order: i0 (meets i1) 20, i2 (meets both) 30.
  const std::vector<PackItem> items = {{10, 1, 1, 2}, {20, 1, 0, 2}, {10, 1, 0, 1}};
  const PackResult r = TfliteMicroGreedyPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(20, 0, 30));
  EXPECT_EQ(r.peak, 40);
}

TEST(TfliteMicroGreedyTest, SizesAreRoundedUpToTheAlignment) {
  // Alignment 16: each 10 B item occupies 16 bytes. i0 0; i1 (meets i0)
  // 16; i2 meets only i1 and fits the 16 bytes below it: 0.
  const std::vector<PackItem> items = {{10, 1, 0, 1}, {10, 1, 1, 2}, {10, 1, 2, 3}};
  const PackResult r = TfliteMicroGreedyPack(items, 16);
  EXPECT_THAT(r.offsets, ElementsAre(0, 16, 0));
  EXPECT_EQ(r.peak, 26);  // the last item's own 10 bytes end the arena
  EXPECT_EQ(CheckPacking(items, r.offsets, r.peak, 16), "");
}

TEST(TfliteMicroGreedyTest, RandomItemsPackValidly) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<PackItem> items = testing::RandomItems(60, 30, 100, seed);
    const PackResult r = TfliteMicroGreedyPack(items, 8);
    EXPECT_EQ(CheckPacking(items, r.offsets, r.peak, 8), "") << "seed " << seed;
  }
}

}  // namespace
}  // namespace memplan::peers
