#include "packing/best_fit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

// a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8] e(50)[5,9] (packing.md §2.2).
using testing::XlaExample;

TEST(BestFitTest, SpatialOrderOnXlaExample) {
  const auto items = XlaExample();
  EXPECT_THAT(SortForBestFit(items, BestFitOrder::kSpatial), ElementsAre(4, 2, 3, 1, 0));
  const PackResult r = BestFitPack(items, BestFitOrder::kSpatial, 1);
  EXPECT_THAT(r.offsets, ElementsAre(90, 120, 50, 90, 0));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "best-fit-spatial");
}

TEST(BestFitTest, TemporalOrderOnXlaExample) {
  const auto items = XlaExample();
  // Lengths: b 5, c 5, d 4, e 4, a 3; equal lengths by size desc.
  EXPECT_THAT(SortForBestFit(items, BestFitOrder::kTemporal), ElementsAre(2, 1, 4, 3, 0));
  // c -> 0; b on c -> 40; e on b -> 60; d on e -> 110; a on b -> 60.
  const PackResult r = BestFitPack(items, BestFitOrder::kTemporal, 1);
  EXPECT_THAT(r.offsets, ElementsAre(60, 40, 0, 110, 60));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "best-fit-temporal");
}

TEST(BestFitTest, StartTimeOrderOnXlaExample) {
  const auto items = XlaExample();
  EXPECT_THAT(SortForBestFit(items, BestFitOrder::kStartTime), ElementsAre(0, 1, 2, 3, 4));
  // a 0, b 10, c 30; d: hole [0,10) too small -> 70; e -> 100.
  const PackResult r = BestFitPack(items, BestFitOrder::kStartTime, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 10, 30, 70, 100));
  EXPECT_EQ(r.peak, 150);
}

TEST(BestFitTest, BusiestOrderOnXlaExample) {
  const auto items = XlaExample();
  // Busiest live bytes: a 70 (t=2..3), b..e 140 (t=5..6): then size desc.
  EXPECT_THAT(SortForBestFit(items, BestFitOrder::kBusiest), ElementsAre(4, 2, 3, 1, 0));
  EXPECT_EQ(BestFitPack(items, BestFitOrder::kBusiest, 1).algorithm, "best-fit-busiest");
}

TEST(BestFitTest, TiesInSpatialOrderGoToLongerRangeThenIndex) {
  const std::vector<PackItem> items = {{8, 1, 0, 1}, {8, 1, 0, 5}, {8, 1, 2, 3}, {9, 1, 9, 9}};
  EXPECT_THAT(SortForBestFit(items, BestFitOrder::kSpatial), ElementsAre(3, 1, 0, 2));
}

TEST(BestFitTest, GlobalAlignment) {
  // e -> 0; c -> align(50) = 64; d -> align(104) = 112; b -> align(142) = 144;
  // a sees c [64,104) and b [144,164): holes [0,64) and [112,144) -> 112.
  const PackResult r = BestFitPack(XlaExample(), BestFitOrder::kSpatial, 16);
  EXPECT_THAT(r.offsets, ElementsAre(112, 144, 64, 112, 0));
  EXPECT_EQ(r.peak, 164);
}

TEST(BestFitTest, PerItemAlignment) {
  auto items = XlaExample();
  items[2].alignment = 64;  // c
  // e -> 0; c -> 64; d: hole [50,64) too small -> 104; b -> 134;
  // a sees c [64,104) and b [134,154): holes 64 B and 30 B -> 104.
  const PackResult r = BestFitPack(items, BestFitOrder::kSpatial, 1);
  EXPECT_THAT(r.offsets, ElementsAre(104, 134, 64, 104, 0));
  EXPECT_EQ(r.peak, 154);
}

TEST(BestFitTest, ExplicitOrder) {
  const auto items = XlaExample();
  // Reverse input order: e -> 0, d -> 50, c -> 80, b -> 120 (each on top);
  // a [0,3] sees c [80,120) and b [120,140): hole [0,80) -> 0.
  EXPECT_THAT(BestFitInOrder(items, {4, 3, 2, 1, 0}, 1), ElementsAre(0, 120, 80, 50, 0));
}

}  // namespace
}  // namespace memplan
