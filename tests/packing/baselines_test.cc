#include "packing/baselines.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace memplan {
namespace {

using ::testing::ElementsAre;

// IREE's layoutStatic lit test, slices in this order.
std::vector<PackItem> IreeLayoutStatic() {
  return {{100, 1, 0, 1}, {100, 1, 1, 2}, {100, 1, 2, 3},
          {200, 1, 0, 4}, {200, 1, 5, 6}, {100, 1, 5, 8}};
}

TEST(InOrderTest, IreeLayoutStaticExample) {
  const PackResult r = InOrderPack(IreeLayoutStatic(), 16);
  EXPECT_THAT(r.offsets, ElementsAre(0, 112, 0, 224, 0, 208));
  EXPECT_EQ(r.peak, 424);  // sizes are not padded (IREE reports 432)
  EXPECT_EQ(r.algorithm, "in-order");
}

TEST(InOrderTest, HoleRoomIsMeasuredFromTheUnalignedEnd) {
  // P@0 (1 B), Q@31 (17 B, alignment 31), R@72 (1 B, alignment 72), all
  // [0,5]. S (8 B): hole after P starts at 16 (raw gap 31 - 1 = 30), hole
  // after Q at 48 (raw gap 72 - 48 = 24). IREE keeps the smaller raw gap: 48
  // (best fit on aligned room would pick 16).
  const std::vector<PackItem> items = {{1, 1, 0, 5}, {17, 31, 0, 5}, {1, 72, 0, 5}, {8, 1, 0, 5}};
  const PackResult r = InOrderPack(items, 16);
  EXPECT_THAT(r.offsets, ElementsAre(0, 31, 72, 48));
  EXPECT_EQ(r.peak, 73);
}

TEST(InOrderTest, FallsBackToTheTopOfConflictingItemsOnly) {
  // a [0,1] 10 B -> 0, b [5,6] 50 B -> 0, c [0,1] 10 B -> 10. d [0,2] 5 B sees
  // a and c only: no hole, so the top of those (20), not the global top (50).
  const std::vector<PackItem> items = {{10, 1, 0, 1}, {50, 1, 5, 6}, {10, 1, 0, 1}, {5, 1, 0, 2}};
  EXPECT_THAT(InOrderPack(items, 1).offsets, ElementsAre(0, 0, 10, 20));
}

TEST(NaiveTest, EndToEndAligned) {
  const PackResult r = NaivePack(IreeLayoutStatic(), 16);
  EXPECT_THAT(r.offsets, ElementsAre(0, 112, 224, 336, 544, 752));
  EXPECT_EQ(r.peak, 852);
  EXPECT_EQ(r.algorithm, "naive");
}

TEST(NaiveTest, ZeroSizeItemsTakeNoSpace) {
  const std::vector<PackItem> items = {{10, 1, 0, 1}, {0, 1, 0, 1}, {10, 4, 0, 1}};
  const PackResult r = NaivePack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 0, 12));
  EXPECT_EQ(r.peak, 22);
}

}  // namespace
}  // namespace memplan
