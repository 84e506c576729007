#include "packing/window_search.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "packing/pack_support.h"
#include "packing/skyline.h"
#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// PackItem{size, alignment, start, end}.
TEST(WindowSearchTest, AnItemAloneInItsWindowDropsToTheFloor) {
  // y sits on nothing at step 1: its window [1,1] holds it alone; best fit
  // puts it at 0, the peak falls from 20 to the bound, 10.
  const std::vector<PackItem> items = {{10, 1, 0, 0}, {10, 1, 1, 1}};
  const WindowSearchOutcome r = SearchWindows(items, {0, 10}, 10, 1, kUnlimited);
  ASSERT_TRUE(r.offsets.has_value());
  EXPECT_THAT(*r.offsets, ElementsAre(0, 0));
  EXPECT_EQ(r.peak, 10);
  EXPECT_EQ(r.windows, 1);
  EXPECT_EQ(r.improved, 1);
}

TEST(WindowSearchTest, ItemsCrossingTheWindowStayPut) {
  // x [0,3] @10 crosses y's window [1,1]: it is an obstacle, and y goes into
  // the hole below it. Peak 30 -> 20 (max-live: x and one other at a time).
  const std::vector<PackItem> items = {{10, 1, 0, 3}, {10, 1, 1, 1}, {10, 1, 2, 2}, {10, 1, 0, 0}};
  const WindowSearchOutcome r = SearchWindows(items, {10, 20, 0, 0}, 20, 1, kUnlimited);
  ASSERT_TRUE(r.offsets.has_value());
  EXPECT_THAT(*r.offsets, ElementsAre(10, 0, 0, 0));
  EXPECT_EQ(r.peak, 20);
}

TEST(WindowSearchTest, AWiderWindowWhenTheItemsOwnDoesNotHelp) {
  // a [0,1] @10 leaves a 10 B hole below it; h [1,1] (20 B) cannot use it
  // and sits on a at 20 (peak 40; max-live 30 at step 1). In h's own window
  // [1,1], a is an obstacle: h stays at 20. Widened by h's length, to
  // [0,2], the window holds a too: best fit puts h at 0 and a on it at 20.
  const std::vector<PackItem> items = {{10, 1, 0, 1}, {20, 1, 1, 1}};
  const WindowSearchOutcome r = SearchWindows(items, {10, 20}, 30, 1, kUnlimited);
  ASSERT_TRUE(r.offsets.has_value());
  EXPECT_THAT(*r.offsets, ElementsAre(20, 0));
  EXPECT_EQ(r.peak, 30);
  EXPECT_EQ(r.windows, 2);
  EXPECT_EQ(r.improved, 1);
}

TEST(WindowSearchTest, FixedItemsNeverMove) {
  // y's fixed offset 10 is the peak: the search stops at once.
  std::vector<PackItem> items = {{10, 1, 0, 0}, {10, 1, 1, 1}};
  items[1].mutable_fixed_offset() = 10;
  const WindowSearchOutcome r = SearchWindows(items, {0, 10}, 10, 1, kUnlimited);
  EXPECT_FALSE(r.offsets.has_value());
  EXPECT_EQ(r.windows, 0);
}

TEST(WindowSearchTest, NoWorkNoChange) {
  const std::vector<PackItem> items = {{10, 1, 0, 0}, {10, 1, 1, 1}};
  const WindowSearchOutcome r = SearchWindows(items, {0, 10}, 10, 1, 0);
  EXPECT_FALSE(r.offsets.has_value());
  EXPECT_EQ(r.peak, 20);
}

// A work limit is the search's total: a search allowed exactly the work an
// unlimited one counted finds the same packing. (Each re-pack used to be
// given the limit minus the work already done as its own limit on the
// running total, so every re-pack after the first stopped early.)
TEST(WindowSearchTest, AllowedTheWorkItCountsTheSearchFindsTheSame) {
  const std::vector<PackItem> items = {{10, 1, 0, 1}, {20, 1, 1, 1}};
  const WindowSearchOutcome unlimited = SearchWindows(items, {10, 20}, 30, 1, kUnlimited);
  ASSERT_TRUE(unlimited.offsets.has_value());
  ASSERT_EQ(unlimited.windows, 2);
  const WindowSearchOutcome limited = SearchWindows(items, {10, 20}, 30, 1, unlimited.work);
  EXPECT_EQ(limited.offsets, unlimited.offsets);
  EXPECT_EQ(limited.peak, 30);
  EXPECT_EQ(limited.work, unlimited.work);
}

// From skyline packings of random inputs (alignments 1-16, some fixed
// items): every result is a valid packing no higher than its start, fixed
// items stay, and the same input gives the same offsets.
TEST(WindowSearchTest, ValidAndDeterministicOnRandomInputs) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::vector<PackItem> items = testing::RandomItems(120, 60, 64, seed);
    for (std::size_t i = 0; i < items.size(); i += 17) {
      if (items[i].size > 0) items[i].mutable_fixed_offset() = 4096 + 64 * static_cast<Bytes>(i);
    }
    for (PackItem& item : items) {
      if (item.fixed_offset()) {
        *item.mutable_fixed_offset() -= *item.fixed_offset() % item.alignment;
      }
    }
    const PackResult start = SkylinePack(items, SkylineOrder::kLongestFirst, 2);
    const WindowSearchOutcome r =
        SearchWindows(items, start.offsets, MaxLiveBytes(items), 2, kUnlimited);
    const std::vector<Bytes> offsets = r.offsets ? *r.offsets : start.offsets;
    EXPECT_EQ(testing::CheckPacking(items, offsets, r.peak, 2), "") << "seed " << seed;
    EXPECT_LE(r.peak, start.peak);
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (items[i].fixed_offset()) {
        EXPECT_EQ(offsets[i], *items[i].fixed_offset());
      }
    }
    const WindowSearchOutcome again =
        SearchWindows(items, start.offsets, MaxLiveBytes(items), 2, kUnlimited);
    EXPECT_EQ(again.offsets, r.offsets);
    EXPECT_EQ(again.work, r.work);
  }
}

}  // namespace
}  // namespace memplan
