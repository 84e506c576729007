#include "packing/skyline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace memplan {
namespace {

using ::testing::ElementsAre;

std::vector<PackItem> XlaExample() {
  return {{10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {30, 1, 4, 8}, {50, 1, 5, 9}};
}

TEST(SkylineTest, LongestFirstWorkedExample) {
  const PackResult r = SkylinePack(XlaExample(), SkylineOrder::kLongestFirst, 1);
  EXPECT_THAT(r.offsets, ElementsAre(60, 40, 0, 110, 60));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "skyline-longest");
}

TEST(SkylineTest, LargestAreaWorkedExample) {
  // Areas a 40, b 120, c 240, d 150, e 250: e -> 0; a (floor 0) -> 0; c -> 50;
  // d (area 150 > b's 120, both floor 90) -> 90; b -> 120.
  const PackResult r = SkylinePack(XlaExample(), SkylineOrder::kLargestArea, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 120, 50, 90, 0));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "skyline-area");
}

TEST(SkylineTest, LowestFloorBeatsLongerRange) {
  // x [0,3] 5 B -> 0. Floors: y [2,3], z [1,2], w [1,1] all 5; y and z are
  // longer than w, y is larger: y -> 5. Now z's floor is 25 but w's is 5: w
  // goes first although it is shorter. Then z -> 25.
  const std::vector<PackItem> items = {{5, 1, 0, 3}, {20, 1, 2, 3}, {3, 1, 1, 2}, {4, 1, 1, 1}};
  const PackResult r = SkylinePack(items, SkylineOrder::kLongestFirst, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 5, 25, 5));
  EXPECT_EQ(r.peak, 28);
}

TEST(SkylineTest, FloorsAreRoundedToAlignment) {
  // c -> 0, b -> align(40, 32) = 64; e rests on b: align(84, 32) = 96; a on b
  // -> 96; d on e -> align(146, 32) = 160.
  const PackResult r = SkylinePack(XlaExample(), SkylineOrder::kLongestFirst, 32);
  EXPECT_THAT(r.offsets, ElementsAre(96, 64, 0, 160, 96));
  EXPECT_EQ(r.peak, 190);
}

}  // namespace
}  // namespace memplan
