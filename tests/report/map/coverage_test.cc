#include "report/map/coverage.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace memplan::memmap {
namespace {

using ::testing::ElementsAre;

TEST(CoverageGridTest, SnapsSubPixelMarksOutwardToWholeCells) {
  CoverageGrid grid(4, 2, 3);
  EXPECT_TRUE(grid.empty());
  grid.Add({0.2, 0.0, 1.5, 0.3}, 1);
  EXPECT_FALSE(grid.empty());
  EXPECT_THAT(grid.Rects(), ElementsAre(PixelRect{1, 0, 0, 2, 1}));
}

TEST(CoverageGridTest, ZeroSizedMarkStillCoversOneCell) {
  CoverageGrid grid(4, 4, 1);
  grid.Add({2.5, 1.5, 0, 0}, 0);
  EXPECT_THAT(grid.Rects(), ElementsAre(PixelRect{0, 2, 1, 1, 1}));
}

TEST(CoverageGridTest, MergesIdenticalRunsOnConsecutiveRows) {
  CoverageGrid grid(5, 4, 1);
  grid.Add({1, 0, 3, 3}, 0);  // rows 0-2, columns 1-3
  grid.Add({0, 3, 2, 1}, 0);  // row 3, columns 0-1: a different run
  EXPECT_THAT(grid.Rects(), ElementsAre(PixelRect{0, 1, 0, 3, 3}, PixelRect{0, 0, 3, 2, 1}));
}

TEST(CoverageGridTest, EachCellTakesItsMostFrequentColorLowerOnTies) {
  CoverageGrid grid(3, 1, 3);
  grid.Add({0, 0, 3, 1}, 1);  // every cell once in color 1
  grid.Add({0, 0, 1, 1}, 2);  // cell 0: tie 1 vs 2 -> 1
  grid.Add({2, 0, 1, 1}, 2);
  grid.Add({2, 0, 1, 1}, 2);  // cell 2: color 2 twice -> 2
  EXPECT_THAT(grid.Rects(), ElementsAre(PixelRect{1, 0, 0, 2, 1}, PixelRect{2, 2, 0, 1, 1}));
}

TEST(CoverageGridTest, IgnoresMarksOutsideTheGridAndClipsOverhangs) {
  CoverageGrid grid(4, 2, 2);
  grid.Add({-5, 0, 2, 1}, 0);   // entirely left of the grid
  grid.Add({0, 0, 1, 1}, 7);    // unknown color
  EXPECT_TRUE(grid.empty());
  grid.Add({3.5, -1, 10, 10}, 1);
  EXPECT_THAT(grid.Rects(), ElementsAre(PixelRect{1, 3, 0, 1, 2}));
}

}  // namespace
}  // namespace memplan::memmap
