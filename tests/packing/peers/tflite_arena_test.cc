// TFLite's arena planner emulation against cases worked by hand from
// arena_planner.cc (order) and simple_memory_arena.cc (placement).
#include "packing/peers/tflite_arena.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/packing/packing_test_support.h"

namespace memplan::peers {
namespace {

using ::testing::ElementsAre;
using testing::CheckPacking;

TEST(TfliteArenaTest, HeaderExampleTakesTheTightestGap) {
  // Order e, c, d, b, a; a meets c (50..90) and b (120..140): gaps [0,50)
  // and [90,120), the 30 B one is tighter -> 90.
  const std::vector<PackItem> items = {
      {10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {30, 1, 4, 8}, {50, 1, 5, 9}};
  const PackResult r = TfliteArenaPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(90, 120, 50, 90, 0));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "tflite-arena");
}

TEST(TfliteArenaTest, BuffersAliveForTheWholeRunComeFirst) {
  // i2 (30 B, [0,3]) spans the whole run, so it is placed first although
  // i0 and i1 are larger: i2 0, i0 (meets i2) 30, i1 30, i3 (meets i2 and
  // i1 at 30..70) 70. Arena 100; by size alone (TFLite Micro) it is 110.
  const std::vector<PackItem> items = {{50, 1, 0, 1}, {40, 1, 3, 3}, {30, 1, 0, 3}, {30, 1, 3, 3}};
  const PackResult r = TfliteArenaPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(30, 30, 0, 70));
  EXPECT_EQ(r.peak, 100);
}

TEST(TfliteArenaTest, EqualSizesGoByStartThenIndex) {
  // Three 10 B items all live at step 2: i1 starts first -> 0, then i2
  // (start 1, index 2) -> 10, then i0 (start 2) -> 20.
  const std::vector<PackItem> items = {{10, 1, 2, 3}, {10, 1, 0, 2}, {10, 1, 1, 2}};
  const PackResult r = TfliteArenaPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(20, 0, 10));
  EXPECT_EQ(r.peak, 30);
}

TEST(TfliteArenaTest, AlignmentRoundsEachCandidateUp) {
  // Alignment 16: a (20 B) 0; b (12 B, meets a) at 20 rounded up = 32; c
  // (5 B, meets both): the gap [20,32) starts at 32 once rounded up, too
  // late, so c goes on top: 44 rounded up = 48.
  const std::vector<PackItem> items = {{20, 1, 0, 5}, {12, 1, 1, 5}, {5, 1, 2, 3}};
  const PackResult r = TfliteArenaPack(items, 16);
  EXPECT_THAT(r.offsets, ElementsAre(0, 32, 48));
  EXPECT_EQ(r.peak, 53);
  EXPECT_EQ(CheckPacking(items, r.offsets, r.peak, 16), "");
}

TEST(TfliteArenaTest, ZeroSizeItemsGoToZero) {
  const std::vector<PackItem> items = {{0, 1, 0, 9}, {10, 1, 1, 2}, {0, 8, 2, 3}};
  const PackResult r = TfliteArenaPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 0, 0));
  EXPECT_EQ(r.peak, 10);
}

TEST(TfliteArenaTest, RandomItemsPackValidly) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<PackItem> items = testing::RandomItems(60, 30, 100, seed);
    const PackResult r = TfliteArenaPack(items, 4);
    EXPECT_EQ(CheckPacking(items, r.offsets, r.peak, 4), "") << "seed " << seed;
  }
}

}  // namespace
}  // namespace memplan::peers
