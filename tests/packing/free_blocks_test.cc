#include "packing/free_blocks.h"

#include <gtest/gtest.h>

namespace memplan {
namespace {

TEST(FreeBlocksTest, HeaderExample) {
  FreeBlocks blocks;
  EXPECT_EQ(blocks.TakeTop(10, 1), 0);
  EXPECT_EQ(blocks.TakeTop(20, 1), 10);
  EXPECT_EQ(blocks.TakeTop(5, 1), 30);
  EXPECT_EQ(blocks.top(), 35);
  blocks.Give(0, 10);
  blocks.Give(30, 35);
  EXPECT_EQ(blocks.top(), 30);
  const std::optional<FreeBlocks::Fit> fit = blocks.BestFit(8, 1);
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(fit->block_offset, 0);
  EXPECT_EQ(fit->block_size, 10);
  EXPECT_EQ(fit->offset, 0);
  EXPECT_FALSE(blocks.BestFit(12, 1).has_value());
}

TEST(FreeBlocksTest, TakeAtKeepsPaddingAndTailFree) {
  // Free [3,20) below a live [20,30): an 8 B request aligned to 4 goes to 4;
  // [3,4) and [12,20) stay free, and freeing 4..12 merges all back.
  FreeBlocks blocks;
  EXPECT_EQ(blocks.TakeTop(3, 1), 0);
  EXPECT_EQ(blocks.TakeTop(17, 1), 3);
  EXPECT_EQ(blocks.TakeTop(10, 1), 20);
  blocks.Give(3, 20);
  const std::optional<FreeBlocks::Fit> fit = blocks.BestFit(8, 4);
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(blocks.TakeAt(*fit, 8), 4);
  EXPECT_EQ(blocks.BestFit(1, 1)->block_offset, 3);   // the 1 B padding is the tightest
  EXPECT_EQ(blocks.BestFit(8, 1)->block_offset, 12);  // the tail
  blocks.Give(4, 12);
  EXPECT_EQ(blocks.BestFit(17, 1)->block_size, 17);
}

}  // namespace
}  // namespace memplan
