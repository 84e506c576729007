#include "packing/online_best_fit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::CheckPacking;

TEST(OnlineBestFitTest, HeaderExample) {
  // a 0, b 10, c 30; at t=4 a's [0,10) is too small for d -> top 70; e -> 100.
  const std::vector<PackItem> items = {
      {10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {30, 1, 4, 8}, {50, 1, 5, 9}};
  const PackResult r = OnlineBestFitPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 10, 30, 70, 100));
  EXPECT_EQ(r.peak, 150);
  EXPECT_EQ(r.algorithm, "online-best-fit");
}

TEST(OnlineBestFitTest, TakesTheSmallestHoleNotTheLowest) {
  // h1 0 and q 6 (t=0..1); h2 7 and u 10 (t=2, larger first). At t=3 h1 and
  // h2 are gone: holes [0,6) and [7,10); x (2 B) takes the 3 B hole at 7.
  const std::vector<PackItem> items = {
      {6, 1, 0, 2}, {1, 1, 1, 9}, {3, 1, 2, 2}, {1, 1, 2, 9}, {2, 1, 3, 9}};
  const PackResult r = OnlineBestFitPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 6, 7, 10, 7));
  EXPECT_EQ(r.peak, 11);
}

TEST(OnlineBestFitTest, AlignmentPaddingIsFreedAndCoalesced) {
  // a 0; b (aligned to 8) skips [10,16) -> 16. At t=2 both are freed; the
  // padding merges with both, the whole space is free again, c -> 0.
  const std::vector<PackItem> items = {{10, 1, 0, 1}, {5, 8, 0, 1}, {4, 1, 2, 3}};
  const PackResult r = OnlineBestFitPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 16, 0));
  EXPECT_EQ(r.peak, 21);
  EXPECT_EQ(CheckPacking(items, r.offsets, r.peak, 1), "");
}

TEST(OnlineBestFitTest, GlobalAlignmentAppliesToEveryItem) {
  // Under a global 16: 10 B at 0, 3 B at 16, 7 B at 32 (all live together).
  const std::vector<PackItem> items = {{10, 1, 0, 5}, {7, 1, 0, 5}, {3, 1, 0, 5}};
  const PackResult r = OnlineBestFitPack(items, 16);
  EXPECT_THAT(r.offsets, ElementsAre(0, 16, 32));
  EXPECT_EQ(r.peak, 35);
}

TEST(OnlineBestFitTest, ZeroSizeItemsGoToZeroAndTakeNoSpace) {
  const std::vector<PackItem> items = {{0, 1, 0, 9}, {10, 1, 0, 9}, {0, 16, 2, 3}, {6, 1, 5, 5}};
  const PackResult r = OnlineBestFitPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 0, 0, 10));
  EXPECT_EQ(r.peak, 16);
}

TEST(OnlineBestFitTest, ClosedRangesSharingAStepConflict) {
  // [0,1] and [1,2] are live together at t=1; [0,0] is freed before t=1.
  EXPECT_THAT(OnlineBestFitPack({{5, 1, 0, 1}, {7, 1, 1, 2}}, 1).offsets, ElementsAre(0, 5));
  EXPECT_THAT(OnlineBestFitPack({{5, 1, 0, 0}, {7, 1, 1, 2}}, 1).offsets, ElementsAre(0, 0));
}

TEST(OnlineBestFitTest, ValidOnRandomInputs) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto items = testing::RandomItems(150, 40, 100, seed);
    const Bytes alignment = Bytes{1} << (seed % 4);
    const PackResult r = OnlineBestFitPack(items, alignment);
    EXPECT_EQ(CheckPacking(items, r.offsets, r.peak, alignment), "") << seed;
  }
}

}  // namespace
}  // namespace memplan
