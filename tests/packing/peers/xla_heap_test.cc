// XLA's heap choice (ChooseBestHeapAlgorithm over kSpatial and kTemporal
// GlobalDecreasingSizeBestFitHeap runs) against cases worked by hand.
#include "packing/peers/xla_heap.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace memplan::peers {
namespace {

using ::testing::ElementsAre;

TEST(XlaHeapTest, SpatialKeptOnATie) {
  // Spatial: e 0, c 50, d 90, b 120, a 90 (140). Temporal (c, b, e, d, a):
  // c 0, b 40, e 60, d 110, a 60 (140). Equal: spatial is kept.
  const std::vector<PackItem> items = {
      {10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {30, 1, 4, 8}, {50, 1, 5, 9}};
  const PackResult r = XlaHeapPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(90, 120, 50, 90, 0));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "best-fit-spatial");
}

TEST(XlaHeapTest, TemporalWinsWhenSmaller) {
  // a(50)[3,4] b(120)[4,5] c(40)[2,3] d(100)[5,6] e(80)[2,5] f(20)[3,4].
  // Spatial (b, d, e, a, c, f) is TFLite's packing: 320. Temporal: e (the
  // longest) 0; then by size b 80, d 200, a 200, c (meets e, a) in
  // [80,200) at 80, f (meets e, b, c, a) on top of a: 250. Arena 300.
  const std::vector<PackItem> items = {{50, 1, 3, 4},  {120, 1, 4, 5}, {40, 1, 2, 3},
                                       {100, 1, 5, 6}, {80, 1, 2, 5},  {20, 1, 3, 4}};
  const PackResult r = XlaHeapPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(200, 80, 80, 200, 0, 250));
  EXPECT_EQ(r.peak, 300);
  EXPECT_EQ(r.algorithm, "best-fit-temporal");
}

TEST(XlaHeapTest, ReadsHullsNotGaps) {
  // b lives in a's dead gap [2,3]; XLA's heap knows no gaps, so b goes on
  // top of a.
  std::vector<PackItem> items = {{10, 1, 0, 5}, {10, 1, 2, 3}};
  items[0].mutable_gaps() = {StepRange{2, 3}};
  const PackResult r = XlaHeapPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 10));
}

}  // namespace
}  // namespace memplan::peers
